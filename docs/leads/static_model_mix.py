"""A lead, not a feature: a second, different embedding model mixed into the semantic channel.

Issue 14's stretch goals (skills dev +10 nDCG@10 over BM25, every tool set +3 nDCG@10 and +3
Completeness@10 over dense) need a signal the default does not have yet; every label-free
reshuffle of the channels we already have stayed short (docs/leads.md). The one new signal
that installs offline is WordLlama (`pip install wordllama==0.4.0.post1 toml`, MIT; its
256-dimension static token embeddings, l2_supercat, ship inside the wheel, derived from Llama 2
token embeddings: read its licence before it becomes a dependency). A text's vector is the mean
of its tokens' rows, over the whole text: no window, a table lookup and a mean.

This script measures, on the benchmark's own data and cached indexes (the same seeded query
samples as ``skill-retriever benchmark --only skills,toolret --max-queries 500``):

* dense alone: MiniLM's cosine, WordLlama's, and their mix ``(1 - a) * minilm + a * wordllama``;
* the default search (``Retriever(index).search(q)``, no reranker), with the semantic channel's
  cosine replaced by the mix (``a = 0`` is the default as shipped); with ``--keyword-off``, also
  the mix with the keyword channel switched off (``channel_weights``).

Run from the repository root, in the project's environment::

    pip install wordllama==0.4.0.post1 toml
    python docs/leads/static_model_mix.py --data ../shared/data --cache /tmp/lead-cache [--mix 0.3] [--sets dev,metatool] [--keyword-off]

It loads WordLlama's files itself (its own loader looks for the tokenizer in a folder the wheel
does not have, and then downloads it) and patches the semantic channel's search in this process only.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from pathlib import Path

import numpy as np

from skill_retriever.bench import datasets, metrics
from skill_retriever.bench.common import FIXED_NOW, MemoEmbedder
from skill_retriever.bench.index_cache import cached_index
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import embedder_for
from skill_retriever.stores.vectors import VectorHit


class StaticModel:
    """WordLlama's l2_supercat_256: the mean of a text's token rows, unit length."""

    def __init__(self) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        spec = importlib.util.find_spec("wordllama")
        if spec is None or spec.origin is None:
            raise SystemExit("wordllama is not installed: pip install wordllama==0.4.0.post1 toml")
        root = Path(spec.origin).parent
        self.rows = load_file(str(root / "weights" / "l2_supercat_256.safetensors"))["embedding.weight"]
        self.tokenizer = Tokenizer.from_file(str(root / "tokenizers" / "l2_supercat_tokenizer_config.json"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.rows.shape[1]), dtype=np.float32)
        for n, enc in enumerate(self.tokenizer.encode_batch(texts, add_special_tokens=False)):
            if enc.ids:
                out[n] = self.rows[np.clip(enc.ids, 0, len(self.rows) - 1)].mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def _score(ranked_lists: list[list[str]], queries: list[datasets.EvalQuery]) -> dict[str, float]:
    def mean(values: list[float | None]) -> float:
        kept = [v for v in values if v is not None]
        return round(100 * float(np.mean(kept)), 1) if kept else float("nan")

    return {
        "nDCG@10": mean([metrics.ndcg_at_k(r, q.relevant, 10) for r, q in zip(ranked_lists, queries, strict=True)]),
        "C@10": mean([metrics.completeness_at_k(r, q.relevant, 10) for r, q in zip(ranked_lists, queries, strict=True)]),
    }


def measure(ds: datasets.Dataset, cache: Path, model: StaticModel, mix: float, keyword_off: bool) -> None:
    embedder = MemoEmbedder(embedder_for(None))
    index, _ = cached_index(cache, ds.key, ds.fingerprint, ds.ingest, embedder, lambda line: None)
    snap = index.snapshot()
    ids = list(snap.graph.ids)
    row = {node_id: n for n, node_id in enumerate(ids)}
    minilm = np.asarray(snap.embeddings, dtype=np.float32)
    static = model.embed([snap.get(i).embedding_text() for i in ids])
    queries = [q for q in ds.queries if q.relevant]
    kinds = set(ds.kinds) if ds.kinds else None
    askable = np.array([kinds is None or snap.get(i).kind.value in kinds for i in ids])
    q_minilm = np.asarray(embedder.embed([q.text for q in queries]), dtype=np.float32)
    q_static = model.embed([q.text for q in queries])

    def dense(scores: np.ndarray) -> list[list[str]]:
        scores = np.where(askable, scores, -9.0)
        return [[ids[j] for j in np.argsort(-s, kind="stable")[:10]] for s in scores]

    sm, ss = q_minilm @ minilm.T, q_static @ static.T
    line = {f"dense minilm {k}": v for k, v in _score(dense(sm), queries).items()}
    line |= {f"dense static {k}": v for k, v in _score(dense(ss), queries).items()}
    line |= {f"dense mix {k}": v for k, v in _score(dense((1 - mix) * sm + mix * ss), queries).items()}

    seeds = importlib.import_module("skill_retriever.phases.retrieve_seeds")
    shipped = seeds.search_within
    current: dict[str, np.ndarray] = {}

    def mixed(snapshot, qvec, n, filters):  # type: ignore[no-untyped-def]
        hits = shipped(snapshot, qvec, len(ids), filters)
        other = static @ current["q"]
        out = [VectorHit(h.id, (1 - current["a"]) * h.score + current["a"] * float(other[row[h.id]])) for h in hits]
        return sorted(out, key=lambda h: (-round(h.score, 6), h.id))[:n]

    seeds.search_within = mixed
    try:
        shipped_config = RetrievalConfig(now=FIXED_NOW)
        runs = [("", 0.0, shipped_config), ("", mix, shipped_config)]
        if keyword_off:
            weights = {**shipped_config.channel_weights, "keyword": 0.0}
            runs.append((" keyword off", mix, RetrievalConfig(now=FIXED_NOW, channel_weights=weights)))
        for label, a, config in runs:
            retriever = Retriever(index, config, cache_size=0)
            current["a"] = np.float32(a)
            ranked = []
            for q, qv in zip(queries, q_static, strict=True):
                current["q"] = qv
                kinds_asked = list(ds.kinds) if ds.kinds else None
                ranked.append(retriever.search(q.text, k=10, kinds=kinds_asked, principals=["*"]).ids)
            line |= {f"default a={a:g}{label} {k}": v for k, v in _score(ranked, queries).items()}
    finally:
        seeds.search_within = shipped
    print(ds.name, len(queries), "queries:", "; ".join(f"{k} {v}" for k, v in line.items()), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder (skills/, toolret/)")
    parser.add_argument("--cache", type=Path, required=True, help="where built indexes are kept between runs")
    parser.add_argument("--mix", type=float, default=0.3, help="WordLlama's share of the semantic cosine")
    parser.add_argument("--keyword-off", action="store_true",
                        help="also run the default with the mix and the keyword channel off")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: every catalogue set)")
    args = parser.parse_args()
    model = StaticModel()
    skills, _ = datasets.skills_sets(args.data)
    tools, _ = datasets.toolret_sets(args.data, max_queries=500)
    wanted = {s for s in args.sets.split(",") if s}
    for ds in [*skills[:1], *tools]:
        if not wanted or ds.name in wanted:
            measure(ds, args.cache, model, args.mix, args.keyword_off)


if __name__ == "__main__":
    main()
