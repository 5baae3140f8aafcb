"""`skill-retriever mcp` over raw stdio, as a user walkthrough drove it.

- JSON lines that are no request (``[]``, ``{}``, ``123``, ``null``, ``"str"``, a batch, a
  request whose id is an object) got no reply, and the client waited for good; each now
  gets an Invalid Request error (-32600) at once, and the server goes on serving.
- A client that closed stdin while the background warm-up was loading the model ended
  the server with SIGABRT ("terminate called without an active exception"), 3 runs of 8;
  shutdown now stops the warm-up and waits for it before the index closes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_lines import read_reply, send_line

from skill_retriever.adapters.mcp_bad_lines import reply_to
from skill_retriever.adapters.mcp_warm_up import warming
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})  # fmt: skip
ONE_PER_LINE = "send one JSON-RPC 2.0 request object per line"


def _start(index_dir: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "skill_retriever.cli", "mcp", "--index-dir", str(index_dir)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
    )  # fmt: skip




@pytest.fixture
def server(sample_index_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    process = _start(sample_index_path)
    yield process
    process.kill()
    process.wait()


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("[]", f"this line is JSON (an array), not a request object; {ONE_PER_LINE}"),
        ("123", f"this line is JSON (a number), not a request object; {ONE_PER_LINE}"),
        ("null", f"this line is JSON (null), not a request object; {ONE_PER_LINE}"),
        ('"str"', f"this line is JSON (a string), not a request object; {ONE_PER_LINE}"),
        ("{}", f'this is no JSON-RPC request: it has no "jsonrpc": "2.0"; {ONE_PER_LINE}'),
        ('[{"jsonrpc":"2.0","id":3,"method":"ping"}]',
         "a batch (a JSON array of requests) is not supported in this protocol version; send one request per line"),
        ('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
         "'ping' is a request, and a request needs an id the answer can name: a string or an integer"),
    ],
)  # fmt: skip
def test_json_that_is_no_request_is_answered_at_once_to_id_null(
    server: subprocess.Popen[bytes], line: str, said: str
) -> None:
    send_line(server, INITIALIZE)
    assert read_reply(server)["id"] == 1
    send_line(server, '{"jsonrpc":"2.0","method":"notifications/initialized"}')
    send_line(server, line)
    answer = read_reply(server)
    assert answer["id"] is None and answer["error"]["code"] == -32600
    assert answer["error"]["message"].startswith(said), answer
    assert "cannot read this line as JSON" not in answer["error"]["message"]
    send_line(server, '{"jsonrpc":"2.0","id":20,"method":"ping"}')
    assert read_reply(server) == {"jsonrpc": "2.0", "id": 20, "result": {}}  # still serving


def test_an_object_without_a_method_is_answered_to_its_id() -> None:
    reply = reply_to('{"jsonrpc":"2.0","id":4}', "Field required")
    assert reply is not None and reply.id == 4 and reply.error.code == -32600
    assert reply.error.message == f'this is no JSON-RPC request: it names no "method"; {ONE_PER_LINE}'


def test_a_notification_still_gets_noread_reply() -> None:
    assert reply_to('{"jsonrpc":"2.0","method":"notifications/x","params":{"q":"\\ud83d"}}', "bad") is None


def test_shutdown_waits_for_the_warm_up(sample_index: Index) -> None:
    """The thread is joined when serving ends, so the index is never closed under it."""
    with warming(Retriever(sample_index, reranker=None), None) as thread:
        assert thread.daemon
    assert not thread.is_alive()


@pytest.fixture(scope="module")
def model_index(tmp_path_factory: pytest.TempPathFactory, real_embedder: SentenceTransformerEmbedder) -> Path:
    """The sample catalogue embedded with the real bundled model: the warm-up loads torch."""
    path = tmp_path_factory.mktemp("walk-stdio") / "index"
    index = Index.open(path, embedder=real_embedder, create=True)
    try:
        index_sources(index, [sample_catalogue_path()])
    finally:
        index.close()
    return path


@pytest.mark.slow
def test_closing_stdin_during_the_warm_up_exits_cleanly(model_index: Path) -> None:
    outcomes = []
    for _ in range(6):
        process = _start(model_index)
        send_line(process, INITIALIZE)
        assert read_reply(process)["id"] == 1
        assert process.stdin is not None
        process.stdin.close()  # at once: the warm-up is still loading the model
        returncode = process.wait(120)
        assert process.stderr is not None
        outcomes.append((returncode, process.stderr.read().decode()[-300:]))
    assert all(code == 0 for code, _ in outcomes), outcomes
    assert not [err for _, err in outcomes if "terminate called" in err]

