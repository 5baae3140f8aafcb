"""A lead, not a feature: zero-shot late interaction (ColBERT's MaxSim) with the bundled MiniLM's token vectors.

Issue 14's stretch goals need a signal the default does not have yet (docs/leads.md). The
default reads each item as one vector (the semantic channel) and as a bag of words (the
keyword channel); late interaction reads it as one vector per word piece, in context. This
script scores an item for a query as ColBERT does (Khattab and Zaharia, 2020), with no
training: the bundled all-MiniLM-L6-v2's token embeddings (its transformer's output before
pooling) for the query and for the item, each made unit length, ``[CLS]``, ``[SEP]`` and
padding dropped; the score is the mean, over the query's tokens, of each one's best cosine
with any of the item's tokens (`maxsim`). An item longer than the model's 256 word pieces
is read in consecutive windows of 254 and all their tokens are pooled (`TokenEncoder`).

It reranks the default's top N (``Retriever(index).search(q, k=N)``, no reranker) by a blend
(`blends`): ``(1 - w) * default + w * maxsim``, each min-max normalised over the N, the
default's side either its ordering score (``score``) or its rank (``1 - rank / N``); and plain
Reciprocal Rank Fusion of the two orders (k = 60). Settings are chosen on skills dev alone
(the first set run), then run unchanged on the others. It measures, on the benchmark's own
data and seeded query samples (the same as ``skill-retriever benchmark --only
skills,toolret --max-queries 500``), nDCG@10 / Completeness@10 of the default as shipped
(``k=10``: the README's "full" rows), of MaxSim alone over the top N, and of every blend,
and prints the costs: token-embedding time per item (only the items that reach some query's
top N are encoded; time per word piece too), the storage in floats per item (word pieces x
384, over every item of the index), and the rerank's time per query (the query's token
vectors and N MaxSims from stored item vectors).

``maxsim-idf`` weights each query token by its word piece's BM25 idf over the index's items
(a variant added after the first skills dev run, where plain MaxSim let common words match
anywhere in long items). The grid is N in {10, 20, 30} x {maxsim, maxsim-idf} x {score, rank}
x w in {0.2, 0.35, 0.5}, plus RRF and each signal alone. On skills dev no setting beats the
default (81.0): the best, N=10 ``score`` w=0.2, ties it (a top 10 reordered only where
that does not move nDCG@10); every other one is below. That setting and N=30 ``score`` w=0.2
(the best at N=30, 80.2) were read on the other sets unchanged; neither helps there either.

Run from the repository root, in the project's environment::

    python docs/leads/maxsim_rerank.py --data ../shared/data --cache /tmp/lead-cache [--top 10,20,30] [--sets dev,metatool,restbench-tmdb,seal-tools,ultratool]

The cache's MiniLM entries are reused when present (built first otherwise).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

# The other lead's scoring, so the tables are the same figures (docs/leads is on sys.path when run).
from static_model_mix import _score

from skill_retriever.bench import datasets
from skill_retriever.bench.common import FIXED_NOW, MemoEmbedder
from skill_retriever.bench.index_cache import cached_index
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import bundled_model_path, embedder_for

WEIGHTS = (0.2, 0.35, 0.5)
RRF_K = 60


class TokenEncoder:
    """The bundled MiniLM's contextual token vectors, unit length, special tokens and
    padding dropped; a text longer than one window is read in consecutive windows."""

    def __init__(self, batch: int = 32) -> None:
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(bundled_model_path(), device="cpu")
        self.transformer = self.model[0]
        self.tokenizer = self.transformer.tokenizer
        self.window = self.model.max_seq_length - 2
        self.cls, self.sep = self.tokenizer.cls_token_id, self.tokenizer.sep_token_id
        self.batch = batch

    def pieces(self, texts: list[str]) -> list[list[int]]:
        return self.tokenizer(texts, add_special_tokens=False, verbose=False)["input_ids"]

    def encode(self, texts: list[str]) -> list[np.ndarray]:
        import torch

        if not texts:
            return []
        windows = []  # (text number, word piece ids)
        for n, ids in enumerate(self.pieces(texts)):
            windows += [(n, ids[s : s + self.window]) for s in range(0, max(1, len(ids)), self.window)]
        parts: list[list[np.ndarray]] = [[] for _ in texts]
        order = sorted(range(len(windows)), key=lambda w: len(windows[w][1]))
        with torch.inference_mode():
            for start in range(0, len(order), self.batch):
                chunk = [windows[w] for w in order[start : start + self.batch]]
                width = max(len(ids) for _, ids in chunk) + 2
                input_ids = torch.zeros((len(chunk), width), dtype=torch.long)
                mask = torch.zeros_like(input_ids)
                for row, (_, ids) in enumerate(chunk):
                    input_ids[row, : len(ids) + 2] = torch.tensor([self.cls, *ids, self.sep])
                    mask[row, : len(ids) + 2] = 1
                features = {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": torch.zeros_like(input_ids)}
                out = self.transformer(features)["token_embeddings"].numpy()
                for row, (n, ids) in enumerate(chunk):
                    parts[n].append(out[row, 1 : len(ids) + 1])
        vectors = []
        for p in parts:
            v = np.concatenate(p) if p else np.zeros((0, 384), dtype=np.float32)
            v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-9)
            vectors.append(v.astype(np.float16))
        return vectors


def maxsim(query: np.ndarray, item: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Mean over the query's tokens of the best cosine with any of the item's tokens; with
    ``weights`` (one per query token), their weighted mean."""
    if not len(query) or not len(item):
        return 0.0
    best = (query.astype(np.float32) @ item.astype(np.float32).T).max(axis=1)
    return float(best.mean() if weights is None else (best * weights).sum() / weights.sum())


