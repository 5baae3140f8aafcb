"""A query embedded by NumPy against the same query through sentence-transformers: how
far the vectors are apart, and whether a search ranks anything differently.

    python -m skill_retriever.bench.query_embedding QUERIES.jsonl [--index DIR] [--limit N]

``QUERIES.jsonl``: one JSON object per line with a ``query`` (``question``) field, such as
``../shared/data/skills/queries/dev.jsonl`` or ``../shared/data/toolret/metatool/queries.jsonl``.
Prints the largest difference of one vector component and the smallest cosine between
the two vectors of each query (`stores.numpy_encoder` against
``SentenceTransformerEmbedder(numpy_queries=False)``), and, with ``--index``, how many
queries get the same top 10 and the same "nothing fits" from ``Retriever(index).search``
either way, and the largest difference of a score.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def _queries(path: Path, limit: int) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            text = str(row.get("query") or row.get("question") or "")
            if text.strip():  # a search refuses an empty query
                out.append(text)
    return out[:limit]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("queries", type=Path, metavar="QUERIES.jsonl",
                        help="one JSON object per line with a query (or question) field")
    parser.add_argument("--index", type=Path, default=None, metavar="DIR",
                        help="also search this index both ways and count the queries whose top 10 and "
                             "'nothing fits' agree (default: compare the vectors only)")
    parser.add_argument("--limit", type=int, default=1000, metavar="N",
                        help="embed the first N queries of the file (default 1000)")
    args = parser.parse_args(argv)
    # After parsing, so that --help answers without loading NumPy and the model code.
    import numpy as np

    from skill_retriever.retriever import Retriever
    from skill_retriever.stores.embedder import SentenceTransformerEmbedder
    from skill_retriever.stores.index import Index

    queries = _queries(args.queries, args.limit)
    numpy_side, torch_side = SentenceTransformerEmbedder(), SentenceTransformerEmbedder(numpy_queries=False)
    a = np.stack([numpy_side.embed([q])[0] for q in queries])
    b = np.stack([torch_side.embed([q])[0] for q in queries])
    print(f"{len(queries)} queries: largest component difference {np.abs(a - b).max():.2e}, "
          f"smallest cosine {float((a * b).sum(axis=1).min()):.8f}")
    if args.index is None:
        return 0
    answers = []
    for embedder in (numpy_side, torch_side):
        with Index.open(args.index, embedder=embedder) as index:
            retriever = Retriever(index)
            answers.append([retriever.search(q, k=10) for q in queries])
    same = sum(x.ids == y.ids and x.nothing_fits == y.nothing_fits for x, y in zip(*answers, strict=True))
    gap = max((abs(r.score - s.score) for x, y in zip(*answers, strict=True)
               for r, s in zip(x.results, y.results, strict=False)), default=0.0)
    print(f"{args.index}: the same top 10 and 'nothing fits' on {same} of {len(queries)} queries; "
          f"largest score difference {gap:.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
