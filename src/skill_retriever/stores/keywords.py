"""BM25 keyword search on a sparse term matrix.

Okapi BM25 (Robertson & Zaragoza 2009). Two idf variants: ``"lucene"`` (default,
``log(1 + (N - df + 0.5) / (df + 0.5))``, never negative, so a term found in most documents
of a small corpus still counts) and ``"okapi"``, exactly as ``rank_bm25.BM25Okapi``
computes it (``log((N - df + 0.5) / (df + 0.5))`` with negatives floored to
``epsilon * mean idf``), which the tests hold us against score for score. The difference is speed: postings live in a
scipy CSC matrix, so a query touches only the documents that contain its terms instead of
looping over every document in Python.

Tried and left out (December 2026, skills dev, a scratch patch of what the channel
analyses): a fielded BM25 (BM25F, Robertson, Zaragoza & Taylor, CIKM 2004), the name and
description's term counts weighted 2 or 3 against the body's 1 under one length
normalisation. The keyword channel alone rose, the default fell a little: the semantic
channel, which reads an item's name and description first, already carries what the
weighting adds.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from skill_retriever.algorithms.tokenize import bm25_term_counts, bm25_terms

# SciPy loads on first use, where a matrix is built: commands that never build one
# (`install`, `uninstall`) start without it (tests/test_cold_start.py).
if TYPE_CHECKING:
    import scipy.sparse as sp


def term_counts(text: str, tokenizer: Callable[[str], list[str]] = bm25_terms) -> Counter[str]:
    """``Counter(tokenizer(text))``; for the default tokenizer by
    :func:`~skill_retriever.algorithms.tokenize.bm25_term_counts` (the same counts, faster)."""
    return bm25_term_counts(text) if tokenizer is bm25_terms else Counter(tokenizer(text))


#: A document's distinct terms (first-seen order) and their counts, aligned.
Terms = tuple[list[str], NDArray[np.float64]]


def analyse(text: str, tokenizer: Callable[[str], list[str]] = bm25_terms) -> Terms:
    """The distinct terms of ``text`` in first-seen order, with their counts."""
    counts = term_counts(text, tokenizer)
    return list(counts), np.fromiter(counts.values(), dtype=np.float64, count=len(counts))


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
    """The writer's side of BM25: documents tokenized once, upserted and deleted in place.

    Readers never search this object while it changes; they search a :meth:`frozen`
    copy (a :class:`KeywordSnapshot`), which an index snapshot takes once per write.

    Args:
        k1, b: BM25 parameters (1.2 / 0.75, the data README's baseline).
        epsilon: idf floor factor of the "okapi" variant, as rank_bm25.
        idf: "lucene" or "okapi" (see the module docstring).
        tokenizer: text -> terms; by default English stop words out, words stemmed,
            identifiers kept whole and split (`algorithms.tokenize.bm25_terms`).
    """

    def __init__(
        self,
        k1: float = 1.2,
        b: float = 0.75,
        epsilon: float = 0.25,
        idf: str = "lucene",
        tokenizer: Callable[[str], list[str]] = bm25_terms,
    ) -> None:
        if idf not in ("lucene", "okapi"):
            raise ValueError(f"idf must be 'lucene' or 'okapi', got {idf!r}")
        self.k1, self.b, self.epsilon, self.idf_variant = k1, b, epsilon, idf
        self._tokenize = tokenizer
        # term -> column; only ever appended to, so a snapshot may share it: a term added
        # later has a column past the snapshot's matrix and is ignored there.
        self._vocab: dict[str, int] = {}
        self._docs: dict[str, Doc] = {}
        self._lock = threading.RLock()
        self._frozen: KeywordSnapshot | None = None

    def __len__(self) -> int:
        return len(self._docs)

    @property
    def tokenizer(self) -> Callable[[str], list[str]]:
        return self._tokenize

    def analyse(self, text: str) -> Terms:
        """:func:`analyse` with this index's tokenizer."""
        return analyse(text, self._tokenize)

    def upsert(self, items: Iterable[tuple[str, str]]) -> None:
        """Add or replace documents given as ``(id, text)``."""
        self.upsert_terms([(doc_id, self.analyse(text)) for doc_id, text in items])

    def upsert_terms(self, items: Iterable[tuple[str, Terms]]) -> None:
        """Add or replace documents given as ``(id, terms)``, the terms as :meth:`analyse`
        gives them with this index's tokenizer (an index keeps them, ``stores.stored_terms``)."""
        prepared = list(items)
        with self._lock:
            for doc_id, (terms, tfs) in prepared:
                cols = np.fromiter(
                    (self._vocab.setdefault(t, len(self._vocab)) for t in terms),
                    dtype=np.int64,
                    count=len(terms),
                )
                self._docs[doc_id] = (cols, tfs)
            self._frozen = None

    def upsert_ids(
        self, items: Sequence[tuple[str, tuple[NDArray[np.uint32], NDArray[np.float64]]]], vocab: Sequence[str]
    ) -> None:
        """:meth:`upsert_terms` for documents whose terms are ids into ``vocab`` (an index
        stores them, ``stores.term_ids``): into an empty index by NumPy alone, each term
        given the column :meth:`upsert_terms` gives it (the order terms are first seen in)."""
        with self._lock:
            if self._vocab:  # columns continue from the terms here: through the words
                self.upsert_terms((i, (list(map(vocab.__getitem__, ids.tolist())), tfs)) for i, (ids, tfs) in items)
                return
            lengths = np.fromiter((len(ids) for _, (ids, _) in items), dtype=np.int64, count=len(items))
            every = np.concatenate([ids for _, (ids, _) in items]) if items else np.zeros(0, dtype=np.uint32)
            # Where each id first appears: assigned from the end, the first position is
            # written last (NumPy keeps the last value of a repeated index).
            first = np.full(len(vocab), len(every), dtype=np.int64)
            first[every[::-1]] = np.arange(len(every) - 1, -1, -1)
            present = np.flatnonzero(first < len(every))
            seen = present[np.argsort(first[present])]  # the ids in the order they first appear
            column = np.zeros(len(vocab), dtype=np.int64)
            column[seen] = np.arange(len(seen))
            cols = column[every]
            self._vocab.update(zip(map(vocab.__getitem__, seen.tolist()), range(len(seen)), strict=True))
            ends = np.cumsum(lengths)
            # Views of one array: it lives while any of them does (at most one per open).
            for (doc_id, (_, tfs)), lo, hi in zip(items, (ends - lengths).tolist(), ends.tolist(), strict=True):
                self._docs[doc_id] = (cols[lo:hi], tfs)
            self._frozen = None

    def delete(self, ids: Iterable[str]) -> None:
        with self._lock:
            for doc_id in ids:
                self._docs.pop(doc_id, None)
            self._frozen = None

    def frozen(self) -> KeywordSnapshot:
        """An immutable view of the documents as they are now (cached until a change)."""
        with self._lock:
            if self._frozen is None:
                self._frozen = KeywordSnapshot(
                    dict(self._docs), self._vocab, len(self._vocab), self._tokenize,
                    self.k1, self.b, self.epsilon, self.idf_variant,
                )
            return self._frozen

    def scores(self, query: str) -> tuple[list[str], NDArray[np.float64]]:
        return self.frozen().scores(query)

    def search(self, query: str, k: int, allowed: Callable[[str], bool] | None = None) -> list[KeywordHit]:
        return self.frozen().search(query, k, allowed)


Doc = tuple[NDArray[np.int64], NDArray[np.float64]]


class _Matrix(NamedTuple):
    """A snapshot's term matrix and the BM25 weights read with it."""

    ids: list[str]  # row -> document id
    csc: sp.csc_array  # rows x terms, term frequencies
    idf: NDArray[np.float64]  # by term
    norm: NDArray[np.float64]  # by row: k1 * (1 - b + b * length / avgdl)
    df: NDArray[np.float64]  # by term: how many of the documents counted hold it
    lengths: NDArray[np.float64]  # by row
    hidden: NDArray[np.int64] | None  # rows a view does not count and scores 0


class KeywordSnapshot:
    """BM25 over a fixed set of documents; the term matrix is built on first search."""

    def __init__(
        self,
        docs: dict[str, Doc],
        vocab: Mapping[str, int],
        n_terms: int,
        tokenize: Callable[[str], list[str]],
        k1: float,
        b: float,
        epsilon: float,
        idf: str,
    ) -> None:
        self._docs, self._vocab, self._n_terms, self._tokenize = docs, vocab, n_terms, tokenize
        self.k1, self.b, self.epsilon, self.idf_variant = k1, b, epsilon, idf
        self._built: _Matrix | None = None
        self._base = self  # the snapshot of every document that a view of fewer (`seen_through`) reads
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._docs)

    def _matrix(self) -> _Matrix:
        built = self._built
        if built is not None:
            return built
        with self._lock:
            if self._built is None:
                self._built = self._build()
            return self._built

    def _build(self) -> _Matrix:
        ids = list(self._docs)
        n_docs, n_terms = len(ids), self._n_terms
        lengths = np.fromiter((self._docs[i][1].sum() for i in ids), dtype=np.float64, count=n_docs)
        if n_docs:
            rows = np.repeat(np.arange(n_docs), [len(self._docs[i][0]) for i in ids])
            cols = np.concatenate([self._docs[i][0] for i in ids])
            vals = np.concatenate([self._docs[i][1] for i in ids])
        else:
            rows = cols = np.zeros(0, dtype=np.int64)
            vals = np.zeros(0)
        import scipy.sparse as sp

        csc = sp.csc_array((vals, (rows, cols)), shape=(n_docs, n_terms))
        df = np.diff(csc.indptr).astype(np.float64)
        avgdl = float(lengths.mean()) if n_docs else 1.0
        return _Matrix(ids, csc, *self._weights(df, n_docs, avgdl, lengths), df, lengths, None)

    def _weights(
        self, df: NDArray[np.float64], n_docs: int, avgdl: float, lengths: NDArray[np.float64]
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """idf of each term and the length norm of each row, for ``n_docs`` documents of
        which ``df`` hold each term and ``avgdl`` is the mean length."""
        n_terms = len(df)
        if self.idf_variant == "lucene":
            idf = np.log1p((n_docs - df + 0.5) / (df + 0.5))
        else:
            idf = np.log(n_docs - df + 0.5) - np.log(df + 0.5) if n_docs else np.zeros(n_terms)
        # rank_bm25 averages idf over the terms present in the corpus and floors negatives.
        present = df > 0
        if self.idf_variant == "okapi" and present.any():
            floor = self.epsilon * float(idf[present].mean())
            idf = np.where(idf < 0, floor, idf)
        norm = self.k1 * (1.0 - self.b + self.b * lengths / (avgdl or 1.0))
        return idf, norm

    def seen_through(self, visible: Callable[[str], bool]) -> KeywordSnapshot:
        """These documents as a caller who may see only those ``visible`` admits reads them:
        document frequencies, document count and mean length over those alone, so each
        scores as in an index of only them, and the others score 0. The term matrix is
        shared; the cost is one pass over the ids and one over the hidden documents' terms.
        The snapshot of every document itself (no copy, nothing more per query) when
        ``visible`` admits each one."""
        base = self._base
        m = base._matrix()
        hidden = np.fromiter((r for r, doc_id in enumerate(m.ids) if not visible(doc_id)), dtype=np.int64)
        if not len(hidden):
            return base
        cols = np.concatenate([base._docs[m.ids[r]][0] for r in hidden.tolist()])
        df = m.df - np.bincount(cols, minlength=base._n_terms)
        shown = np.ones(len(m.ids), dtype=bool)
        shown[hidden] = False
        n_docs = len(m.ids) - len(hidden)
        avgdl = float(m.lengths[shown].mean()) if n_docs else 1.0
        view = KeywordSnapshot(base._docs, base._vocab, base._n_terms, base._tokenize,
                               base.k1, base.b, base.epsilon, base.idf_variant)
        view._base = base
        idf, norm = base._weights(df, n_docs, avgdl, m.lengths)
        view._built = m._replace(idf=idf, norm=norm, df=df, hidden=hidden)
        return view

    def scores(self, query: str) -> tuple[list[str], NDArray[np.float64]]:
        """BM25 score of every document (ids in matrix order); repeated query terms count
        again, as in rank_bm25."""
        ids, csc, idf, norm, _, _, hidden = self._matrix()
        out = np.zeros(len(ids))
        for term, times in Counter(self._tokenize(query)).items():
            col = self._vocab.get(term)
            if col is None or col >= self._n_terms:
                continue
            lo, hi = csc.indptr[col], csc.indptr[col + 1]
            rows, tf = csc.indices[lo:hi], csc.data[lo:hi]
            out[rows] += times * idf[col] * tf * (self.k1 + 1.0) / (tf + norm[rows])
        if hidden is not None:
            out[hidden] = 0.0
        return ids, out

    @property
    def tokenizer(self) -> Callable[[str], list[str]]:
        return self._tokenize

    def holds(self, doc_id: str, terms: Iterable[str]) -> frozenset[str] | None:
        """Which of ``terms`` (as the tokenizer makes them) document ``doc_id`` holds,
        looked up in its stored terms: the cost does not grow with the document's text.
        None when ``doc_id`` is no document here."""
        doc = self._docs.get(doc_id)
        if doc is None:
            return None
        cols = {t: c for t in terms if (c := self._vocab.get(t)) is not None and c < self._n_terms}
        if not cols:
            return frozenset()
        present = np.isin(np.fromiter(cols.values(), dtype=np.int64, count=len(cols)), doc[0])
        return frozenset(t for t, there in zip(cols, present, strict=True) if there)

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

    model = BM25Okapi([bm25_terms(t) for t in corpus], k1=k1, b=b)
    return [float(s) for s in model.get_scores(bm25_terms(query))]


__all__ = ["BM25Index", "KeywordHit", "KeywordSnapshot", "KeywordStore", "Terms", "analyse", "rank_bm25_reference", "term_counts"]