def idf(pieces: list[list[int]]) -> dict[int, float]:
    """BM25's idf of each word piece over the index's items (a piece in no item: the highest)."""
    df: dict[int, int] = {}
    for ids in pieces:
        for t in set(ids):
            df[t] = df.get(t, 0) + 1
    n = len(pieces)
    return {t: float(np.log((n - d + 0.5) / (d + 0.5) + 1)) for t, d in df.items()} | {-1: float(np.log(n + 1.5))}


def _load(path: Path) -> dict[str, np.ndarray]:
    if not path.exists():
        return {}
    saved = np.load(path, allow_pickle=False)
    ids, ends, rows = list(saved["ids"]), saved["ends"], saved["rows"]
    return {i: rows[s:e] for i, s, e in zip(ids, np.r_[0, ends[:-1]], ends, strict=True)}


def _save(path: Path, vectors: dict[str, np.ndarray]) -> None:
    ids = sorted(vectors)
    np.savez(path, ids=np.array(ids), ends=np.cumsum([len(vectors[i]) for i in ids]),
             rows=np.concatenate([vectors[i] for i in ids]))


def _minmax(values: np.ndarray) -> np.ndarray:
    spread = values.max() - values.min()
    return (values - values.min()) / spread if spread > 0 else np.zeros_like(values)


def blends(ids: list[str], default: np.ndarray, late: np.ndarray) -> dict[str, list[str]]:
    """The default's top N (``ids``, best first, with its ordering ``default`` scores)
    reordered by each blend with the MaxSim scores ``late``; ties keep the default's order."""
    n = len(ids)
    rank = np.arange(n, dtype=np.float64)
    late_rank = np.empty(n)
    late_rank[np.argsort(-late, kind="stable")] = rank
    out = {"maxsim": late}
    for w in WEIGHTS:
        out[f"score w={w:g}"] = (1 - w) * _minmax(default) + w * _minmax(late)
        out[f"rank w={w:g}"] = (1 - w) * (1 - rank / n) + w * _minmax(late)
    out["rrf"] = 1 / (RRF_K + rank + 1) + 1 / (RRF_K + late_rank + 1)
    return {label: [ids[j] for j in np.argsort(-s, kind="stable")[:10]] for label, s in out.items()}


