"""A lead, not a feature: the bundled MiniLM fine-tuned, without labels, on each index's own items.

Issue 14's stretch goals need a signal the default does not have yet (docs/leads.md). This
script tries a label-free domain adaptation of the bundled all-MiniLM-L6-v2, as GPL or
"synthetic query" training does but with no LLM: pseudo-query / item pairs are cut from the
items alone (`pairs`), and the bi-encoder is fine-tuned on them with sentence-transformers'
MultipleNegativesRankingLoss (in-batch negatives) for one short epoch (`adapt`; a plain torch
loop, so that neither ``datasets`` nor ``accelerate`` is needed). The benchmark's queries and
judgements are never read for training; the training settings were fixed before any run, and
the kind of pseudo-query was picked on skills dev alone (below).

Pseudo-queries (``--pairs``), one try each on skills dev (48 queries) and metatool; ``ict``
was the best on skills dev's dense search and is the default, run unchanged on the other sets:

* ``ict`` (default): inverse cloze, a random sentence of the item as the query and the item
  without it (name and description kept) as the positive; an item of one sentence gives none;
* ``head``: the item's name and description as the query (``name: description``; an item with
  no description, as tool items are, gives its name and the first sentence of its text), the
  rest of its text as the positive;
* ``name``: the name alone as the query, the whole text (description included) as the positive.

Settings, fixed before any run: one epoch, batches of 32, AdamW at 2e-5, 128 word pieces
read per text while training (the saved model reads 256 again, as the bundled one does),
seed 0, at most 1024 pairs (``--max-pairs``: of the sets run, only seal-tools has more). ``--lr 0`` saves the
bundled model unchanged through the same path; it reproduces MiniLM's columns to the digit.

Each set's index is then built again with the adapted model as the index's embedder (the
benchmark's own cache, `cached_index`, in an entry of its own beside MiniLM's), so every use
of the vectors (the semantic channel, its feedback, graph expansion, the calibration) reads
the adapted model, as it would if it shipped. It measures, on the benchmark's own data and
seeded query samples (the same as ``skill-retriever benchmark --only skills,toolret
--max-queries 500``), nDCG@10 / Completeness@10 of:

* dense alone: MiniLM's cosine, the adapted model's, and their mix
  ``(1 - a) * minilm + a * adapted`` (``--mix``);
* the default search (``Retriever(index).search(q)``, no reranker) on MiniLM's index (as
  shipped; it reproduces the README's "full" rows) and on the adapted model's index.

It prints the training time and the index's build time with the adapted model (embedding,
indexing, calibration) per set. Run from the repository root, in the project's environment::

    python docs/leads/adapted_model.py --data ../shared/data --cache /tmp/lead-cache --models /tmp/adapted [--sets dev,metatool] [--pairs ict]

The cache's MiniLM entries are reused when present (they are built first otherwise); the
adapted entries and models are rebuilt on every run, so that their times are measured.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import time
from pathlib import Path

import numpy as np

# The other lead's scoring, so both tables are the same figures (docs/leads is on sys.path when run).
from static_model_mix import _score

from skill_retriever.bench import datasets
from skill_retriever.bench.common import FIXED_NOW, MemoEmbedder
from skill_retriever.bench.index_cache import cached_index, entry_dir
from skill_retriever.config import RetrievalConfig
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import bundled_model_path, embedder_for

SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(text) if len(s.strip()) > 3]


def pairs(items: list[Node], how: str, seed: int) -> list[tuple[str, str]]:
    """(pseudo-query, positive) pairs cut from the items alone; an item that leaves either
    side empty gives none."""
    rng = random.Random(seed)
    out = []
    for item in items:
        text = item.text.strip()
        if how == "head":
            if item.description:
                query, positive = f"{item.name}: {item.description}", text
            else:
                parts = _sentences(text)
                query = f"{item.name}: {parts[0]}" if parts else item.name
                positive = " ".join(parts[1:])
        elif how == "name":
            query = item.name
            positive = f"{item.description}\n{text}".strip() if item.description else text
        elif how == "ict":
            parts = _sentences(text)
            if len(parts) < 2:
                continue
            n = rng.randrange(len(parts))
            query = parts[n]
            head = f"{item.name}: {item.description}".strip(": ") if item.description else item.name
            positive = f"{head}\n{' '.join(parts[:n] + parts[n + 1 :])}"
        else:
            raise ValueError(f"pairs must be head, name or ict, not {how!r}")
        if query.strip() and positive.strip():
            out.append((query, positive))
    return out


def adapt(
    train: list[tuple[str, str]], folder: Path, batch: int, lr: float, train_len: int, seed: int, epochs: int = 1
) -> float:
    """Fine-tune the bundled MiniLM on ``train`` for ``epochs`` (MultipleNegativesRankingLoss,
    in-batch negatives, AdamW, 10 % linear warm-up then linear decay) and save it in
    ``folder`` reading 256 word pieces again, as the bundled model does. Returns seconds."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss

    started = time.perf_counter()
    torch.manual_seed(seed)
    model = SentenceTransformer(bundled_model_path(), device="cpu")
    shipped_len = model.max_seq_length
    model.max_seq_length = train_len
    loss = MultipleNegativesRankingLoss(model)
    shuffle = random.Random(seed)
    batches = []
    for _ in range(epochs):  # each epoch in a new order, so that a batch's negatives change
        order = list(range(len(train)))
        shuffle.shuffle(order)
        batches += [order[s : s + batch] for s in range(0, len(order), batch) if len(order[s : s + batch]) > 1]
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    warm = max(1, len(batches) // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min((step + 1) / warm, max(0.0, (len(batches) - step) / max(1, len(batches) - warm))))
    model.train()
    losses = []
    for rows in batches:
        queries = model.tokenize([train[n][0] for n in rows])
        positives = model.tokenize([train[n][1] for n in rows])
        value = loss([queries, positives], None)
        value.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
        losses.append(float(value.detach()))
    model.eval()
    model.max_seq_length = shipped_len
    if folder.exists():
        shutil.rmtree(folder)
    model.save(str(folder))
    seconds = time.perf_counter() - started
    print(f"  trained on {len(train)} pairs, {len(batches)} steps in {seconds:.1f} s; loss "
          f"{np.mean(losses[: max(1, len(losses) // 10)]):.3f} -> {np.mean(losses[-max(1, len(losses) // 10) :]):.3f}",
          flush=True)
    return seconds


def measure(ds: datasets.Dataset, args: argparse.Namespace, mixes: list[float]) -> None:
    queries = [q for q in ds.queries if q.relevant]
    kinds_asked = list(ds.kinds) if ds.kinds else None
    line: dict[str, float] = {}

    def run(embedder: MemoEmbedder, label: str) -> tuple[list[str], np.ndarray, list[Node]]:
        index, build = cached_index(args.cache, ds.key, ds.fingerprint, ds.ingest, embedder, lambda text: None)
        if not build.reused:
            print(f"  {label}: built the index ({build.nodes} nodes) in {build.index_s:.1f} s "
                  f"(ingest {build.ingest_s:.1f} s, {build.embedded} texts embedded)", flush=True)
        snap = index.snapshot()
        ids = list(snap.graph.ids)
        kinds = set(ds.kinds) if ds.kinds else None
        askable = np.array([kinds is None or snap.get(i).kind.value in kinds for i in ids])
        scores = np.asarray(embedder.embed([q.text for q in queries]), dtype=np.float32) @ np.asarray(
            snap.embeddings, dtype=np.float32).T
        scores = np.where(askable, scores, -9.0)
        retriever = Retriever(index, RetrievalConfig(now=FIXED_NOW), cache_size=0)
        ranked = [retriever.search(q.text, k=10, kinds=kinds_asked, principals=["*"]).ids for q in queries]
        line.update({f"default {label} {k}": v for k, v in _score(ranked, queries).items()})
        items = [snap.get(i) for i in ids]
        index.close()
        return ids, scores, items

    def dense(ids: list[str], scores: np.ndarray) -> list[list[str]]:
        return [[ids[j] for j in np.argsort(-s, kind="stable")[:10]] for s in scores]

    ids, sm, items = run(MemoEmbedder(embedder_for(None)), "minilm")
    line |= {f"dense minilm {k}": v for k, v in _score(dense(ids, sm), queries).items()}

    train = pairs([n for n in items if isinstance(n, Node) and n.text], args.pairs, args.seed)
    if args.max_pairs and len(train) > args.max_pairs:  # a cap on the training's cost on big indexes
        train = random.Random(args.seed).sample(train, args.max_pairs)
    folder = args.models / f"{ds.key}-{args.pairs}-b{args.batch}-lr{args.lr:g}-l{args.train_len}-e{args.epochs}-s{args.seed}"
    train_s = adapt(train, folder, args.batch, args.lr, args.train_len, args.seed, args.epochs)
    embedder = MemoEmbedder(embedder_for(str(folder)))
    home = entry_dir(args.cache, ds.key, embedder.name)
    if home.exists():
        shutil.rmtree(home)  # the same folder name holds a new model: embed again, and time it
    started = time.perf_counter()
    a_ids, sa, _ = run(embedder, "adapted")
    print(f"  adapted index and its default search over {len(queries)} queries: {time.perf_counter() - started:.1f} s "
          f"(training {train_s:.1f} s)", flush=True)
    order = [a_ids.index(i) for i in ids]
    sa = sa[:, order]
    line |= {f"dense adapted {k}": v for k, v in _score(dense(ids, sa), queries).items()}
    for mix in mixes:
        line |= {f"dense mix a={mix:g} {k}": v for k, v in _score(dense(ids, (1 - mix) * sm + mix * sa), queries).items()}
    print(ds.name, len(queries), "queries:", "; ".join(f"{k} {v}" for k, v in line.items()), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder (skills/, toolret/)")
    parser.add_argument("--cache", type=Path, required=True, help="where built indexes are kept between runs")
    parser.add_argument("--models", type=Path, default=Path("/tmp/adapted-models"),
                        help="where the adapted models are saved (one folder per set and settings)")
    parser.add_argument("--pairs", choices=["ict", "head", "name"], default="ict", help="the pseudo-queries (`pairs`)")
    parser.add_argument("--batch", type=int, default=32, help="pairs per step (in-batch negatives)")
    parser.add_argument("--lr", type=float, default=2e-5, help="AdamW's peak learning rate")
    parser.add_argument("--train-len", type=int, default=128, help="word pieces read per text while training")
    parser.add_argument("--max-pairs", type=int, default=1024,
                        help="train on at most this many pairs, drawn at random (0: all)")
    parser.add_argument("--epochs", type=int, default=1, help="passes over the pairs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mix", default="0.5", help="the adapted cosine's share in the dense mix; comma-separated")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: every catalogue set)")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(2)
    mixes = [float(a) for a in args.mix.split(",") if a]
    args.models.mkdir(parents=True, exist_ok=True)
    skills, _ = datasets.skills_sets(args.data)
    tools, _ = datasets.toolret_sets(args.data, max_queries=500)
    wanted = {s for s in args.sets.split(",") if s}
    for ds in [*skills[:1], *tools]:
        if not wanted or ds.name in wanted:
            measure(ds, args, mixes)


if __name__ == "__main__":
    main()
