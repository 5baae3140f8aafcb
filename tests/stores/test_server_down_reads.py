"""Reads of an index on a Chroma server that does not answer, against a real `chroma run`:
they search the index's own copy of its vectors (``items.sqlite`` holds every one) in
memory, with a warning that names the server, instead of failing (seen: `move-to-server`,
the server stopped, `skill-retriever query "k8s"` exited 2 with ServerUnreachableError,
while missing collections already fell back to memory). A long-lived reader asks the
server again no more often than every ``remote.RECHECK_S``, and searches it once it is
back. Writes still refuse."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from chroma_support import ChromaServer
from mcp_in_process import tool_answers
from server_index import index_on_server, numbered_skills

from skill_retriever.cli import main
from skill_retriever.exceptions import ServerUnreachableError
from skill_retriever.retriever import Retriever
from skill_retriever.stores import remote
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_index_to_server
from skill_retriever.stores.vectors import ChromaVectorStore

SKILLS = numbered_skills(8)
ASK = "skill number 3 about topic 3"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _down_note(warnings: list[str], url: str) -> str:
    found = [w for w in warnings if f"the Chroma server at {url} cannot be reached" in w]
    assert found, warnings
    assert "own copy of its vectors" in found[0] and "in memory" in found[0], found[0]
    return found[0]


def test_query_stats_and_mcp_search_answer_from_memory_while_the_server_is_down(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "X", chroma_server.url, SKILLS)
    chroma_server.stop()
    code, out, err = _cli(capsys, "query", ASK, "--index-dir", str(path), "--json")
    assert code == 0, out + err
    answer = json.loads(out)
    assert answer["results"][0]["id"] == "s3", answer
    _down_note(answer["warnings"], chroma_server.url)
    code, out, err = _cli(capsys, "query", ASK, "--index-dir", str(path))
    assert code == 0 and "s-3" in out, out + err
    assert f"note: the Chroma server at {chroma_server.url} cannot be reached" in out, out
    code, out, _ = _cli(capsys, "stats", "--index-dir", str(path))
    line = next(li for li in out.splitlines() if li.startswith("server: "))
    assert "cannot be reached" in line and "own copy of its vectors in memory" in line and "fail" not in line, line
    code, out, _ = _cli(capsys, "stats", "--index-dir", str(path), "--json")
    server = json.loads(out)["server"]
    assert server["down"] is True and "own copy of its vectors in memory" in server["reads"], server
    got = tool_answers(path, ["*"], {"search": ("search", {"query": ASK, "k": 2})})
    assert got["search"]["results"][0]["id"] == "s3", got
    _down_note(got["search"]["warnings"], chroma_server.url)
    # writes still need the server
    with pytest.raises(ServerUnreachableError, match=f"{chroma_server.url} cannot be reached"):
        Index.open(path, embedder=HashingEmbedder(), writable=True)


def test_a_reader_opened_while_down_takes_the_server_up_once_it_answers(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = index_on_server(tmp_path / "X", chroma_server.url, SKILLS)
    chroma_server.stop()
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        snap = reader.snapshot()
        assert snap._remote is None
        assert [h.id for h in snap.search_nodes(snap.embed_query(ASK), 1)] == ["s3"]
        _down_note(snap.search_notes(), chroma_server.url)
        chroma_server.start()  # the same port and data
        monkeypatch.setattr(remote, "RECHECK_S", 0.0)
        reader._retake._next = 0.0  # its next look is due now
        snap = reader.snapshot()
        assert snap._remote is not None and snap.search_notes() == []


def test_a_reader_whose_server_stops_searches_in_memory_and_asks_again_only_after_the_look(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = index_on_server(tmp_path / "X", chroma_server.url, SKILLS)
    asked: list[str] = []
    for name in ("_query", "count_found"):
        real = getattr(ChromaVectorStore, name)

        def counted(self: ChromaVectorStore, *a: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            asked.append(_name)
            return _real(self, *a, **kw)

        monkeypatch.setattr(ChromaVectorStore, name, counted)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        retriever = Retriever(reader, reranker=None, cache_size=0)
        assert retriever.search(ASK, k=2).results[0].id == "s3"
        assert not any("cannot be reached" in w for w in retriever.search(ASK, k=2).warnings)
        chroma_server.stop()
        asked.clear()
        first = retriever.search(ASK, k=2)
        assert first.results[0].id == "s3"
        _down_note(list(first.warnings), chroma_server.url)
        probes = len(asked)
        assert probes >= 1
        for _ in range(3):  # within the look's 10 s: the server is not asked again
            again = retriever.search(ASK, k=2)
            assert again.results[0].id == "s3"
            _down_note(list(again.warnings), chroma_server.url)
        assert len(asked) == probes, asked
        chroma_server.start()
        monkeypatch.setattr(remote, "RECHECK_S", 0.0)
        check = reader.snapshot()._remote.nodes.fallback._check  # type: ignore[union-attr]
        check._next = 0.0  # the look is due now
        back = retriever.search(ASK, k=2)
        assert back.results[0].id == "s3" and not any("cannot be reached" in w for w in back.warnings), back.warnings
        assert len(asked) > probes


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """When a reader asked its server (``remote.remote_of``: at open, following a move, or
    looking again); each ask made to take 1.5 s, as a server that does not answer makes a
    probe wait, and the looks 1 s apart (``remote.RECHECK_S``)."""
    asked: list[float] = []
    real = remote.remote_of

    def slow(*args: Any, **kw: Any) -> Any:
        asked.append(time.monotonic())
        try:
            return real(*args, **kw)
        finally:
            time.sleep(1.5)

    monkeypatch.setattr(remote, "remote_of", slow)
    monkeypatch.setattr(remote, "RECHECK_S", 1.0)
    return asked


def test_a_reader_opened_while_down_asks_again_only_once_the_spacing_after_its_open_is_past(
    chroma_server: ChromaServer, tmp_path: Path, looks: list[float]
) -> None:
    path = index_on_server(tmp_path / "X", chroma_server.url, SKILLS)
    chroma_server.stop()
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        assert len(looks) == 1
        snap = reader.snapshot()  # its open just asked: the spacing starts from there, not from before it
        assert [h.id for h in snap.search_nodes(snap.embed_query(ASK), 1)] == ["s3"]
        _down_note(snap.search_notes(), chroma_server.url)
        assert len(looks) == 1, looks


def test_a_reader_that_follows_a_move_to_a_down_server_asks_it_again_only_after_the_spacing(
    url: str, chroma_server: ChromaServer, tmp_path: Path, looks: list[float]
) -> None:
    path = index_on_server(tmp_path / "X", url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        assert reader.snapshot()._remote is not None
        move_index_to_server(path, chroma_server.url, embedder=HashingEmbedder())
        chroma_server.stop()
        looks.clear()
        reader._retake._next = 0.0  # a reader open for long: a look would be due by the old clock
        snap = reader.snapshot()  # follows the move: asks the new server once
        assert snap._remote is None and len(looks) == 1, looks
        _down_note(snap.search_notes(), chroma_server.url)
        snap = reader.snapshot()  # the move's ask just failed: not again before the spacing
        assert [h.id for h in snap.search_nodes(snap.embed_query(ASK), 1)] == ["s3"]
        assert len(looks) == 1, looks


def test_a_writer_whose_server_stops_searches_its_own_vectors_and_asks_again_only_after_the_look(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The writer holds every vector in items.sqlite (and in memory) as a reader does, yet its
    # searches raised ServerUnreachableError while only readers fell back.
    path = index_on_server(tmp_path / "X", chroma_server.url, SKILLS)
    asked: list[str] = []
    for name in ("_query", "count"):
        real = getattr(ChromaVectorStore, name)

        def counted(self: ChromaVectorStore, *a: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            asked.append(_name)
            return _real(self, *a, **kw)

        monkeypatch.setattr(ChromaVectorStore, name, counted)
    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        retriever = Retriever(writer, reranker=None, cache_size=0)
        assert retriever.search(ASK, k=2).results[0].id == "s3"
        chroma_server.stop()
        asked.clear()
        first = retriever.search(ASK, k=2)
        assert first.results[0].id == "s3"
        _down_note(list(first.warnings), chroma_server.url)
        probes = len(asked)
        for _ in range(3):  # within the look's 10 s: the server is not asked again
            again = retriever.search(ASK, k=2)
            assert again.results[0].id == "s3"
            _down_note(list(again.warnings), chroma_server.url)
        assert len(asked) == probes, asked
        with pytest.raises(ServerUnreachableError, match="the write is committed to"):  # a write still needs it
            writer.upsert(numbered_skills(9)[8:])
        chroma_server.start()
        writer.upsert(numbered_skills(10)[9:])  # copies what the server missed: it answers again
        back = retriever.search(ASK, k=2)
        assert back.results[0].id == "s3" and not any("cannot be reached" in w for w in back.warnings), back.warnings
        assert writer.snapshot()._remote is not None
