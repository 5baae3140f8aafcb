"""``print(index_sources(...))`` shows counts, not every item's text: the run (`IndexRun`)
and each source's result (`IngestResult`) have a one-line repr; the fields keep it all."""

from __future__ import annotations

from pathlib import Path

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SKILL = "---\nname: {name}\ndescription: {name} does one thing.\n---\n\n" + "A long body. " * 2000 + "\n"


def _skills(root: Path) -> Path:
    for name in ("alpha-skill", "beta-skill"):
        (root / "skills" / name).mkdir(parents=True)
        (root / "skills" / name / "SKILL.md").write_text(SKILL.format(name=name), encoding="utf-8")
    (root / "skills" / "broken").mkdir()
    (root / "skills" / "broken" / "SKILL.md").write_bytes(b"---\nname: [unclosed\n---\n\xff\xfe")
    return root


def test_a_run_and_its_sources_print_counts_not_texts(tmp_path: Path) -> None:
    source = _skills(tmp_path / "repo")
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True) as index:
        run = index_sources(index, [source], calibrate=False)

    shown, result = repr(run), run.sources[0]
    assert len(shown) < 400 and "\n" not in shown and "A long body" not in shown, shown
    assert str(run) == shown
    added = sum(w.nodes_added for w in run.writes)
    assert added == len(result.nodes) >= 2
    assert f"'{source}' ({len(result.nodes)} nodes, {len(result.edges)} edges)" in shown
    assert f"nodes_added={added}," in shown and f"embedded={run.embedded}," in shown
    assert f"problems={len(result.skips)}," in shown and len(result.skips) >= 1

    one = repr(result)
    assert one.startswith(f"IngestResult(source={str(source)!r}, nodes={len(result.nodes)}, ")
    assert "A long body" not in one and len(one) < 200
    # the fields still hold every item and problem
    assert any("A long body" in n.text for n in result.nodes)
    assert result.problems and run.to_dict()["nodes_added"] == added

    with Index.open(tmp_path / "idx", embedder=HashingEmbedder()) as index:
        again = index_sources(index, [source], calibrate=False)
    assert f"nodes_unchanged={len(result.nodes)}," in repr(again) and "nodes_added=0," in repr(again)


def test_a_source_that_read_no_item_is_said_in_python_as_the_cli_exits_1(tmp_path: Path) -> None:
    """A wrong folder (here one holding only a CSV) gave a run whose repr read as a run
    with nothing to change: 0 problems, 0 notes. The CLI exits 1 for it; a caller of
    ``index_sources`` reads it in ``run.read_nothing`` and in the one line."""
    wrong = tmp_path / "exports"
    wrong.mkdir()
    (wrong / "rows.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    source = _skills(tmp_path / "repo")
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True) as index:
        run = index_sources(index, [source, wrong], calibrate=False)
        assert len(index) == len(run.sources[0].nodes) >= 2  # the good source is written all the same
    assert run.read_nothing == [str(wrong)]
    assert repr(run).endswith(f"; read no item from {str(wrong)!r})"), repr(run)
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder()) as index:
        again = index_sources(index, [source], calibrate=False)
    assert again.read_nothing == [] and "read no item" not in repr(again)
