"""A source whose folder was moved, indexed from its new folder under its held name.

Found in a walkthrough: after ``mv w w4``, ``skill-retriever index w4 --source-name w`` was
refused (source 'w' held from another folder), and the advice, ``remove-source w`` and
then that command, embedded every text again (539 for wshobson__agents): the vectors went
with the removed items. The old folder gone from disk (or no folder now), the run is a
move: the source's recorded folder becomes the new one, its ids stay (they begin with the
name), so unchanged texts embed nothing, and what the new folder no longer has goes as in
any re-index. Two folders still cannot share a name: the old one there, it is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.exceptions import IngestError
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: {name} for tests\n---\n\n{name} body\n"


def _repo(root: Path) -> Path:
    for name in ("alpha", "beta", "gamma"):
        write_file(root, f"skills/{name}/SKILL.md", _skill(name))
    write_file(root, "agents/helper.md", "---\nname: helper\ndescription: helps alpha\n---\n\nhelps\n")
    return root


@pytest.fixture
def embedder() -> HashingEmbedder:
    return HashingEmbedder()


@pytest.fixture
def index(tmp_path: Path, embedder: HashingEmbedder) -> Iterator[Index]:
    opened = Index.open(tmp_path / "idx", embedder=embedder, create=True)
    yield opened
    opened.close()


def _roots(index: Index) -> set[tuple[object, object]]:
    return {(n.attrs.get("source_name"), n.attrs.get("source_root")) for n in index.snapshot().nodes.values()}


def test_a_moved_folder_under_its_held_name_embeds_nothing(
    index: Index, embedder: HashingEmbedder, tmp_path: Path
) -> None:
    old = _repo(tmp_path / "w")
    index_sources(index, old)
    ids, edges = set(index.snapshot().nodes), set(index.snapshot().edges)
    embedded = embedder.texts_embedded
    new = old.rename(tmp_path / "w4")
    run = index_sources(index, new, source_name="w", calibrate=False)  # (its probes embed)
    assert embedder.texts_embedded == embedded and run.embedded == 0
    assert set(index.snapshot().nodes) == ids and set(index.snapshot().edges) == edges
    assert _roots(index) == {("w", str(new))}
    assert {n.source for n in index.snapshot().nodes.values()} == {
        str(new / "skills/alpha/SKILL.md"), str(new / "skills/beta/SKILL.md"), str(new / "skills/gamma/SKILL.md"),
        str(new / "agents/helper.md"),
    }
    assert run.moved == {str(new): {"from": [str(old)], "to": str(new), "items": 4}}
    assert not run.removed


def test_a_moved_folder_loses_what_it_no_longer_has_and_embeds_what_changed(
    index: Index, embedder: HashingEmbedder, tmp_path: Path
) -> None:
    old = _repo(tmp_path / "w")
    index_sources(index, old)
    embedded = embedder.texts_embedded
    new = old.rename(tmp_path / "w4")
    (new / "skills/gamma/SKILL.md").unlink()
    write_file(new, "skills/beta/SKILL.md", _skill("beta") + "more about beta\n")
    run = index_sources(index, new, source_name="w", calibrate=False)
    assert run.removed == {str(new): ["w/skills/gamma/SKILL.md"]}
    assert embedder.texts_embedded - embedded == 1  # beta's new text alone
    assert _roots(index) == {("w", str(new))}


def test_a_folder_moved_under_another_parent_keeps_its_name(index: Index, embedder: HashingEmbedder, tmp_path: Path) -> None:
    """No --source-name: the new folder's name is the held one, and the old folder is gone."""
    old = _repo(tmp_path / "a" / "skills")
    index_sources(index, old)
    embedded = embedder.texts_embedded
    (tmp_path / "b").mkdir()
    new = old.rename(tmp_path / "b" / "skills")
    run = index_sources(index, new, calibrate=False)
    assert embedder.texts_embedded == embedded and list(run.moved) == [str(new)]
    assert _roots(index) == {("skills", str(new))}


def test_an_old_path_that_is_a_file_now_is_moved_from(index: Index, tmp_path: Path) -> None:
    old = _repo(tmp_path / "w")
    index_sources(index, old)
    new = old.rename(tmp_path / "w4")
    old.write_text("not a folder any more\n", encoding="utf-8")
    index_sources(index, new, source_name="w")
    assert _roots(index) == {("w", str(new))}


def test_the_old_folder_still_there_is_refused_as_before(index: Index, tmp_path: Path) -> None:
    """Two folders cannot share a name: the items of one would replace the other's."""
    old = _repo(tmp_path / "w")
    index_sources(index, old)
    copy = _repo(tmp_path / "copy")
    before = index.snapshot().nodes
    with pytest.raises(IngestError, match=r"already holds source 'w' from \S+/w; .*pass --source-name NAME"):
        index_sources(index, copy, source_name="w")
    assert index.snapshot().nodes == before


