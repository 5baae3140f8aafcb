"""How many torch threads a query embedding should use: time one-query embeddings of the
bundled MiniLM at 1 and at torch's default thread count.

    python -m skill_retriever.bench.embed_threads [--queries 50]

Prints ms per query for each setting. The embedder uses one thread for small calls
(``SentenceTransformerEmbedder(query_threads=1)``) because of what this prints on a
2-core machine, especially one that is doing anything else at the same time.
"""

from __future__ import annotations

import argparse
import time


def main(argv: list[str] | None = None) -> int:
    import torch

    from skill_retriever.stores.embedder import SentenceTransformerEmbedder

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args(argv)
    default = torch.get_num_threads()
    for threads in sorted({1, default}):
        embedder = SentenceTransformerEmbedder(query_threads=threads)
        embedder.embed(["warm up"])
        start = time.perf_counter()
        for i in range(args.queries):
            embedder.embed([f"which deploy touched a service that checkout-api depends on? {i}"])
        ms = (time.perf_counter() - start) * 1000 / args.queries
        print(f"torch threads {threads}: {ms:.1f} ms per query embedding ({args.queries} queries)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
