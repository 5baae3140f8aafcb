"""No network: the test guard refuses non-loopback sockets, and the library with its default
configuration (bundled MiniLM, default reranker) opens none. (Chroma clients are made with
telemetry off: tests/scale/test_chroma_server.py checks it against a real server.)"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import network_guard
import pytest
from reliability_support import FULL

from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index


def test_the_guard_refuses_the_network_and_allows_loopback() -> None:
    guard = network_guard.GUARD
    assert guard.installed
    try:
        with socket.socket() as s, pytest.raises(network_guard.NetworkBlockedError):
            s.connect(("10.255.255.1", 9))
        with pytest.raises(OSError):
            socket.create_connection(("192.0.2.1", 80), timeout=0.5)
        with pytest.raises(socket.gaierror):
            socket.getaddrinfo("example.com", 443)
        with socket.socket(socket.AF_INET6) as s, pytest.raises(network_guard.NetworkBlockedError):
            s.connect(("2001:db8::1", 80))
        assert len(guard.take()) == 4
        # loopback goes through (and is refused by the closed port, not by the guard)
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname(), timeout=2):
            pass
        server.close()
        socket.getaddrinfo("localhost", 80)
        assert guard.take() == []
    finally:
        guard.take()  # this test's own attempts must not fail it


def test_allowed_addresses() -> None:
    allowed = network_guard.allowed
    assert allowed(socket.AF_INET, ("127.0.0.1", 80))
    assert allowed(socket.AF_INET, ("127.9.9.9", 80))
    assert allowed(socket.AF_INET6, ("::1", 80, 0, 0))
    assert allowed(socket.AF_INET6, ("::ffff:127.0.0.1", 80, 0, 0))
    assert allowed(socket.AF_INET, ("localhost", 80))
    assert allowed(socket.AF_UNIX, "/tmp/some.sock")
    assert not allowed(socket.AF_INET, ("10.0.0.1", 80))
    assert not allowed(socket.AF_INET, ("0.0.0.0", 80))
    assert not allowed(socket.AF_INET, ("huggingface.co", 443))
    assert not allowed(socket.AF_INET6, ("2606:4700::1", 443, 0, 0))


def test_default_configuration_makes_no_network_calls(tmp_path: Path, real_embedder: SentenceTransformerEmbedder) -> None:
    """Index and search with every default (the bundled model, the default reranker),
    under the guard."""
    index = Index.open(tmp_path / "ix", embedder=real_embedder, create=True)
    try:
        index.upsert(
            [Node(id=f"n{i}", kind="skill", name=name, text=f"How to {name} in a service.") for i, name in
             enumerate(["structured logging", "tracing", "canary deploys", "schema migrations"])]
        )  # fmt: skip
        resp = Retriever(index).search("set up structured logging for a service", k=3)  # default reranker
        assert resp.results and resp.reranker == "none"  # no cross-encoder in the cache here
        assert os.environ.get("HF_HUB_OFFLINE") == "1"
    finally:
        index.close()
    assert network_guard.GUARD.attempts == []


SCRIPT = textwrap.dedent(
    """
    import sys
    from skill_retriever.indexing import index_sources, sample_catalogue_path
    from skill_retriever.retriever import Retriever
    from skill_retriever.stores.index import Index

    index = Index.open(sys.argv[1], create=True)  # the default embedder
    index_sources(index, [sample_catalogue_path()])
    response = Retriever(index).search("add a postgres migration check before deploy", k=3)
    assert response.results
    print("reranker", response.reranker)
    index.close()
    """
)


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
@pytest.mark.skipif(not FULL, reason="loads the real model in a subprocess: full profile only")
def test_no_native_code_opens_a_socket_either(tmp_path: Path) -> None:
    """strace sees what the Python guard cannot: tokenizers, torch, native libraries."""
    trace = tmp_path / "trace.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_", "SENTENCE_"))}
    proc = subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg", "-o", str(trace),
         sys.executable, "-c", SCRIPT, str(tmp_path / "ix")],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    calls = [line for line in trace.read_text().splitlines() if "AF_INET" in line]
    outside = [c for c in calls if not re.search(r'inet_addr\("127\.|inet_pton\(AF_INET6, "::1"', c)]
    assert outside == [], outside[:5]
