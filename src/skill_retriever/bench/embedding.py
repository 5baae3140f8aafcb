"""Embedders for benchmarking: a memo over the real model, and a replay of known vectors.

``MemoEmbedder`` remembers the vector of every text it embedded, so the same query run
by twelve methods, or the same passage rescored by the reranker for many queries, is
embedded once. It changes no result (one text embeds to the same vector alone or in a
batch, up to float rounding) and is used for quality runs only, never for latency.

``ReplayEmbedder`` answers from a table of known vectors and falls back to the real
model for anything else; the speed benchmark uses it to grow a 100k-node graph from a
real corpus (replicas get perturbed copies of real vectors) without hours of embedding.
Both report the wrapped model's name, so an index they build opens with the real model.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import numpy as np

from skill_retriever.stores.embedder import Embedder, Vectors


class MemoEmbedder:
    """An LRU memo of ``text -> vector`` in front of a real embedder."""

    def __init__(self, inner: Embedder, max_items: int = 300_000) -> None:
        self.inner = inner
        self._memo: OrderedDict[str, Vectors] = OrderedDict()
        self._max = max_items
        self.hits = 0
        self.misses = 0
        self._bypass = False

    @property
    def name(self) -> str:
        return self.inner.name

    @contextmanager
    def passthrough(self) -> Iterator[None]:
        """Every text goes to the real model while inside (for latency measured on the
        same index as the quality figures)."""
        self._bypass = True
        try:
            yield
        finally:
            self._bypass = False

    @property
    def dim(self) -> int:
        return self.inner.dim

    def seed(self, texts: Sequence[str], vectors: Vectors) -> None:
        """Remember vectors already computed for these exact texts (e.g. at indexing)."""
        for t, v in zip(texts, vectors, strict=True):
            if float(np.abs(v).sum()) > 0:
                self._memo[t] = np.asarray(v, dtype=np.float32)

    def embed(self, texts: Sequence[str]) -> Vectors:
        if self._bypass:
            return self.inner.embed(texts)
        texts = list(texts)
        missing = list(dict.fromkeys(t for t in texts if t not in self._memo))
        if missing:
            vecs = self.inner.embed(missing)
            for t, v in zip(missing, vecs, strict=True):
                self._memo[t] = v
            while len(self._memo) > self._max:
                self._memo.popitem(last=False)
        self.misses += len(missing)
        self.hits += len(texts) - len(missing)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = np.stack([self._memo[t] if t in self._memo else self.inner.embed([t])[0] for t in texts])
        return out.astype(np.float32, copy=False)


class ReplayEmbedder:
    """Known vectors by text; anything else goes to the real model."""

    def __init__(self, inner: Embedder, known: Mapping[str, Vectors]) -> None:
        self.inner = inner
        self.known = dict(known)
        self.replayed = 0
        self.embedded = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo = [i for i, t in enumerate(texts) if t not in self.known]
        for i, t in enumerate(texts):
            if t in self.known:
                out[i] = self.known[t]
        if todo:
            vecs = self.inner.embed([texts[i] for i in todo])
            for i, v in zip(todo, vecs, strict=True):
                out[i] = v
        self.replayed += len(texts) - len(todo)
        self.embedded += len(todo)
        return out