def measure(
    ds: datasets.Dataset, cache: Path, encoder: TokenEncoder, tops: list[int], vectors: Path | None
) -> dict[str, dict[str, float]]:
    embedder = MemoEmbedder(embedder_for(None))
    index, _ = cached_index(cache, ds.key, ds.fingerprint, ds.ingest, embedder, lambda line: None)
    snap = index.snapshot()
    queries = [q for q in ds.queries if q.relevant]
    kinds = list(ds.kinds) if ds.kinds else None
    retriever = Retriever(index, RetrievalConfig(now=FIXED_NOW), cache_size=0)
    shipped = [retriever.search(q.text, k=10, kinds=kinds, principals=["*"]).ids for q in queries]
    started = time.perf_counter()
    answers = [retriever.search(q.text, k=max(tops), kinds=kinds, principals=["*"]).results for q in queries]
    search_ms = 1000 * (time.perf_counter() - started) / len(queries)
    same = sum(s == [r.id for r in a[:10]] for s, a in zip(shipped, answers, strict=True))
    table = {"default": _score(shipped, queries)}

    all_ids = list(snap.graph.ids)
    text = {i: snap.get(i).embedding_text() for i in all_ids}
    pieces = encoder.pieces([text[i] for i in all_ids])
    floats = np.mean([len(p) for p in pieces]) * 384
    weight = idf(pieces)
    store = vectors / f"{ds.key}.npz" if vectors else None
    item_vectors = _load(store) if store else {}
    wanted = sorted({r.id for a in answers for r in a} - set(item_vectors))
    started = time.perf_counter()
    item_vectors |= dict(zip(wanted, encoder.encode([text[i] for i in wanted]), strict=True))
    encode_s = time.perf_counter() - started
    wanted_pieces = sum(len(item_vectors[i]) for i in wanted)
    if store and wanted:
        _save(store, item_vectors)

    started = time.perf_counter()
    late: dict[str, list[np.ndarray]] = {"maxsim": [], "maxsim-idf": []}
    for q, a in zip(queries, answers, strict=True):
        qv = encoder.encode([q.text])[0]
        late["maxsim"].append(np.array([maxsim(qv, item_vectors[r.id]) for r in a]))
        qw = np.array([weight.get(t, weight[-1]) for t in encoder.pieces([q.text])[0]][: len(qv)])
        late["maxsim-idf"].append(np.array([maxsim(qv, item_vectors[r.id], qw) for r in a]))
    rerank_ms = 1000 * (time.perf_counter() - started) / len(queries) / 2  # both variants ran

    for top in tops:
        for signal, scores in late.items():
            ranked: dict[str, list[list[str]]] = {}
            for a, ls in zip(answers, scores, strict=True):
                ids = [r.id for r in a[:top]]
                default = np.array([r.score for r in a[:top]], dtype=np.float64)
                for label, order in blends(ids, default, ls[:top]).items():
                    ranked.setdefault(label.replace("maxsim", "alone"), []).append(order)
            for label, lists in ranked.items():
                table[f"N={top} {signal} {label}"] = _score(lists, queries)
    index.close()
    print(f"{ds.name}: {len(queries)} queries, {len(all_ids)} items; top 10 of k={max(tops)} is k=10's answer on "
          f"{same}/{len(queries)}; default search {search_ms:.0f} ms/query", flush=True)
    if wanted:
        print(f"  token vectors of {len(wanted)} items ({wanted_pieces} word pieces): {encode_s:.1f} s, "
              f"{1000 * encode_s / len(wanted):.1f} ms/item, {1e6 * encode_s / max(1, wanted_pieces):.0f} us/word piece",
              flush=True)
    print(f"  storage {floats:.0f} floats/item over all {len(all_ids)} items (dense: 384); "
          f"rerank of top {max(tops)}: {rerank_ms:.1f} ms/query", flush=True)
    for label, row in table.items():
        print(f"  {label:28s} {row['nDCG@10']:5.1f} / {row['C@10']:5.1f}", flush=True)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder (skills/, toolret/)")
    parser.add_argument("--cache", type=Path, required=True, help="where built indexes are kept between runs")
    parser.add_argument("--top", default="10,20,30", help="the default's top N reranked; comma-separated")
    parser.add_argument("--sets", default="dev,metatool,restbench-tmdb,seal-tools,ultratool",
                        help="comma-separated set names (empty: every catalogue set)")
    parser.add_argument("--vectors", type=Path, default=None,
                        help="where the items' token vectors are kept between runs (one .npz per set; "
                             "only newly encoded items are timed)")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(2)
    tops = sorted(int(a) for a in args.top.split(",") if a)
    encoder = TokenEncoder()
    if args.vectors:
        args.vectors.mkdir(parents=True, exist_ok=True)
    skills, _ = datasets.skills_sets(args.data)
    tools, _ = datasets.toolret_sets(args.data, max_queries=500)
    wanted = {s for s in args.sets.split(",") if s}
    for ds in [*skills[:1], *tools]:
        if not wanted or ds.name in wanted:
            measure(ds, args.cache, encoder, tops, args.vectors)


if __name__ == "__main__":
    main()
