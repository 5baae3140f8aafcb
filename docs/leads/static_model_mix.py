"""A lead, not a feature: a second, different embedding model mixed into the semantic channel.

Issue 14's stretch goals (skills dev +10 nDCG@10 over BM25, every tool set +3 nDCG@10 and +3
Completeness@10 over dense) need a signal the default does not have yet; every label-free
reshuffle of the channels we already have stayed short (docs/leads.md). The one new signal
that installs offline is WordLlama (`pip install wordllama==0.4.0.post1 toml`, MIT; its
256-dimension static token embeddings, l2_supercat, ship inside the wheel, derived from Llama 2
token embeddings: read its licence before it becomes a dependency). A text's vector is the mean
of its tokens' rows, over the whole text: no window, a table lookup and a mean.

``--model minilm-static`` mixes in, instead, a static model distilled from the bundled
all-MiniLM-L6-v2 itself (Apache-2.0, no new dependency), model2vec's way (Tulkens and van
Dongen, 2024), written out here: the transformer's output for each token of its vocabulary
(`distil_minilm`), then PCA and a Zipf-rank weighting (`post_process`). The 384-d table is
distilled once (about a minute on 2 cores) and kept in ``--table``.

This script measures, on the benchmark's own data and cached indexes (the same seeded query
samples as ``skill-retriever benchmark --only skills,toolret --max-queries 500``):

* dense alone: MiniLM's cosine, the static model's, and their mix ``(1 - a) * minilm + a * static``;
* the default search (``Retriever(index).search(q)``, no reranker), with the semantic channel's
  cosine replaced by the mix (``a = 0`` is the default as shipped); with ``--keyword-off``, also
  the mix with the keyword channel switched off (``channel_weights``).

Run from the repository root, in the project's environment::

    pip install wordllama==0.4.0.post1 toml
    python docs/leads/static_model_mix.py --data ../shared/data --cache /tmp/lead-cache [--mix 0.3] [--sets dev,metatool] [--keyword-off]
    python docs/leads/static_model_mix.py --model minilm-static --data ../shared/data --cache /tmp/lead-cache --mix 0.2,0.3 --keyword-off

It loads WordLlama's files itself (its own loader looks for the tokenizer in a folder the wheel
does not have, and then downloads it) and patches the semantic channel's search in this process only.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import time
from pathlib import Path
from typing import Any

import numpy as np

from skill_retriever.bench import datasets, metrics
from skill_retriever.bench.common import FIXED_NOW, MemoEmbedder
from skill_retriever.bench.index_cache import cached_index
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import bundled_model_path, embedder_for
from skill_retriever.stores.vectors import VectorHit


class StaticModel:
    """A static model: the mean of a text's token rows over the whole text, unit length."""

    def __init__(self, rows: np.ndarray, tokenizer: Any) -> None:
        self.rows = rows
        self.tokenizer = tokenizer
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.rows.shape[1]), dtype=np.float32)
        for n, enc in enumerate(self.tokenizer.encode_batch(texts, add_special_tokens=False)):
            if enc.ids:
                out[n] = self.rows[np.clip(enc.ids, 0, len(self.rows) - 1)].mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def wordllama_model() -> StaticModel:
    """WordLlama's l2_supercat_256, loaded from the wheel's own files."""
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    spec = importlib.util.find_spec("wordllama")
    if spec is None or spec.origin is None:
        raise SystemExit("wordllama is not installed: pip install wordllama==0.4.0.post1 toml")
    root = Path(spec.origin).parent
    rows = load_file(str(root / "weights" / "l2_supercat_256.safetensors"))["embedding.weight"]
    return StaticModel(rows, Tokenizer.from_file(str(root / "tokenizers" / "l2_supercat_tokenizer_config.json")))


def _skipped(token: str) -> bool:
    """[PAD] and the [unusedN] slots: never produced by the tokenizer, so given no row."""
    return token == "[PAD]" or (token.startswith("[unused") and token.endswith("]"))


def distil_minilm(model_path: str, order: str, batch: int = 512) -> np.ndarray:
    """One 384-d row per token id of MiniLM's vocabulary: the model's own output for the
    token between two special tokens, mean-pooled over the three positions as the model
    pools (before its unit-length step). ``order`` ``cls-sep`` reads ``[CLS] token [SEP]``,
    as the model sees a one-token text; ``sep-cls`` reads ``[SEP] token [CLS]``, model2vec's
    choice ("reversing the bos and eos tokens works better on our benchmarks"), and here
    too (docs/leads.md). Skipped tokens (`_skipped`) get a row of zeros."""
    import torch
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(model_path, device="cpu")
    transformer, pooling = model[0], model[1]
    vocab = transformer.tokenizer.get_vocab()
    tokens = sorted(vocab, key=vocab.get)
    first, last = (vocab["[CLS]"], vocab["[SEP]"]) if order == "cls-sep" else (vocab["[SEP]"], vocab["[CLS]"])
    rows = np.zeros((len(tokens), transformer.auto_model.config.hidden_size), dtype=np.float32)
    kept = [n for n, t in enumerate(tokens) if not _skipped(t)]
    with torch.inference_mode():
        for start in range(0, len(kept), batch):
            ids = torch.tensor(kept[start : start + batch])
            input_ids = torch.stack([torch.full_like(ids, first), ids, torch.full_like(ids, last)], dim=1)
            features = {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids),
                        "token_type_ids": torch.zeros_like(input_ids)}
            rows[ids.numpy()] = pooling(transformer(features))["sentence_embedding"].numpy()
    return rows


