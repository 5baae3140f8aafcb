"""A real `chroma run` server on a free loopback port, for the tests of indexes on a
Chroma server (tests/stores/conftest.py makes fixtures of it; tests/scale uses it too)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMA = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")


def free_port() -> int:
    """A loopback port nothing listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ChromaServer:
    """One `chroma run` process over ``data``; :meth:`stop` it to test a server that is down."""

    def __init__(self, data: Path) -> None:
        self.data, self.port = data, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [CHROMA, "run", "--path", str(self.data), "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/api/v2/heartbeat", timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"chroma run did not answer on {self.url} within 60 s") from None
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


@contextmanager
def paused(server: ChromaServer) -> Iterator[None]:
    """The server stopped (SIGSTOP: its port still accepts, nothing answers) inside, resumed after."""
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)


def collection_names(index_dir: Path) -> tuple[str, str]:
    """The names of the node and edge collections the index at ``index_dir`` names."""
    from skill_retriever.stores import manifest as mf

    prefix = mf.read_manifest(index_dir)["collection_prefix"]
    return f"{prefix}-nodes", f"{prefix}-edges"


def server_collections(url: str) -> set[str]:
    """The names of every collection on the Chroma server at ``url``."""
    from skill_retriever.stores.vectors import chroma_client

    return {c.name for c in chroma_client(url).list_collections()}
