"""A Chroma server that lost or changed an index's collections, against real `chroma run`
servers: a reader open while the server's data is wiped searches in memory with a warning,
and searches the server again once `repair` made the collections again; `index` says what
its sync deleted from the server; the advice names what can help (`move-to-server` for
another index's collections, `--chroma-url` when index.json names another server); a
server that hangs up after answering, and a host name that does not resolve, are named."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from chroma_support import ChromaServer
from server_index import index_on_server, numbered_skills, top_id

from skill_retriever.cli import main
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.model import Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores import remote
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.vectors import OWNER_KEY, chroma_client

N = 6
SKILLS = numbered_skills(N)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _wiped(server: ChromaServer, tmp_path: Path) -> None:
    """Stop the server, set its data aside, start it empty on the same port."""
    server.stop()
    server.data.rename(tmp_path / "data-aside")
    server.data.mkdir()
    server.start()


def test_a_reader_open_while_the_server_is_wiped_searches_in_memory_then_the_server_again_after_repair(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = index_on_server(tmp_path / "W", chroma_server.url, SKILLS)
    prefix = mf.read_manifest(path)["collection_prefix"]
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        snap = reader.snapshot()
        assert snap._remote is not None and top_id(snap, "skill number 2 about topic 2") == "s2"
        store = snap._remote.nodes
        looked: list[int | None] = []
        real = store.count_found

        def counted() -> int | None:
            looked.append(real())
            return looked[-1]

        monkeypatch.setattr(store, "count_found", counted, raising=False)
        monkeypatch.setattr(remote, "RECHECK_S", 1.5)
        _wiped(chroma_server, tmp_path)
        with caplog.at_level(logging.WARNING, logger="skill_retriever"):
            for _ in range(3):  # gone: searched in memory, with one look at the server, not one per query
                assert top_id(reader.snapshot(), "skill number 3 about topic 3") == "s3"
        assert looked == [None]
        assert f"no collection in {prefix}-nodes" in caplog.text and "its data was wiped" in caplog.text
        assert caplog.text.count(f"`skill-retriever repair --index-dir {path}`") == 1, caplog.text

        with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:  # `repair` in another shell
            assert writer.repaired["server"] == N + 1
        time.sleep(1.6)  # RECHECK_S: the reader looks at the server again at its next search
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="skill_retriever"):
            assert top_id(reader.snapshot(), "skill number 4 about topic 4") == "s4"
        assert looked[-1] == N and caplog.text == "", (looked, caplog.text)
        new_id = chroma_client(chroma_server.url).get_collection(f"{prefix}-nodes").id
        assert store._col.id == new_id and store.fallback is not None and not store.fallback.out_of_step()


def _with_foreign_entries(url: str, path: Path) -> Any:
    """The index's node collection, with 3 entries added by another program."""
    col = chroma_client(url).get_collection(f"{mf.read_manifest(path)['collection_prefix']}-nodes")
    dim = HashingEmbedder().dim
    col.add(ids=[f"x{i}" for i in range(3)], embeddings=np.ones((3, dim), dtype=np.float32), metadatas=[{"hash": "h"}] * 3)
    return col


