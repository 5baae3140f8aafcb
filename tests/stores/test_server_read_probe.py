"""A read of an index whose Chroma server is paused (``kill -STOP``: its port still accepts
connections, and nothing answers) asks the server first with the read probe's short wait,
not the 30 s every request may take: the index holds every vector, so a read answers from
memory a few seconds on (seen: `query` on a paused server waited the whole 30 s heartbeat
timeout before answering from memory). Writes keep the request timeout. Against a real
`chroma run` server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from chroma_support import ChromaServer, paused
from cli_calls import run as _cli
from server_index import index_on_server, numbered_skills

from skill_retriever.exceptions import ConfigError, ServerUnreachableError
from skill_retriever.retriever import Retriever
from skill_retriever.stores import chroma_connect
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.read_probe import READ_PROBE_S, READ_PROBE_VAR, read_probe_s
from skill_retriever.stores.vectors import ChromaVectorStore

ASK = "skill number 3 about topic 3"




@pytest.fixture
def probes(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The wait each heartbeat that opens a connection to the server was given."""
    asked: list[float] = []
    real = httpx.get

    def counted(url: str, *args: Any, timeout: Any = None, **kw: Any) -> Any:
        if url.endswith("/api/v2/heartbeat"):
            asked.append(timeout)
        return real(url, *args, timeout=timeout, **kw)

    monkeypatch.setattr(httpx, "get", counted)
    return asked


def test_reads_of_a_paused_server_wait_the_read_probe_and_writes_the_request_timeout(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], probes: list[float],
) -> None:
    path = index_on_server(tmp_path / "X", chroma_server.url, numbered_skills(6))
    monkeypatch.setattr(chroma_connect, "CHROMA_TIMEOUT_S", 4.0)
    monkeypatch.setenv(READ_PROBE_VAR, "0.5")
    with paused(chroma_server):
        probes.clear()
        code, out, err = _cli(capsys, "query", ASK, "--index-dir", str(path))
        assert code == 0 and "s-3" in out, out + err
        assert "did not answer in time" in out and "own copy of its vectors" in out, out
        assert probes and set(probes) == {0.5}, probes

        probes.clear()
        code, out, _ = _cli(capsys, "stats", "--index-dir", str(path))
        line = next(x for x in out.splitlines() if x.startswith("server: "))
        assert code == 0 and "did not answer in time" in line, line
        assert probes and set(probes) == {0.5}, probes

        probes.clear()  # a write needs the server: it waits as long as any request may
        with pytest.raises(ServerUnreachableError, match="did not answer in time"):
            Index.open(path, embedder=HashingEmbedder(), writable=True)
        assert probes == [4.0], probes


def test_the_read_probe_setting_is_a_positive_number_of_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(READ_PROBE_VAR, raising=False)
    assert read_probe_s() == READ_PROBE_S < chroma_connect.CHROMA_TIMEOUT_S
    monkeypatch.setenv(READ_PROBE_VAR, " 2.5 ")
    assert read_probe_s() == 2.5
    for bad in ("soon", "0", "-1", "nan", "inf"):
        monkeypatch.setenv(READ_PROBE_VAR, bad)
        with pytest.raises(ConfigError, match=f"{READ_PROBE_VAR}=.*positive number of seconds.*or unset it"):
            read_probe_s()


def test_a_bad_read_probe_setting_is_said_before_any_read(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "X", url, numbered_skills(4))
    monkeypatch.setenv(READ_PROBE_VAR, "soon")
    for argv in (["query", ASK], ["stats"]):
        code, out, err = _cli(capsys, *argv, "--index-dir", str(path))
        assert code == 2 and f"{READ_PROBE_VAR}='soon'" in err, out + err


def test_a_reader_whose_server_is_paused_after_it_opened_looks_again_with_the_read_probe(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, probes: list[float]
) -> None:
    # Its look again was a collection count, which waited the whole request timeout (30 s)
    # at each look while the server stayed paused.
    path = index_on_server(tmp_path / "X", chroma_server.url, numbered_skills(6))
    monkeypatch.setattr(chroma_connect, "CHROMA_TIMEOUT_S", 4.0)
    monkeypatch.setenv(READ_PROBE_VAR, "0.5")
    counted: list[str] = []
    real = ChromaVectorStore.count

    def count(self: ChromaVectorStore) -> int:
        counted.append(self.name)
        return real(self)

    monkeypatch.setattr(ChromaVectorStore, "count", count)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        retriever = Retriever(reader, reranker=None, cache_size=0)
        assert retriever.search(ASK, k=2).results[0].id == "s3"
        with paused(chroma_server):
            first = retriever.search(ASK, k=2)  # its query waits the request timeout: found down
            assert first.results[0].id == "s3" and any("did not answer in time" in w for w in first.warnings)
            check = reader.snapshot()._remote.nodes.fallback._check  # type: ignore[union-attr]
            check._next = 0.0  # the look is due now
            probes.clear()
            counted.clear()
            again = retriever.search(ASK, k=2)
            assert again.results[0].id == "s3" and any("did not answer in time" in w for w in again.warnings)
            assert probes == [0.5] and counted == [], (probes, counted)
        check._next = 0.0  # the server answers again: the look's heartbeat, then the count
        probes.clear()
        back = retriever.search(ASK, k=2)
        assert back.results[0].id == "s3" and not any("cannot be reached" in w for w in back.warnings), back.warnings
        assert probes == [0.5] and counted, (probes, counted)
