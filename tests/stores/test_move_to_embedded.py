"""``skill-retriever move-to-embedded``, the way back from ``move-to-server``, on real
`chroma run` servers: the index searches the vectors ``items.sqlite`` holds (nothing is
copied; the server need not answer), a process that has it open follows, a crash before
``index.json`` is written leaves it on its server as before, and the server's collections
stay unless ``--delete-collections`` asks (then only this directory's own go)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from chroma_support import ChromaServer, server_collections
from cli_calls import run
from server_index import index_on_server, numbered_skills

from skill_retriever.model import Node, NodeKind
from skill_retriever.stores import embedded_moves
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedded_moves import move_index_to_embedded
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.items import ItemStore
from skill_retriever.stores.remote import collection_names
from skill_retriever.stores.server_link import recorded_link
from skill_retriever.stores.server_moves import move_index_to_server

SKILLS = numbered_skills(6, prefix="n", text="skill number {i}")


def _top(index: Index) -> list[str]:
    snap = index.snapshot()
    # the first only: ties below it are ordered apart by HNSW and by exact search
    return [h.id for h in snap.search_nodes(snap.embed_query("skill number 3"), 1)]


def _link(path: Path) -> dict[str, str] | None:
    items = ItemStore(path / mf.DATABASE, writable=False)
    try:
        return recorded_link(items)
    finally:
        items.close()


def test_move_to_embedded_searches_in_memory_and_leaves_the_collections(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "idx", url, SKILLS)
    names = collection_names(mf.read_manifest(path))
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        assert reader.snapshot()._remote is not None
        want = _top(reader)

        code, out, err = run(capsys, "move-to-embedded", "--index-dir", path)
        assert code == 0, err
        assert "now searches its vectors in memory" in out and "nothing was copied" in out
        assert f"keeps {', '.join(names)}" in out and "--delete-collections was not given" in out
        assert "chroma_url" not in mf.read_manifest(path) and _link(path) == {}
        assert set(names) <= server_collections(url)  # nothing deleted unasked

        snap = reader.snapshot()  # the open index follows at its next snapshot
        assert snap._remote is None and _top(reader) == want

    code, out, _ = run(capsys, "stats", "--index-dir", path, "--json")
    assert code == 0 and json.loads(out)["server"] is None
    code, out, _ = run(capsys, "move-to-embedded", "--index-dir", path, "--json")
    assert code == 0 and json.loads(out)["moved"] is False  # already: nothing changed

    moved = move_index_to_server(path, url, embedder=HashingEmbedder())  # and there again
    assert moved.nodes == 6
    with Index.open(path, embedder=HashingEmbedder()) as again:
        assert again.snapshot()._remote is not None and _top(again) == want


def test_a_server_that_is_gone_does_not_stop_the_move(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "idx", chroma_server.url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        want = _top(reader)
    chroma_server.stop()
    code, out, err = run(capsys, "move-to-embedded", "--index-dir", path, "--delete-collections", "--json")
    assert code == 0, err
    done = json.loads(out)
    assert done["moved"] is True and done["removed"] == [] and done["embedded_nodes"] == 0
    assert all("deleting failed" in why for why in done["kept"].values()) and len(done["kept"]) == 2
    with Index.open(path, embedder=HashingEmbedder()) as index:
        assert index.snapshot()._remote is None and _top(index) == want


def test_delete_collections_deletes_this_directorys_own_and_never_a_copys_original(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = index_on_server(tmp_path / "idx", url, SKILLS)
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    names = collection_names(mf.read_manifest(original))

    code, out, err = run(capsys, "move-to-embedded", "--index-dir", copy, "--delete-collections", "--json")
    assert code == 0, err
    done = json.loads(out)
    assert done["removed"] == [] and all(str(original.resolve()) in why for why in done["kept"].values())
    assert set(names) <= server_collections(url)
    with Index.open(original, embedder=HashingEmbedder()) as index:
        assert index.snapshot()._remote is not None  # the original still searches its server

    code, out, err = run(capsys, "move-to-embedded", "--index-dir", original, "--delete-collections")
    assert code == 0, err
    assert f"removed {', '.join(names)}" in out
    assert not set(names) & server_collections(url)


def test_a_copy_moved_back_while_the_server_is_down_names_the_originals_collections(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the server down, a copy's --delete-collections said "deleting failed" and
    logged "delete them there if unneeded" of its original's collections, which the
    original still searches; ``items.sqlite`` says whose they are without the server."""
    original = index_on_server(tmp_path / "idx", chroma_server.url, SKILLS)
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    chroma_server.stop()
    code, out, err = run(capsys, "move-to-embedded", "--index-dir", copy, "--delete-collections", "--json")
    assert code == 0, err
    done = json.loads(out)
    assert done["removed"] == [] and len(done["kept"]) == 2, done
    assert all(str(original.resolve()) in why and "deleting failed" not in why for why in done["kept"].values()), done
    assert "if unneeded" not in err, err


