"""BM25 keyword search on a sparse term matrix.

Okapi BM25 (Robertson & Zaragoza 2009). Two idf variants: ``"lucene"`` (default,
``log(1 + (N - df + 0.5) / (df + 0.5))``, never negative, so a term found in most documents
of a small corpus still counts) and ``"okapi"``, exactly as ``rank_bm25.BM25Okapi``
computes it (``log((N - df + 0.5) / (df + 0.5))`` with negatives floored to
``epsilon * mean idf``), which the tests hold us against score for score. The difference is speed: postings live in a
scipy CSC matrix, so a query touches only the documents that contain its terms instead of
looping over every document in Python.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from skill_retriever.algorithms.tokenize import bm25_tokens


@dataclass(frozen=True, slots=True)
class KeywordHit:
    id: str
    score: float


class KeywordStore(Protocol):
    """What the keyword channel needs; a sharded or external BM25 plugs in here."""

    def upsert(self, items: Iterable[tuple[str, str]]) -> None: ...

    def delete(self, ids: Iterable[str]) -> None: ...

    def search(
        self, query: str, k: int, allowed: Callable[[str], bool] | None = None
    ) -> list[KeywordHit]: ...

    def __len__(self) -> int: ...


class BM25Index:
    """In-memory BM25 with incremental upsert/delete; the matrix is rebuilt lazily.

    Args:
        k1, b: BM25 parameters (1.2 / 0.75, the data README's baseline).
        epsilon: idf floor factor of the "okapi" variant, as rank_bm25.
        idf: "lucene" or "okapi" (see the module docstring).
        tokenizer: text -> tokens; keeps identifiers whole and split (see algorithms.tokenize).
    """

    def __init__(
        self,
        k1: float = 1.2,
        b: float = 0.75,
        epsilon: float = 0.25,
        idf: str = "lucene",
        tokenizer: Callable[[str], list[str]] = bm25_tokens,
    ) -> None:
        if idf not in ("lucene", "okapi"):
            raise ValueError(f"idf must be 'lucene' or 'okapi', got {idf!r}")
        self.k1, self.b, self.epsilon, self.idf_variant = k1, b, epsilon, idf
        self._tokenize = tokenizer
        self._vocab: dict[str, int] = {}
        self._docs: dict[str, tuple[NDArray[np.int64], NDArray[np.float64]]] = {}
        self._lock = threading.RLock()
        self._dirty = True
        self._ids: list[str] = []
        self._csc: sp.csc_array | None = None
        self._idf: NDArray[np.float64] = np.zeros(0)
        self._norm: NDArray[np.float64] = np.zeros(0)  # k1 * (1 - b + b * dl / avgdl)

    def __len__(self) -> int:
        return len(self._docs)

    def upsert(self, items: Iterable[tuple[str, str]]) -> None:
        """Add or replace documents given as ``(id, text)``."""
        prepared = []
        for doc_id, text in items:
            counts = Counter(self._tokenize(text))
            prepared.append((doc_id, counts))
        with self._lock:
            for doc_id, counts in prepared:
                terms = np.fromiter(
                    (self._vocab.setdefault(t, len(self._vocab)) for t in counts),
                    dtype=np.int64,
                    count=len(counts),
                )
                tfs = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
                self._docs[doc_id] = (terms, tfs)
            self._dirty = True

    def delete(self, ids: Iterable[str]) -> None:
        with self._lock:
            for doc_id in ids:
                self._docs.pop(doc_id, None)
            self._dirty = True

    def _rebuild(self) -> None:
        ids = list(self._docs)
        n_docs, n_terms = len(ids), len(self._vocab)
        lengths = np.fromiter((self._docs[i][1].sum() for i in ids), dtype=np.float64, count=n_docs)
        if n_docs:
            rows = np.repeat(np.arange(n_docs), [len(self._docs[i][0]) for i in ids])
            cols = np.concatenate([self._docs[i][0] for i in ids])
            vals = np.concatenate([self._docs[i][1] for i in ids])
        else:
            rows = cols = np.zeros(0, dtype=np.int64)
            vals = np.zeros(0)
        csc = sp.csc_array((vals, (rows, cols)), shape=(n_docs, n_terms))
        df = np.diff(csc.indptr).astype(np.float64)
        if self.idf_variant == "lucene":
            idf = np.log1p((n_docs - df + 0.5) / (df + 0.5))
        else:
            idf = np.log(n_docs - df + 0.5) - np.log(df + 0.5) if n_docs else np.zeros(n_terms)
        # rank_bm25 averages idf over the terms present in the corpus and floors negatives.
        present = df > 0
        if self.idf_variant == "okapi" and present.any():
            floor = self.epsilon * float(idf[present].mean())
            idf = np.where(idf < 0, floor, idf)
        avgdl = float(lengths.mean()) if n_docs else 1.0
        self._norm = self.k1 * (1.0 - self.b + self.b * lengths / (avgdl or 1.0))
        self._ids, self._csc, self._idf, self._dirty = ids, csc, idf, False

    def scores(self, query: str) -> tuple[list[str], NDArray[np.float64]]:
        """BM25 score of every document (ids in matrix order); repeated query terms count
        again, as in rank_bm25."""
        with self._lock:
            if self._dirty:
                self._rebuild()
            ids, csc, idf, norm = self._ids, self._csc, self._idf, self._norm
        assert csc is not None
        out = np.zeros(len(ids))
        for term, times in Counter(self._tokenize(query)).items():
            col = self._vocab.get(term)
            if col is None or col >= csc.shape[1]:
                continue
            lo, hi = csc.indptr[col], csc.indptr[col + 1]
            rows, tf = csc.indices[lo:hi], csc.data[lo:hi]
            out[rows] += times * idf[col] * tf * (self.k1 + 1.0) / (tf + norm[rows])
        return ids, out

    def search(
        self, query: str, k: int, allowed: Callable[[str], bool] | None = None
    ) -> list[KeywordHit]:
        """Top ``k`` documents with a positive score; ``allowed`` filters before the cut."""
        if k <= 0:
            return []
        ids, scores = self.scores(query)
        hits = np.flatnonzero(scores > 0)
        if allowed is not None:
            hits = hits[np.fromiter((allowed(ids[i]) for i in hits), dtype=bool, count=len(hits))]
        if len(hits) > k:
            part = np.argpartition(-scores[hits], k - 1)[:k]
            hits = hits[part]
        order = sorted(hits.tolist(), key=lambda i: (-scores[i], ids[i]))
        return [KeywordHit(ids[i], float(scores[i])) for i in order]


def rank_bm25_reference(corpus: Sequence[str], query: str, k1: float = 1.2, b: float = 0.75) -> list[float]:
    """Scores from ``rank_bm25.BM25Okapi`` with our tokenizer: the reference for tests."""
    from rank_bm25 import BM25Okapi

    model = BM25Okapi([bm25_tokens(t) for t in corpus], k1=k1, b=b)
    return [float(s) for s in model.get_scores(bm25_tokens(query))]


__all__ = ["BM25Index", "KeywordHit", "KeywordStore", "rank_bm25_reference"]
