"""A Chroma server that does not answer in time is told as one, not as a server to start:
a stopped (SIGSTOP) `chroma run` still accepts connections and is running, so "start it
(`chroma run ...`)" sent the user to start a second server on a port that is taken. On a
real `chroma run` server, and on httpx's own timeout errors."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from chroma_support import ChromaServer, paused
from cli_calls import run as _cli

from skill_retriever.exceptions import ServerUnreachableError
from skill_retriever.model import Node
from skill_retriever.stores import chroma_connect
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_vectors_to_server
from skill_retriever.stores.server_timeouts import error_of, problem_of

START = "chroma run --path"




def test_a_stopped_server_is_said_to_be_busy_or_stopped_not_to_be_started(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "H"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert([Node(id=f"s{i}", kind="skill", name=f"s-{i}", text=f"skill number {i}") for i in range(4)])
    move_vectors_to_server(path, chroma_server.url, embedder=HashingEmbedder())
    monkeypatch.setattr(chroma_connect, "CHROMA_TIMEOUT_S", 1.0)
    with paused(chroma_server):
        code, out, _ = _cli(capsys, "stats", "--index-dir", str(path))
        line = next(x for x in out.splitlines() if x.startswith("server: "))
        assert code == 0 and "did not answer in time" in line and "busy or stopped" in line, line
        assert START not in line and "wait for it, or restart it" in line
        code, out, _ = _cli(capsys, "stats", "--index-dir", str(path), "--json")
        server = json.loads(out)["server"]
        assert server["reachable"] is False and server["down"] is True and START not in server["advice"]

        code, out, _ = _cli(capsys, "query", "skill number 1", "--index-dir", str(path))  # searched in memory, saying why
        note = next(x for x in out.splitlines() if x.startswith("note: "))
        assert code == 0 and "did not answer in time" in note and "busy or stopped" in note, out
        assert START not in note and "own copy of its vectors" in note


def test_a_connection_never_accepted_names_the_host_and_network_and_other_failures_keep_their_words() -> None:
    url = "http://10.0.0.9:8123"
    hung = error_of(url, httpx.ReadTimeout("timed out"))
    assert isinstance(hung, ServerUnreachableError)
    assert "10.0.0.9:8123 did not answer in time (ReadTimeout)" in str(hung) and START not in str(hung)

    wrapped = ValueError("Could not connect to a Chroma server. Are you sure it is running?")
    wrapped.__cause__ = httpx.ConnectTimeout("timed out")
    never = problem_of(url, wrapped)
    assert never.down and "did not accept a connection in time (ConnectTimeout)" in never.what
    assert "host is up and reachable" in never.todo and START not in never.todo

    refused = problem_of(url, ConnectionRefusedError(111, "Connection refused"))
    assert "connection refused" in refused.what and START in refused.todo  # nothing listens: start it