def test_a_moved_folder_that_reads_nothing_is_not_moved(index: Index, tmp_path: Path) -> None:
    """An empty folder given by mistake: nothing read, nothing written, the source stays where it was."""
    old = _repo(tmp_path / "w")
    index_sources(index, old)
    before = index.snapshot().nodes
    old.rename(tmp_path / "elsewhere")
    empty = tmp_path / "empty"
    empty.mkdir()
    run = index_sources(index, empty, source_name="w")
    assert run.read_nothing == [str(empty)] and not run.moved
    assert index.snapshot().nodes == before


def test_a_moved_tool_folder_keeps_its_ids(index: Index, embedder: HashingEmbedder, tmp_path: Path) -> None:
    """A tool set's ids are its tools' own: held from the old folder, they were refused as another source's."""
    old = tmp_path / "tools"
    old.mkdir()
    rows = [{"id": f"t{i}", "name": f"tool {i}", "description": f"does thing {i}"} for i in range(3)]
    (old / "tools.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    index_sources(index, old)
    embedded = embedder.texts_embedded
    new = old.rename(tmp_path / "tools-2")
    index_sources(index, new, source_name="tools", calibrate=False)
    assert embedder.texts_embedded == embedded
    assert _roots(index) == {("tools", str(new))}


def test_keep_missing_keeps_a_moved_folders_missing_items_under_the_new_folder(index: Index, tmp_path: Path) -> None:
    old = _repo(tmp_path / "w")
    index_sources(index, old)
    new = old.rename(tmp_path / "w4")
    (new / "skills/gamma/SKILL.md").unlink()
    run = index_sources(index, new, source_name="w", prune=False)
    assert run.kept == {str(new): ["w/skills/gamma/SKILL.md"]}
    assert _roots(index) == {("w", str(new))}  # `stats` names no folder gone from disk


def test_the_cli_says_the_source_moved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, ix = _repo(tmp_path / "w"), tmp_path / "ix"
    assert run(capsys, "index", old, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    new = old.rename(tmp_path / "w4")
    code, out, err = run(capsys, "index", new, "--index-dir", ix, "--source-name", "w")
    assert code == 0, err
    assert f"  moved source w from {old} to {new}" in out.splitlines()
    assert "  0 new, 0 changed, 4 unchanged" in out.splitlines()
    assert "embedded 0 texts;" in out
    (new / "skills/beta/SKILL.md").unlink()
    new2 = new.rename(tmp_path / "w5")
    code, out, _ = run(capsys, "index", new2, "--index-dir", ix, "--source-name", "w", "--json")
    data = json.loads(out)
    assert code == 0 and data["run"]["embedded"] == 0
    assert data["run"]["moved"] == {str(new2): {"from": [str(new)], "to": str(new2), "items": 4}}  # held, one then removed
    assert data["run"]["nodes_removed"] == {str(new2): 1}


def _graph(*ids: str) -> dict[str, object]:
    return {"nodes": [{"id": i, "kind": "incident", "name": i, "text": f"{i} broke checkout"} for i in ids],
            "edges": [{"source": ids[0], "target": ids[-1], "kind": "RELATED_TO"}] if len(ids) > 1 else []}


def test_a_moved_json_graph_file_keeps_its_items_and_vectors(
    index: Index, embedder: HashingEmbedder, tmp_path: Path
) -> None:
    """A JSON graph is indexed by its file: after ``mv g h``, ``index h/graph.json
    --source-name g`` was refused (one file moved no source), and its advice, remove-source
    then this command, embedded every text again. Now it moves the source as a folder does."""
    old = tmp_path / "g"
    write_file(old, "graph.json", _graph("a", "b"))
    index_sources(index, old / "graph.json")
    ids, edges, embedded = set(index.snapshot().nodes), set(index.snapshot().edges), embedder.texts_embedded
    new = old.rename(tmp_path / "h")
    run = index_sources(index, new / "graph.json", source_name="g", calibrate=False)
    assert embedder.texts_embedded == embedded and run.embedded == 0
    assert set(index.snapshot().nodes) == ids and set(index.snapshot().edges) == edges
    assert _roots(index) == {("g", str(new))}
    nodes = index.snapshot().nodes.values()
    assert {n.attrs["source_file"] for n in nodes} == {n.source for n in nodes} == {str(new / "graph.json")}
    assert run.moved == {str(new / "graph.json"): {
        "from": [str(old)], "to": str(new), "items": 2,
        "file": {"from": str(old / "graph.json"), "to": str(new / "graph.json")}}}
    assert not run.removed


def test_a_moved_and_renamed_json_graph_file_loses_what_it_no_longer_holds(
    index: Index, embedder: HashingEmbedder, tmp_path: Path
) -> None:
    """Moved, renamed and edited: what it still holds keeps its vector, a node it dropped
    leaves, and the items are recorded as read from the new file."""
    old = tmp_path / "g"
    write_file(old, "graph.json", _graph("a", "b", "c"))
    index_sources(index, old / "graph.json")
    embedded = embedder.texts_embedded
    (tmp_path / "g").rename(tmp_path / "gone")
    new = write_file(tmp_path / "h", "incidents.json", _graph("a", "b", "d"))
    run = index_sources(index, new, source_name="g", calibrate=False)
    assert run.removed == {str(new): ["c"]}
    assert embedder.texts_embedded - embedded == 2  # d's text and its new edge's
    nodes = index.snapshot().nodes.values()
    assert {n.id for n in nodes} == {"a", "b", "d"}
    assert {n.attrs["source_file"] for n in nodes} == {str(new)}


def test_a_file_that_holds_none_of_the_moved_sources_items_is_refused(index: Index, tmp_path: Path) -> None:
    """A move keeps ids and texts: a file holding none of the source's items is another
    file, not that one moved, and is refused before anything is written."""
    old = tmp_path / "g"
    write_file(old, "graph.json", _graph("a", "b"))
    index_sources(index, old / "graph.json")
    before = index.snapshot()
    old.rename(tmp_path / "gone")
    other = write_file(tmp_path / "h", "graph.json", _graph("x", "y"))
    with pytest.raises(IngestError, match=(
        rf"source 'g' is held from {old} \(gone from disk\), but {other} holds none of its 2 item\(s\) "
        r"\(no item of the same id and text\): it is not that source's file moved; .*"
        r"`skill-retriever remove-source g --index-dir \S+` first")):
        index_sources(index, other, source_name="g")
    assert index.snapshot().nodes == before.nodes and index.snapshot().edges == before.edges


def test_a_moved_corpus_file_keeps_its_passages(index: Index, embedder: HashingEmbedder, tmp_path: Path) -> None:
    old = write_file(tmp_path / "c", "corpus.json", [{"idx": i, "title": f"t{i}", "text": f"passage {i}"} for i in range(3)])
    index_sources(index, old, ner=False)
    ids, embedded = set(index.snapshot().nodes), embedder.texts_embedded
    (tmp_path / "c").rename(tmp_path / "d")
    run = index_sources(index, tmp_path / "d" / "corpus.json", source_name="c", ner=False, calibrate=False)
    assert embedder.texts_embedded == embedded and set(index.snapshot().nodes) == ids
    assert _roots(index) == {("c", str(tmp_path / "d"))} and not run.removed


def test_one_document_file_of_a_moved_folder_moves_no_source(index: Index, tmp_path: Path) -> None:
    """A document's id begins with its path in its folder: one file read alone under the
    name of a folder gone is refused, with the way that works (the folder whole)."""
    old = tmp_path / "g"
    write_file(old, "guide.md", "# Guide\n\nHow to deploy the checkout service.\n")
    index_sources(index, old, kind="docs")
    new = old.rename(tmp_path / "h")
    with pytest.raises(IngestError, match=(
        r"is gone \(moved to \S+/h\?\), but one document file moves no source: index a folder of documents whole")):
        index_sources(index, new / "guide.md", source_name="g")


def test_the_cli_says_the_graph_file_moved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, ix = write_file(tmp_path / "g", "graph.json", _graph("a", "b")), tmp_path / "ix"
    assert run(capsys, "index", old, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    (tmp_path / "g").rename(tmp_path / "h")
    code, _, err = run(capsys, "index", old, "--index-dir", ix)  # the old path says how to take it in
    assert code == 2 and f"if it was moved, `skill-retriever index NEWPATH --source-name g --index-dir {ix}` takes them in" in err
    new = tmp_path / "h" / "graph.json"
    code, out, err = run(capsys, "index", new, "--index-dir", ix, "--source-name", "g")
    assert code == 0, err
    assert f"  moved source g from {old.parent} to {new.parent}" in out.splitlines()
    assert "  0 new, 0 changed, 2 unchanged" in out.splitlines()
    renamed = (tmp_path / "h").rename(tmp_path / "k") / "graph.json"
    renamed = renamed.rename(renamed.parent / "renamed.json")
    code, out, err = run(capsys, "index", renamed, "--index-dir", ix, "--source-name", "g")
    assert code == 0, err
    assert f"  moved source g from {new.parent} to {renamed.parent} (its file {new} is now {renamed})" in out.splitlines()
    assert "  0 new, 0 changed, 2 unchanged" in out.splitlines()


def test_a_move_stopped_after_it_recorded_the_new_folder_is_completed_by_the_next_run(
    index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed between the write that records the new folder and the rest: the run's mark
    stays, and the next run (no move left to make) completes it, removing what is gone."""
    from skill_retriever import indexing

    old = _repo(tmp_path / "w")
    index_sources(index, old)
    new = old.rename(tmp_path / "w4")
    (new / "skills/gamma/SKILL.md").unlink()

    def killed(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(indexing, "write_result", killed)
        with pytest.raises(KeyboardInterrupt):
            index_sources(index, new, source_name="w")
    assert _roots(index) == {("w", str(new))} and "w" in index.snapshot().unfinished_runs
    run = index_sources(index, new, source_name="w")
    assert not run.moved and list(run.completed) == [str(new)]
    assert run.removed == {str(new): ["w/skills/gamma/SKILL.md"]}
    assert not index.snapshot().unfinished_runs
