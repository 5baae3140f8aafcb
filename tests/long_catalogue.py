"""A catalogue of long skills for the tests of the semantic channel's feedback
(tests/test_semantic_feedback.py, tests/stores/test_feedback_on_a_server.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from skill_retriever.calibration.defaults import LONG_ITEM_WORDS
from skill_retriever.model import Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERY = "simulate patients waiting for triage"
EVENTS = "discrete-event resources arrivals servers " * 20


def pad(slug: str, long: bool) -> str:
    """Words of the item's own that make its text run past `LONG_ITEM_WORDS` when
    ``long``: each once, so they weigh little beside the repeated ones."""
    return " ".join(f"{slug}x{i}" for i in range(LONG_ITEM_WORDS)) if long else ""


def long_catalogue(path: Path, long: bool = True, chroma_url: str | None = None) -> Index:
    """Skills whose texts run past `LONG_ITEM_WORDS` words when ``long``. ``queueing``
    holds the query's words; ``simpy`` shares none of them, only ``queueing``'s body."""
    index = Index.open(path, embedder=HashingEmbedder(dim=1024), create=True, chroma_url=chroma_url)
    nodes = [
        Node(id="skill:queueing", kind="skill", name="queueing", description="simulate patients waiting for triage",
             text=f"{EVENTS} {pad('queueing', long)}"),
        Node(id="skill:simpy", kind="skill", name="simpy", description="discrete-event library",
             text=f"{EVENTS} {pad('simpy', long)}"),
    ]
    nodes += [Node(id=f"skill:other-{w}", kind="skill", name=f"other-{w}", description=f"{w} helper",
                   text=f"{f'{w} unrelated ' * 20} {pad(w, long)}")
              for w in ("invoice", "kubernetes", "sourdough", "typescript", "regex", "backup")]
    index.upsert(nodes, [])
    return index


def cli_query(path: str, capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``query QUERY --index-dir path --json --no-rerank *flags`` through the CLI's
    ``main``: ``(exit code, stdout, stderr)`` of each call."""
    from skill_retriever.cli import main

    def query(*flags: str) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            code = main(["query", QUERY, "--index-dir", path, "--json", "--no-rerank", *flags])
        except SystemExit as exited:
            code = int(exited.code or 0)
        out = capsys.readouterr()
        return code, out.out, out.err

    return query
