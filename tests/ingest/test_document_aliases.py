"""A document reached twice in one folder of documents (a symbolic link to it under another
name) is one item, under the real file's path, with a note naming the link.

Real links in tmp_path, read by the real `index_sources` into a real `Index` (the small
deterministic embedder) and searched by the real `Retriever`: before, ``sub/restore-link.md
-> ../restore.md`` made two identical items, a search returned both, and "nothing fits"
read "Restore the database (document), Restore the database (document)".
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from files import write_file

from skill_retriever import Retriever
from skill_retriever.indexing import index_sources
from skill_retriever.model import EdgeKind
from skill_retriever.stores.index import Index

RESTORE = "# Restore the database\n\nHow to restore the primary database from last night's backup.\n"


def _mentions(index: Index) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in index.snapshot().edges.values() if e.kind is EdgeKind.MENTIONS}


def _notes(run_notes: list[str], root: Path) -> dict[str, str]:
    return {Path(p).relative_to(root).as_posix(): m for p, m in (n.split(": ", 1) for n in run_notes)}


def _docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    write_file(root, "restore.md", RESTORE)
    write_file(root, "docs/index.md", "# Handbook\n\nWhere the team's runbooks live.\n")
    write_file(root, "deploy.md", "# Deploy\n\nShip it; if it fails see [restore](sub/restore-link.md) "
                                  "and [the handbook](README.md).\n")
    (root / "sub").mkdir()
    (root / "sub" / "restore-link.md").symlink_to("../restore.md")
    (root / "README.md").symlink_to("docs/index.md")
    return root


def test_a_link_under_another_name_is_one_item_under_the_real_path(tmp_path: Path, index_dir: Path) -> None:
    root = _docs(tmp_path)
    with Index.open(index_dir) as index:
        run = index_sources(index, [root], kind="docs")
        assert set(index.snapshot().nodes) == {"docs/restore.md", "docs/docs/index.md", "docs/deploy.md"}
        # the links to the alias paths lead to the items they were folded into
        assert _mentions(index) == {("docs/deploy.md", "docs/restore.md"), ("docs/deploy.md", "docs/docs/index.md")}
        result = run.sources[0]
        assert not result.skips
        notes = _notes([str(p) for p in result.notes], root)
        assert set(notes) == {"README.md", "sub/restore-link.md"}
        assert notes["README.md"].startswith("symbolic link to docs/index.md, another document of this folder: "
                                             "indexed once, as docs/index.md")
        assert "as restore.md (links to it lead there)" in notes["sub/restore-link.md"]
        found = Retriever(index, reranker=None).search("restore the primary database backup")
        assert [r.id for r in found.results].count("docs/restore.md") == 1
        assert [r.name for r in found.results].count("Restore the database") == 1


def test_the_real_path_wins_whatever_the_order_of_the_listing(tmp_path: Path, index_dir: Path) -> None:
    root = tmp_path / "docs"
    write_file(root, "z-real.md", RESTORE)
    (root / "a-link.md").symlink_to("z-real.md")  # listed first
    (root / "b-chain.md").symlink_to("a-link.md")  # a link to the link: the same file
    write_file(root, "notes.org", "* Notes\nnot a document suffix\n")
    (root / "one.md").symlink_to("notes.org")  # no document of its own: read through the first link
    (root / "two.md").symlink_to("notes.org")
    (root / "sub").mkdir()
    (root / "sub" / "z-real.md").symlink_to("../z-real.md")  # its own name: the walk's "twice" note replaced
    with Index.open(index_dir) as index:
        run = index_sources(index, [root], kind="docs", calibrate=False)
        assert set(index.snapshot().nodes) == {"docs/z-real.md", "docs/one.md"}
        notes = _notes([str(p) for p in run.sources[0].problems], root)
        assert set(notes) == {"a-link.md", "b-chain.md", "two.md", "sub/z-real.md"}
        assert "indexed once, as z-real.md" in notes["b-chain.md"]
        assert "indexed once, as one.md" in notes["two.md"]
        assert "indexed twice" not in notes["sub/z-real.md"] and "as z-real.md" in notes["sub/z-real.md"]


def test_reindexing_as_the_link_comes_and_goes(tmp_path: Path, index_dir: Path) -> None:
    root = tmp_path / "docs"
    write_file(root, "restore.md", RESTORE)
    write_file(root, "deploy.md", "# Deploy\n\nIf it fails see [restore](restore-link.md).\n")
    write_file(root, "restore-link.md", RESTORE.replace("database", "cache"))  # a real file first
    with Index.open(index_dir) as index:
        index_sources(index, [root], kind="docs", calibrate=False)
        assert set(index.snapshot().nodes) == {"docs/restore.md", "docs/restore-link.md", "docs/deploy.md"}
        # the file becomes a link: its item goes, the link from deploy.md leads to the real file
        (root / "restore-link.md").unlink()
        (root / "restore-link.md").symlink_to("restore.md")
        run = index_sources(index, [root], kind="docs", calibrate=False)
        assert run.removed == {str(root): ["docs/restore-link.md"]}
        assert set(index.snapshot().nodes) == {"docs/restore.md", "docs/deploy.md"}
        assert _mentions(index) == {("docs/deploy.md", "docs/restore.md")}
        # deploy.md read alone keeps its link through the alias (on disk, not an item)
        write_file(root, "deploy.md", "# Deploy\n\nIf it fails, see [restore](restore-link.md).\n")
        index_sources(index, [root / "deploy.md"], calibrate=False)
        assert _mentions(index) == {("docs/deploy.md", "docs/restore.md")}
        # the link read alone is the real file's item, not a copy
        run = index_sources(index, [root / "restore-link.md"], calibrate=False)
        assert [n.id for n in run.sources[0].nodes] == ["docs/restore.md"]
        assert set(index.snapshot().nodes) == {"docs/restore.md", "docs/deploy.md"}
        # the link removed: the item stays, the link to nowhere makes no edge
        (root / "restore-link.md").unlink()
        index_sources(index, [root], kind="docs", calibrate=False)
        assert set(index.snapshot().nodes) == {"docs/restore.md", "docs/deploy.md"} and _mentions(index) == set()
        # and a real file again: an item of its own
        shutil.copy(root / "restore.md", root / "restore-link.md")
        index_sources(index, [root], kind="docs", calibrate=False)
        assert set(index.snapshot().nodes) == {"docs/restore.md", "docs/restore-link.md", "docs/deploy.md"}
        assert _mentions(index) == {("docs/deploy.md", "docs/restore-link.md")}


@pytest.mark.parametrize("kind", ["docs", None])  # --kind docs, and a folder with no component read as documents
def test_a_link_out_of_the_folder_is_not_followed(tmp_path: Path, index_dir: Path, kind: str | None) -> None:
    """The notes call the folder a documents folder: "outside the repository" (the skills
    walk's word) was said of a folder of runbooks."""
    write_file(tmp_path, "private/keys.md", "# Keys\n\nThe production signing keys live here.\n")
    root = tmp_path / "docs"
    write_file(root, "restore.md", RESTORE)
    (root / "keys.md").symlink_to(tmp_path / "private" / "keys.md")
    (root / "vault").symlink_to(tmp_path / "private")
    (root / "again").symlink_to("sub")
    write_file(root, "sub/drain.md", "# Drain a node\n\nCordon it, then evict its pods.\n")
    with Index.open(index_dir) as index:
        run = index_sources(index, [root], kind=kind, calibrate=False)
        assert set(index.snapshot().nodes) == {"docs/restore.md", "docs/sub/drain.md"}
        notes = _notes([str(p) for p in run.sources[0].notes if str(p.path) != str(root)], root)
        assert set(notes) == {"keys.md", "vault", "again"}
        assert "a file outside the documents folder: skipped" in notes["keys.md"]
        assert "a folder outside the documents folder: not followed" in notes["vault"]
        assert "another folder within this documents folder: not followed (it leads to sub" in notes["again"]
        assert not any("repository" in m for m in notes.values())
        found = Retriever(index, reranker=None).search("production signing keys")
        assert all("Keys" not in r.name for r in found.results)


def test_nothing_fits_names_two_documents_of_one_title_apart(tmp_path: Path, index_dir: Path) -> None:
    root = tmp_path / "d"
    write_file(root, "api/README.md", "# Overview\n\nThe api service handles payments.\n")
    write_file(root, "web/README.md", "# Overview\n\nThe web frontend renders pages.\n")
    write_file(root, "other.md", "# Other\n\nUnrelated notes here.\n")
    with Index.open(index_dir) as index:
        index_sources(index, [root], kind="docs")
        found = Retriever(index, reranker=None).search("quantum chromodynamics lattice")
        assert found.nothing_fits
        said = next(w for w in found.warnings if "the closest:" in w)
        assert "Overview (document d/api/README.md)" in said and "Overview (document d/web/README.md)" in said
