"""An index folder moved, deleted or replaced while a handle has it open is not damage
(found by a walkthrough of the Python API). The README's table of errors says such a
folder is an ``IndexNotFoundError`` and that only a damaged index is an
``IndexCorruptError``, "so a caller that catches that one to repair or rebuild acts only
on damage"; the next search of a `Retriever` over it raised ``IndexCorruptError``, which
sent such a caller to repair or rebuild an index that was whole, where it now is."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from skill_retriever.exceptions import IndexCorruptError, IndexNotFoundError, IndexOpenError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _build(path: Path) -> None:
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.add(Node(id="skill:alpha", kind="skill", name="alpha", text="alpha writes structured logs"))


@pytest.mark.parametrize("what", ["moved", "deleted", "replaced"])
def test_a_search_over_a_folder_moved_deleted_or_replaced_is_not_told_it_is_damaged(tmp_path: Path, what: str) -> None:
    path = tmp_path / "idx"
    _build(path)
    index = Index.open(path, embedder=HashingEmbedder())
    retriever = Retriever(index, reranker=None)
    assert retriever.search("structured logs", k=1).results
    if what == "moved":
        path.rename(tmp_path / "elsewhere")
    else:
        shutil.rmtree(path)
        if what == "replaced":
            _build(path)
    with pytest.raises(IndexNotFoundError, match=r"since the index was opened[ ;(]") as caught:
        retriever.search("structured logs again", k=1)
    assert not isinstance(caught.value, IndexCorruptError)
    assert isinstance(caught.value, IndexOpenError)  # still caught by the catch-all
    index.close()


# What happened is told apart by the identity of the file the handle opened (SQLite's own
# descriptor of it): moved (to where), deleted, or replaced; each with what to do. All
# were "was deleted or replaced since the index was opened; open the index again", also
# for a folder moved, where opening it again at its old path finds no index.
needs_fd_paths = pytest.mark.skipif(sys.platform != "linux", reason="where a moved file is now: /proc/self/fd")


@needs_fd_paths
def test_a_moved_folder_is_said_moved_and_where_to_open_it(tmp_path: Path) -> None:
    path = tmp_path / "idx"
    _build(path)
    index = Index.open(path, embedder=HashingEmbedder())
    retriever = Retriever(index, reranker=None)
    path.rename(tmp_path / "elsewhere")
    for use in (lambda: len(index), lambda: retriever.search("structured logs", k=1)):
        with pytest.raises(IndexNotFoundError) as caught:
            use()
        assert str(caught.value) == (
            f"{path / 'items.sqlite'} was moved to {tmp_path / 'elsewhere' / 'items.sqlite'} since the index "
            f"was opened; open the index at {tmp_path / 'elsewhere'} (an MCP server: restart it with that folder)"
        )
    index.close()
    with Index.open(tmp_path / "elsewhere", embedder=HashingEmbedder()) as there:  # as the message says
        assert len(there) == 1


@needs_fd_paths
@pytest.mark.parametrize(
    ("what", "said"),
    [
        ("deleted", ("{db} was deleted since the index was opened (a move to another disk copies it and "
                    "deletes it here); build the index again with `skill-retriever index <sources> --index-dir {dir}` "
                    "or open it where a copy is (an MCP server: restart it)")),
        ("rebuilt", ("{db} was deleted and another index built in its place since the index was opened; "
                    "open the index again to read the new one (an MCP server: restart it)")),
        ("replaced", ("{db} was replaced by another file since the index was opened, and the one opened is "
                     "now at {old}; open the index again to read the new one, or open {old_dir} "
                     "(an MCP server: restart it)")),
    ],
)
def test_a_deleted_or_replaced_folder_says_which_and_what_to_do(tmp_path: Path, what: str, said: str) -> None:
    path = tmp_path / "idx"
    _build(path)
    index = Index.open(path, embedder=HashingEmbedder())
    if what == "replaced":  # moved aside, another built at the path
        path.rename(tmp_path / "old")
    else:
        shutil.rmtree(path)
    if what != "deleted":
        _build(path)
    with pytest.raises(IndexNotFoundError) as caught:
        index.snapshot()
    assert str(caught.value) == said.format(
        db=path / "items.sqlite", dir=path, old=tmp_path / "old" / "items.sqlite", old_dir=tmp_path / "old"
    )
    index.close()
