"""How many threads a query embedding should use: time one-query embeddings of the bundled
MiniLM by NumPy (`stores.numpy_encoder`, the default) with BLAS on one thread and on its
default pool, and by sentence-transformers at 1 and at torch's default thread count.

    python -m skill_retriever.bench.embed_threads [--queries 50]

Prints ms per query for each. A query runs on one thread either way (NumPy:
`numpy_encoder._BlasLimit`; torch: ``SentenceTransformerEmbedder(query_threads=1)``)
because of what this prints on a 2-core machine, especially one doing anything else.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any


def _ms_per_query(embed: Callable[[str], Any], queries: int) -> float:
    embed("warm up")
    start = time.perf_counter()
    for i in range(queries):
        embed(f"which deploy touched a service that checkout-api depends on? {i}")
    return (time.perf_counter() - start) * 1000 / queries


def main(argv: list[str] | None = None) -> int:
    from skill_retriever.stores.embedder import SentenceTransformerEmbedder, bundled_model_path
    from skill_retriever.stores.numpy_encoder import numpy_encoder_for

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args(argv)
    encoder = numpy_encoder_for(bundled_model_path(), None)
    assert encoder is not None, "the bundled model is one NumPy runs"
    for label, embed in (
        ("numpy, BLAS on one thread (the default)", encoder.encode),
        ("numpy, BLAS's default pool", encoder._encode),  # the same, without the limit
    ):
        print(f"{label}: {_ms_per_query(embed, args.queries):.1f} ms per query embedding")
    import torch

    for threads in sorted({1, torch.get_num_threads()}):
        embedder = SentenceTransformerEmbedder(query_threads=threads, numpy_queries=False)
        ms = _ms_per_query(lambda q: embedder.embed([q]), args.queries)  # noqa: B023 - called at once
        print(f"sentence-transformers, torch threads {threads}: {ms:.1f} ms per query embedding")
    print(f"({args.queries} queries each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
