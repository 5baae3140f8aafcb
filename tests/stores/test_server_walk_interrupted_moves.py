"""A ``move-to-server`` stopped halfway, on a real `chroma run` server: Ctrl-C (or an error)
while it fills the new collections deletes them before the interrupt goes on, and the
index keeps searching its previous ones; a kill, which cleans nothing up, leaves them for
the next move to delete; and collections marked as this directory's that no record names
are named by the next move and by ``stats``, never deleted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.model import Edge, Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores import move_leftovers
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.server_moves import move_index_to_server
from skill_retriever.stores.vectors import (
    OWNER_DIR_KEY,
    OWNER_KEY,
    ChromaVectorStore,
    chroma_client,
)


def _built(path: Path) -> Path:
    nodes = [Node(id=f"n{i}", kind="skill", name=f"n-{i}", text=f"skill number {i}") for i in range(8)]
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, [Edge("n0", "n1", "DEPENDS_ON")])
    return path


def _collections(url: str) -> dict[str, int]:
    client = chroma_client(url)
    return {c.name: int(c.count()) for c in client.list_collections()}


def _names(path: Path) -> set[str]:
    prefix = mf.read_manifest(path)["collection_prefix"]
    return {f"{prefix}-nodes", f"{prefix}-edges"}


def _interrupt_after_first_upsert(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the move copy its node vectors, then Ctrl-C it before the edge vectors: the
    walkthrough's "sr-<id>-nodes with vectors, sr-<id>-edges 0"."""
    real = ChromaVectorStore.upsert
    calls: list[str] = []

    def upsert(self: ChromaVectorStore, *args: object, **kwargs: object) -> None:
        calls.append(self.name)
        if len(calls) > 1:
            raise KeyboardInterrupt
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ChromaVectorStore, "upsert", upsert)


def _pending(path: Path) -> str | None:
    items = ItemStore(path / mf.DATABASE, writable=False)
    try:
        return items.get_meta(move_leftovers.PENDING_KEY)
    finally:
        items.close()


def test_ctrl_c_during_a_move_deletes_the_collections_it_made(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _built(tmp_path / "idx")
    move_index_to_server(path, url, embedder=HashingEmbedder())
    used, manifest = _names(path), mf.read_manifest(path)
    before = _collections(url)

    with monkeypatch.context() as m:
        _interrupt_after_first_upsert(m)
        code = main(["move-to-server", "--index-dir", str(path), "--chroma-url", url])
    err = capsys.readouterr().err
    assert code == 130
    assert f"run `skill-retriever move-to-server --index-dir {path} --chroma-url {url}` again" in err

    assert _collections(url) == before  # the half-filled set is gone, the index's own kept
    assert mf.read_manifest(path) == manifest and _names(path) == used
    assert not _pending(path)  # deleted: nothing left for the next move to clear
    with Index.open(path, embedder=HashingEmbedder()) as reader:  # still searches its collections
        snap = reader.snapshot()
        assert snap._remote is not None
        assert [h.id for h in snap.search_nodes(snap.embed_query("skill number 3"), 1, None)] == ["n3"]


def test_a_killed_move_leaves_its_collections_to_the_next_move(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _built(tmp_path / "idx")
    before = _collections(url)
    with monkeypatch.context() as m:  # a kill runs no clean-up: the record and the collections stay
        _interrupt_after_first_upsert(m)
        m.setattr(move_leftovers, "undo", lambda items, pending: None)
        with pytest.raises(KeyboardInterrupt):
            move_index_to_server(path, url, embedder=HashingEmbedder())
    orphans = {name: n for name, n in _collections(url).items() if name not in before}
    assert sorted(orphans.values()) == [0, 8], orphans  # nodes copied, edges not
    assert not mf.read_manifest(path).get("chroma_url")  # the index never used them

    code = main(["move-to-server", "--index-dir", str(path), "--chroma-url", url, "--json"])
    moved = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(moved["removed"]) == set(orphans) and moved["removed_collections"] == 2
    assert [(left["url"], set(left["removed"]), left["kept"]) for left in moved["leftovers"]] == [(url, set(orphans), {})]
    now = _collections(url)
    assert not set(orphans) & set(now)
    assert set(now) == set(before) | _names(path)
    assert not _pending(path)


def test_a_copy_of_a_directory_never_deletes_its_originals_unfinished_move(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    path = _built(tmp_path / "idx")
    before = _collections(url)
    with monkeypatch.context() as m:
        _interrupt_after_first_upsert(m)
        m.setattr(move_leftovers, "undo", lambda items, pending: None)
        with pytest.raises(KeyboardInterrupt):
            move_index_to_server(path, url, embedder=HashingEmbedder())
    orphans = set(_collections(url)) - set(before)
    shutil.copytree(path, tmp_path / "copy")
    moved = move_index_to_server(tmp_path / "copy", url, embedder=HashingEmbedder())
    assert moved.leftovers == ()  # the record names the original's directory: not the copy's to clear
    assert orphans <= set(_collections(url))
    moved = move_index_to_server(path, url, embedder=HashingEmbedder())  # the original clears them
    assert set(moved.leftovers[0].removed) == orphans


def test_collections_marked_as_this_directory_that_it_does_not_use_are_named_not_deleted(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _built(tmp_path / "idx")
    # As an interrupted move of an older version (no record), or an index that lived here before, left it.
    client = chroma_client(url)
    stray = client.create_collection(
        "sr-strayed0000-nodes", metadata={OWNER_KEY: "an-old-id", OWNER_DIR_KEY: str(path.resolve())}
    )
    stray.add(ids=["x"], embeddings=[[0.1] * 64])
    try:
        code = main(["move-to-server", "--index-dir", str(path), "--chroma-url", url])
        out = capsys.readouterr().out
        assert code == 0
        line = next(line for line in out.splitlines() if "sr-strayed0000-nodes" in line)
        assert line.startswith(f"the server at {url} keeps sr-strayed0000-nodes (marked as this directory's")
        assert line.endswith("delete them there if unneeded")
        assert "sr-strayed0000-nodes" in _collections(url)

        code = main(["stats", "--index-dir", str(path)])
        server = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("server: "))
        assert code == 0 and "it also keeps sr-strayed0000-nodes (marked as this directory's" in server
    finally:
        client.delete_collection("sr-strayed0000-nodes")