def test_entries_added_on_the_server_are_named_as_added(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = index_on_server(tmp_path / "A", url, SKILLS)
    prefix = mf.read_manifest(path)["collection_prefix"]
    _with_foreign_entries(url, path)

    code, out, _ = _cli(capsys, "stats", "--index-dir", str(path))
    line = next(x for x in out.splitlines() if x.startswith("server: "))
    assert code == 0 and f"holds {N + 3} vectors in {prefix}-nodes" in line
    assert "entries were added on the server" in line and "a write stopped before copying" not in line, line


def test_index_says_which_entries_its_sync_deleted_from_the_server(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "I", url, SKILLS)
    col = _with_foreign_entries(url, path)
    src = tmp_path / "src"
    (src / "skills" / "glacier").mkdir(parents=True)
    (src / "skills" / "glacier" / "SKILL.md").write_text("---\nname: glacier\ndescription: ice\n---\nmeasure ice\n")
    code, out, _ = _cli(capsys, "index", str(src), "--index-dir", str(path))
    assert code == 0 and "deleted 3 entries from the Chroma server that the index does not hold" in out, out
    assert not set(col.get(ids=["x0", "x1", "x2"])["ids"])


def test_repair_says_which_entries_it_deleted_from_the_server(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "is in step", "repaired": [] (found by a walkthrough)."""
    path = index_on_server(tmp_path / "R", url, SKILLS)
    col = _with_foreign_entries(url, path)
    code, out, _ = _cli(capsys, "repair", "--index-dir", str(path))
    assert code == 0 and "is repaired (deleted 3 entries from the Chroma server that the index does not hold)" in out, out
    assert not set(col.get(ids=["x0", "x1", "x2"])["ids"])
    code, out, _ = _cli(capsys, "repair", "--index-dir", str(path))
    assert code == 0 and "is in step" in out


def test_another_index_s_collection_is_advised_a_move_not_a_repair(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = index_on_server(tmp_path / "O", url, SKILLS)
    prefix = mf.read_manifest(path)["collection_prefix"]
    col = chroma_client(url).get_collection(f"{prefix}-nodes")
    col.modify(metadata={**(col.metadata or {}), OWNER_KEY: "someone-else"})
    with caplog.at_level(logging.WARNING, logger="skill_retriever"), Index.open(path, embedder=HashingEmbedder()) as reader:
        assert reader.snapshot()._remote is None and top_id(reader.snapshot(), "skill number 1 about topic 1") == "s1"
    assert f"keeps {prefix}-nodes for another index (someone-else)" in caplog.text
    assert f"`skill-retriever move-to-server --index-dir {path} --chroma-url {url}`" in caplog.text
    assert "repair" not in caplog.text, caplog.text
    with pytest.raises(IndexCorruptError, match="belongs to another index"):  # what repair says too
        Index.open(path, embedder=HashingEmbedder(), writable=True).close()


def test_a_chroma_url_other_than_index_json_s_is_in_the_repair_advice(
    url: str, chroma_server: ChromaServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = index_on_server(tmp_path / "U", url, SKILLS)
    other = chroma_server.url
    with caplog.at_level(logging.WARNING, logger="skill_retriever"), Index.open(
        path, embedder=HashingEmbedder(), chroma_url=other
    ) as reader:
        assert top_id(reader.snapshot(), "skill number 5 about topic 5") == "s5"
    assert f"`skill-retriever repair --index-dir {path} --chroma-url {other}`" in caplog.text, caplog.text
    caplog.clear()
    chroma_client(url).delete_collection(f"{mf.read_manifest(path)['collection_prefix']}-edges")
    with caplog.at_level(logging.WARNING, logger="skill_retriever"), Index.open(path, embedder=HashingEmbedder()):
        pass
    assert f"`skill-retriever repair --index-dir {path}`" in caplog.text  # index.json's own server: no --chroma-url


def test_stats_on_another_server_gives_the_repair_that_fills_that_one(
    url: str, chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "S", url, SKILLS)
    other = chroma_server.url  # holds none of its collections
    code, out, _ = _cli(capsys, "stats", "--index-dir", str(path), "--chroma-url", other)
    line = next(x for x in out.splitlines() if x.startswith("server: "))
    assert code == 0 and f"`skill-retriever repair --index-dir {path} --chroma-url {other}`" in line, line


@pytest.fixture
def hang_up(chroma_server: ChromaServer) -> Iterator[Any]:
    """Stops the server and listens on its port, closing every connection unanswered."""
    box: dict[str, Any] = {}

    def start() -> None:
        chroma_server.stop()
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", chroma_server.port))
        sock.listen()
        box["sock"] = sock

        def serve() -> None:
            while True:
                try:
                    conn, _ = sock.accept()
                except OSError:  # closed at teardown
                    return
                conn.recv(65536)
                conn.close()

        threading.Thread(target=serve, daemon=True).start()

    yield start
    if "sock" in box:
        box["sock"].close()


def test_a_server_that_hangs_up_after_answering_is_not_called_a_tls_port(
    chroma_server: ChromaServer, hang_up: Any, tmp_path: Path
) -> None:
    path = index_on_server(tmp_path / "H", chroma_server.url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        snap = reader.snapshot()
        assert top_id(snap, "skill number 1 about topic 1") == "s1"
        hang_up()
        assert top_id(snap, "skill number 2 about topic 2") == "s2"  # searched in memory, saying why
        said = " ".join(snap.search_notes())
    assert "closed the connection without answering: the server stopped or restarted" in said, said
    assert "TLS" not in said and "https://" not in said


def test_a_port_that_never_answered_and_hangs_up_may_be_tls_or_stopped(
    chroma_server: ChromaServer, hang_up: Any, tmp_path: Path
) -> None:
    path = index_on_server(tmp_path / "T", chroma_server.url, SKILLS)
    hang_up()
    never = f"http://localhost:{chroma_server.port}"  # this process never reached it by that name
    with pytest.raises(IndexCorruptError) as err:
        Index.open(path, embedder=HashingEmbedder(), chroma_url=never).close()
    said = str(err.value)
    assert "as a port that serves TLS does (or the server stopped)" in said and f"use https://localhost:{chroma_server.port}" in said


def test_a_host_name_that_does_not_resolve_is_named(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "N", url, SKILLS)
    real = socket.getaddrinfo

    def lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "nosuchhost.invalid":  # what a resolver answers, without asking one
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    code, out, _ = _cli(capsys, "query", "skill", "--index-dir", str(path), "--chroma-url", "http://nosuchhost.invalid:8000")
    line = " ".join(next(x for x in out.splitlines() if x.startswith("note: ")).split())  # searched in memory, saying why
    assert code == 0 and "the host name nosuchhost.invalid does not resolve" in line, line
    assert "check the host in --chroma-url" in line and "chroma run" not in line and "gaierror" not in line


def test_a_writer_whose_collections_were_deleted_makes_them_again_from_its_items(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """It failed on every write until reopened (CollectionGone at each mirror, and at each
    catch-up after): items.sqlite is the truth, so the writer makes its collections again
    and copies every vector there, saying so once."""
    path = index_on_server(tmp_path / "D", url, SKILLS)
    prefix = mf.read_manifest(path)["collection_prefix"]
    client = chroma_client(url)
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        writer.upsert(Node(id="s6", kind="skill", name="s-6", text="skill number 6 about topic 6"))
        client.delete_collection(f"{prefix}-nodes")
        client.delete_collection(f"{prefix}-edges")
        with caplog.at_level(logging.WARNING, logger="skill_retriever"):
            writer.upsert(Node(id="s7", kind="skill", name="s-7", text="skill number 7 about topic 7"))
            writer.upsert(Node(id="s8", kind="skill", name="s-8", text="skill number 8 about topic 8"))
            writer.delete("s0")
        said = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)
        assert said.count("made them again") == 1, said
        assert f"{prefix}-nodes" in said and f"{prefix}-edges" in said and str(path) in said, said
        nodes = client.get_collection(f"{prefix}-nodes")
        assert sorted(nodes.get()["ids"]) == sorted([f"s{i}" for i in range(1, N)] + ["s6", "s7", "s8"])
        assert client.get_collection(f"{prefix}-edges").count() == 0  # s0's edge went with it
        snap = writer.snapshot()
        assert snap._remote is not None and top_id(snap, "skill number 7 about topic 7") == "s7"
    with Index.open(path, embedder=HashingEmbedder()) as reader:  # a reader finds the server in step
        snap = reader.snapshot()
        assert snap._remote is not None and top_id(snap, "skill number 8 about topic 8") == "s8"


def test_a_writer_whose_server_came_back_empty_makes_its_collections_again(
    chroma_server: ChromaServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = index_on_server(tmp_path / "E", chroma_server.url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        writer.upsert(Node(id="s6", kind="skill", name="s-6", text="skill number 6 about topic 6"))
        _wiped(chroma_server, tmp_path)  # a fresh server at the same address
        with caplog.at_level(logging.WARNING, logger="skill_retriever"):
            writer.upsert(Node(id="s7", kind="skill", name="s-7", text="skill number 7 about topic 7"))
        assert "made them again" in caplog.text, caplog.text
        prefix = mf.read_manifest(path)["collection_prefix"]
        assert chroma_client(chroma_server.url).get_collection(f"{prefix}-nodes").count() == N + 2
