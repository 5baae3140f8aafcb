"""`Retriever.warm_up`'s steps: what a first search would otherwise pay for, each timed."""

from __future__ import annotations

import time
from collections.abc import Callable

from skill_retriever.algorithms.budget import token_counter
from skill_retriever.calibration.fit import probe_vectors
from skill_retriever.stores.index import Index

__all__ = ["warm_up"]


def warm_up(index: Index, encoding: str, load_reranker: Callable[[], object], search: Callable[[], object]) -> dict[str, float]:
    """Load the embedding model and the reranker (``load_reranker``), build the snapshot's
    views (and embed the "nothing fits" probes, where access labels call for them), load
    the token counter's ``encoding`` and run one ``search`` through the graph.

    Returns:
        Seconds spent per step (``model``, ``views``, ``tokenizer``, ``search``).
    """
    spent: dict[str, float] = {}
    start = time.perf_counter()
    index.embedder.embed(["warm up"])
    load_reranker()  # the default reranker loads now, not at the first query
    spent["model"] = time.perf_counter() - start
    start = time.perf_counter()
    snap = index.snapshot()
    _ = snap.graph, snap.embeddings, snap.names
    snap.edge_index.warm()  # its sides are otherwise grouped on first use
    snap.keywords.search("warm up", 1)
    if snap.has_access_labels:
        # a caller who may not see every item has its "nothing fits" line drawn from the
        # probes (`calibration.access_fit`): embedded now, not at its first query
        probe_vectors(index.embedder)
    spent["views"] = time.perf_counter() - start
    start = time.perf_counter()
    token_counter(encoding)  # tiktoken's table (0.2 s) was paid, unnamed, in "search"
    spent["tokenizer"] = time.perf_counter() - start
    start = time.perf_counter()
    search()
    spent["search"] = time.perf_counter() - start
    return {k: round(v, 3) for k, v in spent.items()}
