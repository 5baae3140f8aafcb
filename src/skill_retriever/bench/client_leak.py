"""What a long-running process holds after many calls to a Chroma server: resident memory,
open file descriptors and chromadb's client systems, every tenth of the run.

    python -m skill_retriever.bench.client_leak --mode open --calls 1000

Builds a 50-item index (the hashing embedder: no model), moves it onto a `chroma run` it
starts on a free loopback port (or ``--chroma-url``), then repeats one operation:
``search`` (one ``Retriever`` held open), ``open`` (``Index.open`` and close, as an app
that opens the index per request) or ``stats`` (what ``stats`` asks the server). Before
``stores.server_clients`` each open and each ``stats`` kept a client (three chromadb
systems, two descriptors, about 1.6 MB) for the life of the process. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["main", "measure"]


def _rss_mb() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS"))


def _systems() -> int:
    from chromadb.api.shared_system_client import SharedSystemClient

    return len(SharedSystemClient._identifier_to_system)


@contextmanager
def _chroma_run(data: Path) -> Iterator[str]:
    """A `chroma run` on a free loopback port, stopped on leaving."""
    chroma = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen(
        [chroma, "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"chroma run did not answer on {url} within 60 s") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _operation(mode: str, path: Path) -> Callable[[int], object]:
    from skill_retriever.retriever import Retriever
    from skill_retriever.stores import manifest as mf
    from skill_retriever.stores.embedder import HashingEmbedder
    from skill_retriever.stores.index import Index
    from skill_retriever.stores.server_stats import server_status

    embedder = HashingEmbedder()
    if mode == "search":
        retriever = Retriever(Index.open(path, embedder=embedder))
        return lambda i: retriever.search(f"deploy skill {i}", k=5)
    if mode == "open":
        def reopen(_: int) -> object:
            with Index.open(path, embedder=embedder) as index:
                return index.snapshot()
        return reopen
    return lambda _: server_status(mf.read_manifest(path), embedder, path)


def measure(url: str, work: Path, mode: str, calls: int) -> list[dict[str, float]]:
    """One row per tenth of ``calls``: calls made, RSS (MB), open descriptors, chromadb systems."""
    from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
    from skill_retriever.stores.embedder import HashingEmbedder
    from skill_retriever.stores.index import Index
    from skill_retriever.stores.server_moves import move_index_to_server

    path = work / "idx"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        nodes = [Node(id=f"n{i}", kind=NodeKind.SKILL, name=f"n-{i}", text=f"skill number {i} deploy") for i in range(50)]
        index.upsert(nodes, [Edge("n0", "n1", EdgeKind.DEPENDS_ON)])
    move_index_to_server(path, url, embedder=HashingEmbedder())
    call, rows, step, t0 = _operation(mode, path), [], max(1, calls // 10), time.monotonic()
    for i in range(calls + 1):
        if i % step == 0 or i == calls:
            gc.collect()
            rows.append({"calls": i, "rss_mb": _rss_mb(), "fds": len(os.listdir("/proc/self/fd")),
                         "chroma_systems": _systems(), "seconds": round(time.monotonic() - t0, 1)})
            print(json.dumps({"mode": mode, **rows[-1]}), flush=True)
        if i < calls:
            call(i)
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mode", choices=["search", "open", "stats"], default="open")
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--chroma-url", help="a running server (default: start `chroma run` on a free port)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="client-leak-") as tmp:
        if args.chroma_url:
            measure(args.chroma_url, Path(tmp), args.mode, args.calls)
        else:
            with _chroma_run(Path(tmp) / "chroma") as url:
                measure(url, Path(tmp), args.mode, args.calls)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
