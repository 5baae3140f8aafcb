"""Only a damaged index raises `IndexCorruptError`: what nothing damaged causes (its server
down, a user's rights, a path a new index cannot take, a closed `Index`) has a class of its
own under `IndexOpenError`, so code that catches `IndexCorruptError` to repair or rebuild
never acts on an index that nothing is wrong with; ``except IndexOpenError`` still catches
every one of them, and each message says what to do."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import (
    IndexClosedError,
    IndexCorruptError,
    IndexLocationError,
    IndexNotFoundError,
    IndexOpenError,
    IndexPermissionError,
    ServerUnreachableError,
)
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores import permissions
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

NOT_DAMAGE = (IndexNotFoundError, ServerUnreachableError, IndexPermissionError, IndexLocationError, IndexClosedError)


@pytest.mark.parametrize("cls", NOT_DAMAGE)
def test_what_is_not_damage_is_an_open_error_but_no_corrupt_one(cls: type[IndexOpenError]) -> None:
    assert issubclass(cls, IndexOpenError) and issubclass(cls, RuntimeError)
    assert not issubclass(cls, IndexCorruptError)
    try:
        raise cls("x")
    except IndexCorruptError:  # a caller's repair branch: never taken for these
        pytest.fail(f"{cls.__name__} was caught as damage")
    except IndexOpenError:
        pass


def test_the_old_import_of_the_permission_error_is_the_same_class() -> None:
    assert permissions.IndexPermissionError is IndexPermissionError


def test_a_closed_index_says_to_open_it_again(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "ix")
    retriever = Retriever(index, RetrievalConfig(rerank=False))
    assert retriever.search("deploy", k=1).results  # it works while open
    index.close()
    for use in (index.snapshot, lambda: retriever.search("deploy", k=1)):
        with pytest.raises(IndexClosedError, match=r"was closed; open it again with Index.open") as err:
            use()
        assert not isinstance(err.value, IndexCorruptError)
    with pytest.raises(IndexClosedError, match="open it again"):
        index.add([Node(id="x", kind="skill", name="x", text="x")])
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder()) as again:  # nothing was damaged
        assert Retriever(again, RetrievalConfig(rerank=False)).search("deploy", k=1).results


def test_a_path_a_new_index_cannot_take_is_a_location_error(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(IndexLocationError, match="holds other files; choose an empty or new directory"):
        Index.open(mine, embedder=HashingEmbedder(), create=True)
    file = tmp_path / "file"
    file.write_text("keep", encoding="utf-8")
    with pytest.raises(IndexLocationError, match="is a file, not an index directory; choose a directory"):
        Index.open(file, embedder=HashingEmbedder(), create=True)
    with pytest.raises(IndexLocationError, match="choose a directory that can be created"):
        Index.open(file / "sub", embedder=HashingEmbedder(), create=True)
    assert (mine / "notes.txt").read_text(encoding="utf-8") == "keep" and file.read_text(encoding="utf-8") == "keep"


def test_an_unreadable_file_is_a_permission_error_not_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_tiny_index(tmp_path / "ix").close()
    database = tmp_path / "ix" / "items.sqlite"
    real = permissions.os.access  # root reads everything: deny as the kernel does another user

    def access(p: object, mode: int, *args: object, **kw: object) -> bool:
        return False if Path(str(p)) == database else real(p, mode, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(permissions.os, "access", access)
    with pytest.raises(IndexPermissionError, match="nothing is damaged, do not delete the index") as err:
        Index.open(tmp_path / "ix", embedder=HashingEmbedder())
    assert not isinstance(err.value, IndexCorruptError) and isinstance(err.value, IndexOpenError)
