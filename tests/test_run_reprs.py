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
