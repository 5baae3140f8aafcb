"""One document file as a source (`index docs/ops/restore.md`): read as its folder's read
reads it, in the documents source the index holds around it, keeping the links and the
other files of that source; a file of no such source is one of its own folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.exceptions import IngestError
from skill_retriever.indexing import index_sources
from skill_retriever.model import EdgeKind, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def index(tmp_path: Path) -> Index:
    return Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)


def _mentions(index: Index) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in index.snapshot().edges.values() if e.kind is EdgeKind.MENTIONS}


def _docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    write_file(root, "a.md", "# Alpha\n\nAlpha steps; see [beta](b.md) and [gamma](ops/c.md).\n")
    write_file(root, "b.md", "# Beta\n\nBeta steps, back to [alpha](a.md).\n")
    write_file(root, "ops/c.md", "# Gamma\n\nGamma steps.\n")
    return root


def test_one_file_of_a_held_folder_updates_its_item_and_keeps_the_rest(tmp_path: Path, index: Index) -> None:
    root = _docs(tmp_path)
    with index:
        index_sources(index, [root], calibrate=False)
        edges = _mentions(index)
        assert edges == {("docs/a.md", "docs/b.md"), ("docs/a.md", "docs/ops/c.md"), ("docs/b.md", "docs/a.md")}
        write_file(root, "a.md", "# Alpha\n\nAlpha steps, rewritten; see [beta](b.md) and [gamma](ops/c.md).\n")
        run = index_sources(index, [root / "a.md"], calibrate=False)
        assert [n.id for n in run.sources[0].nodes] == ["docs/a.md"] and run.removed == {}
        snap = index.snapshot()
        assert set(snap.nodes) == {"docs/a.md", "docs/b.md", "docs/ops/c.md"}
        assert "rewritten" in snap.nodes["docs/a.md"].text
        assert _mentions(index) == edges  # its links to the folder's other files stay
        # A file deeper in the folder is that source's too: the same id, no copy.
        run = index_sources(index, [root / "ops" / "c.md"], calibrate=False)
        assert [n.id for n in run.sources[0].nodes] == ["docs/ops/c.md"] and len(index.snapshot().nodes) == 3
        # A link taken out of the file goes; the file that links to it keeps its own.
        write_file(root, "a.md", "# Alpha\n\nAlpha steps, no links now.\n")
        index_sources(index, [root / "a.md"], calibrate=False)
        assert _mentions(index) == {("docs/b.md", "docs/a.md")}


def test_a_file_of_no_held_source_is_one_of_its_own_folder(tmp_path: Path, index: Index) -> None:
    note = write_file(tmp_path / "notes", "deploy.md", "# Deploy\n\nShip it on Fridays.\n")
    write_file(tmp_path / "notes", "other.md", "# Other\n\nNot indexed.\n")
    with index:
        run = index_sources(index, [note], calibrate=False)
        assert [p.message for p in run.sources[0].problems] == []
        (node,) = index.snapshot().nodes.values()
        assert (node.id, node.kind, node.source) == ("notes/deploy.md", NodeKind.DOCUMENT, str(note.absolute()))
        assert (node.attrs["source_name"], node.attrs["source_root"]) == ("notes", str(note.parent.resolve()))
        note.write_text("# Deploy\n\nShip it on Mondays.\n", encoding="utf-8")
        index_sources(index, [note], calibrate=False)
        (node,) = index.snapshot().nodes.values()
        assert "Mondays" in node.text
        # Its folder read later is the same source: the same ids, and the other file joins.
        index_sources(index, [note.parent], calibrate=False)
        assert set(index.snapshot().nodes) == {"notes/deploy.md", "notes/other.md"}


def test_a_document_in_a_skills_repository_is_not_put_in_that_source(tmp_path: Path, index: Index) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "fmt/SKILL.md", "---\nname: fmt\ndescription: Formats code.\n---\nRun the formatter.\n")
    guide = write_file(repo, "guides/style.md", "# Style guide\n\nTabs, not spaces.\n")
    with index:
        index_sources(index, [repo], calibrate=False)
        index_sources(index, [guide], calibrate=False)  # a skills source never holds a document
        assert set(index.snapshot().nodes) == {"repo/fmt/SKILL.md", "guides/style.md"}
        index_sources(index, [repo], calibrate=False)  # and indexing the repository again keeps it
        assert "guides/style.md" in index.snapshot().nodes
        # A document beside the repository's own files would join it: refused, with the way out.
        readme = write_file(repo, "README.md", "# Repo\n\nWhat it holds.\n")
        with pytest.raises(IngestError, match="--source-name NAME"):
            index_sources(index, [readme], calibrate=False)
        index_sources(index, [readme], source_name="repo-docs", calibrate=False)
        assert index.snapshot().nodes["repo-docs/README.md"].attrs["source_name"] == "repo-docs"
        index_sources(index, [repo], calibrate=False)
        assert {"repo/fmt/SKILL.md", "repo-docs/README.md"} <= set(index.snapshot().nodes)


def test_the_cli_indexes_one_file_and_names_it_under_a_source_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = write_file(tmp_path / "notes", "deploy.md", "# Deploy\n\nShip it on Fridays.\n")
    index_dir = str(tmp_path / "index")
    assert main(["index", str(note), "--source-name", "runbooks", "--index-dir", index_dir]) == 0
    assert f"runbooks ({note}): 1 nodes" in capsys.readouterr().out
    assert main(["query", "when do we ship", "-k", "1", "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert "id: runbooks/deploy.md" in out and f"file: {note.absolute()}" in out
    skill = write_file(tmp_path / "repo", "fmt/SKILL.md", "---\nname: fmt\ndescription: Formats.\n---\nRun it.\n")
    assert main(["index", str(skill), "--kind", "docs", "--index-dir", index_dir]) == 0  # told: a document
    assert main(["index", str(tmp_path / "notes" / "gone.md"), "--index-dir", index_dir]) != 0
    assert "does not exist" in capsys.readouterr().err


def test_a_link_to_a_file_outside_the_folder_is_refused_as_its_folder_read_skips_it(
    tmp_path: Path, index: Index
) -> None:
    """``index docs/out.md``, a link to ``/elsewhere/notes.md``, made a source named
    ``elsewhere`` holding ``elsewhere/notes.md``, where the folder's read skips the link
    ("symbolic link to a file outside the documents folder"); the next read of ``docs``
    never took it out."""
    root = _docs(tmp_path)
    target = write_file(tmp_path / "elsewhere", "notes.md", "# Notes\n\nPrivate notes.\n")
    (root / "out.md").symlink_to(target)
    (root / "ops" / "alias.md").symlink_to("../a.md")  # inside the folder: read as a.md
    with index:
        index_sources(index, [root], calibrate=False)
        before = set(index.snapshot().nodes)
        for path in (root / "out.md", tmp_path / "fresh" / "out.md"):  # in a held source, and in none
            if not path.exists():
                path.parent.mkdir()
                path.symlink_to(target)
            with pytest.raises(IngestError) as caught:
                index_sources(index, [path], calibrate=False)
            message = str(caught.value)
            assert "symbolic link to a file outside the documents folder" in message
            assert str(target) in message and f"index {target}" in message
        assert set(index.snapshot().nodes) == before
        (root / "host.md").symlink_to(write_file(tmp_path / "etc", "hostname", "box\n"))  # no suffix: say --kind docs
        with pytest.raises(IngestError, match=r"index \S+/etc/hostname --kind docs"):
            index_sources(index, [root / "host.md"], calibrate=False)
        index_sources(index, [root / "ops" / "alias.md"], calibrate=False)
        assert set(index.snapshot().nodes) == before


@pytest.mark.parametrize(("rel", "why"), [("x.adoc", ".adoc"), ("node_modules/pkg/x.md", "node_modules"),
                                          ("LICENSE.md", "license")])
def test_a_file_a_read_of_its_folder_leaves_out_says_so_when_indexed_and_when_removed(
    tmp_path: Path, index: Index, rel: str, why: str
) -> None:
    """``index docs/x.adoc --kind docs`` read the file, and the next ``index docs`` took it
    out again with no word at the first run of what would come (a folder read leaves
    .adoc files out)."""
    root = _docs(tmp_path)
    write_file(root, rel, "= Guide\n\nAsciiDoc guide on restarts.\n")
    with index:
        index_sources(index, [root], kind="docs", calibrate=False)
        first = index_sources(index, [root / rel], kind="docs", calibrate=False)
        assert f"docs/{rel}" in index.snapshot().nodes
        [said] = [p.message for p in first.sources[0].notes if "leaves" in p.message]
        assert why in said and "removes" in said and f"docs/{rel}" in said
        second = index_sources(index, [root], kind="docs", calibrate=False)
        assert second.removed == {str(root): [f"docs/{rel}"]}
        [again] = [p.message for p in second.sources[0].notes if f"docs/{rel}" in p.message]
        assert why in again and "indexed alone" in again
        # A file its folder's read takes gets no such note.
        alone = index_sources(index, [root / "a.md"], calibrate=False)
        assert not [p for p in alone.sources[0].notes if "leaves" in p.message]