def test_a_crash_before_index_json_is_written_leaves_the_index_on_its_server(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = index_on_server(tmp_path / "idx", url, SKILLS)
    before = (path / mf.MANIFEST).read_bytes()

    def killed(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(embedded_moves.mf, "write_manifest", killed)
        with pytest.raises(KeyboardInterrupt):
            move_index_to_embedded(path, delete_collections=True, embedder=HashingEmbedder())
    assert (path / mf.MANIFEST).read_bytes() == before
    assert set(collection_names(mf.read_manifest(path))) <= server_collections(url)
    with Index.open(path, embedder=HashingEmbedder()) as index:
        assert index.snapshot()._remote is not None

    with monkeypatch.context() as m:  # killed after index.json, before the items' record
        m.setattr(embedded_moves, "remember", killed)
        with pytest.raises(KeyboardInterrupt):
            move_index_to_embedded(path, embedder=HashingEmbedder())
    assert "chroma_url" not in mf.read_manifest(path) and _link(path) not in (None, {})
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as index:  # any writer mends the record
        assert index.snapshot()._remote is None
    assert _link(path) == {}


def test_a_missing_index_json_written_again_is_said_not_nothing_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The writer's open writes a lost index.json again from the items (with a new
    collection prefix and id); the command then said "nothing changed" on stdout and
    `"moved": false` alone in --json, only a log line on stderr telling otherwise."""
    path = tmp_path / "idx"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert([Node(id=f"n{i}", kind=NodeKind.SKILL, name=f"n-{i}", text=f"skill number {i}") for i in range(3)])
    (path / mf.MANIFEST).unlink()

    code, out, err = run(capsys, "move-to-embedded", "--index-dir", path)
    assert code == 0, err
    assert "nothing changed" not in out
    assert f"{path / mf.MANIFEST} was missing: written again from the 3 items of {mf.DATABASE}" in out, out
    assert "names no Chroma server: it searches its vectors in memory" in out
    assert "chroma_url" not in mf.read_manifest(path)

    code, out, err = run(capsys, "move-to-embedded", "--index-dir", path, "--json")  # now as it was
    assert code == 0 and json.loads(out)["recreated_index_json"] is False and json.loads(out)["moved"] is False
    assert "nothing changed" not in out

    (path / mf.MANIFEST).unlink()
    code, out, err = run(capsys, "move-to-embedded", "--index-dir", path, "--json")
    assert code == 0, err
    done = json.loads(out)
    assert done["recreated_index_json"] is True and done["moved"] is False


def test_a_move_whose_index_json_was_written_again_says_both() -> None:
    move = embedded_moves.EmbeddedMove("/x", "http://127.0.0.1:8000", ("c1",), recreated_from=6)
    lines = move.lines()
    assert lines[0] == "/x/index.json was missing: written again from the 6 items of items.sqlite, with the server they record"
    assert lines[1].startswith("/x now searches its vectors in memory")
    assert move.to_dict()["recreated_index_json"] is True
    assert embedded_moves.EmbeddedMove("/x", None).lines() == [
        "/x names no Chroma server: it searches its vectors in memory already; nothing changed"
    ]


def test_delete_collections_after_a_chroma_url_that_is_no_address_says_why_they_stay(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """index.json's chroma_url hand-edited to 8000 (a port alone): the move worked but
    said "deleting failed (ValueError: )", an empty reason (chromadb's words for the host
    8000); now it says the address is none, and the collections stay on the server."""
    path = index_on_server(tmp_path / "idx", url, SKILLS)
    names = collection_names(mf.read_manifest(path))
    mf.write_manifest(path, {**mf.read_manifest(path), "chroma_url": 8000})
    code, out, err = run(capsys, "move-to-embedded", "--index-dir", path, "--delete-collections", "--json")
    assert code == 0, err
    done = json.loads(out)
    assert done["moved"] is True and done["removed"] == [] and sorted(done["kept"]) == sorted(names)
    for why in done["kept"].values():
        assert why.startswith("deleting failed: chroma_url 8000 was no Chroma server address"), why
        assert "ValueError" not in why
    assert "ValueError" not in caplog.text and "chroma_url 8000 was no Chroma server address" in caplog.text
    assert set(names) <= server_collections(url)  # nothing deleted: no server was asked