def post_process(rows: np.ndarray, pca: int, weighting: str) -> np.ndarray:
    """model2vec's post-processing, on the rows that are not all zeros (skipped tokens).

    * ``pca``: centre the rows and keep the first ``pca`` principal components (0: neither);
      centring takes out the direction every token shares, which a mean over a text would
      otherwise be dominated by.
    * ``weighting``: a word-frequency prior estimated from the token's rank in the
      vocabulary (Zipf's law; BERT's word pieces are roughly in frequency order after the
      special tokens and single characters). ``sif``, model2vec's current default:
      ``w = 1e-4 / (1e-4 + p)`` with ``p`` proportional to ``1 / (rank + 2)``;
      ``zipf``, its first release: ``w = log(1 + rank)``; ``none``.
    """
    live = np.flatnonzero(np.abs(rows).sum(axis=1) > 0)
    kept = rows[live].astype(np.float64)
    if pca:
        kept -= kept.mean(axis=0)
        _, _, vt = np.linalg.svd(kept, full_matrices=False)
        kept = kept @ vt[:pca].T
    rank = np.arange(len(live), dtype=np.float64)
    if weighting == "sif":
        proba = 1 / (rank + 2)
        kept *= (1e-4 / (1e-4 + proba / proba.sum()))[:, None]
    elif weighting == "zipf":
        kept *= np.log1p(rank)[:, None]
    elif weighting != "none":
        raise ValueError(f"weighting must be sif, zipf or none, not {weighting!r}")
    out = np.zeros((len(rows), kept.shape[1]), dtype=np.float32)
    out[live] = kept
    return out


def minilm_static_model(table: Path, order: str, pca: int, weighting: str) -> StaticModel:
    """The bundled MiniLM distilled into a static table (cached in ``table``), post-processed."""
    from tokenizers import Tokenizer

    path = bundled_model_path()
    if table.exists():
        rows = np.load(table)
    else:
        started = time.perf_counter()
        rows = distil_minilm(path, order)
        np.save(table, rows)
        print(f"distilled {int((np.abs(rows).sum(axis=1) > 0).sum())} token rows of {len(rows)} in "
              f"{time.perf_counter() - started:.1f} s; {table} {table.stat().st_size / 2**20:.1f} MiB", flush=True)
    rows = post_process(rows, pca, weighting)
    return StaticModel(rows, Tokenizer.from_file(str(Path(path) / "tokenizer.json")))


def _score(ranked_lists: list[list[str]], queries: list[datasets.EvalQuery]) -> dict[str, float]:
    def mean(values: list[float | None]) -> float:
        kept = [v for v in values if v is not None]
        return round(100 * float(np.mean(kept)), 1) if kept else float("nan")

    return {
        "nDCG@10": mean([metrics.ndcg_at_k(r, q.relevant, 10) for r, q in zip(ranked_lists, queries, strict=True)]),
        "C@10": mean([metrics.completeness_at_k(r, q.relevant, 10) for r, q in zip(ranked_lists, queries, strict=True)]),
    }


def measure(
    ds: datasets.Dataset, cache: Path, model: StaticModel, mixes: list[float], keyword_off: bool, dense_only: bool
) -> None:
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
    for mix in mixes:
        line |= {f"dense mix a={mix:g} {k}": v for k, v in _score(dense((1 - mix) * sm + mix * ss), queries).items()}
    if dense_only:
        print(ds.name, len(queries), "queries:", "; ".join(f"{k} {v}" for k, v in line.items()), flush=True)
        return

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
        weights = {**shipped_config.channel_weights, "keyword": 0.0}
        runs = [("", 0.0, shipped_config)]
        for mix in mixes:
            runs.append(("", mix, shipped_config))
            if keyword_off:
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
    parser.add_argument("--model", choices=["wordllama", "minilm-static"], default="wordllama",
                        help="the static model mixed in: WordLlama, or the bundled MiniLM distilled (model2vec's way)")
    parser.add_argument("--mix", default="0.3",
                        help="the static model's share of the semantic cosine; several, comma-separated, share one run")
    parser.add_argument("--order", choices=["sep-cls", "cls-sep"], default="sep-cls",
                        help="minilm-static: the special tokens around each token when distilling (distil_minilm)")
    parser.add_argument("--table", type=Path, default=None,
                        help="minilm-static: where the distilled 384-d table is kept between runs "
                             "(default /tmp/minilm-static-<order>.npy); delete it to distil again")
    parser.add_argument("--pca", type=int, default=256, help="minilm-static: principal components kept (0: no PCA)")
    parser.add_argument("--weighting", choices=["sif", "zipf", "none"], default="sif",
                        help="minilm-static: the rank-based frequency weighting of the rows (post_process)")
    parser.add_argument("--dense-only", action="store_true", help="only the dense columns (no default search)")
    parser.add_argument("--keyword-off", action="store_true",
                        help="also run the default with the mix and the keyword channel off")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: every catalogue set)")
    args = parser.parse_args()
    if args.model == "wordllama":
        model = wordllama_model()
    else:
        table = args.table or Path(f"/tmp/minilm-static-{args.order}.npy")
        model = minilm_static_model(table, args.order, args.pca, args.weighting)
    mixes = [float(a) for a in args.mix.split(",") if a]
    skills, _ = datasets.skills_sets(args.data)
    tools, _ = datasets.toolret_sets(args.data, max_queries=500)
    wanted = {s for s in args.sets.split(",") if s}
    for ds in [*skills[:1], *tools]:
        if not wanted or ds.name in wanted:
            measure(ds, args.cache, model, mixes, args.keyword_off, args.dense_only)


if __name__ == "__main__":
    main()
