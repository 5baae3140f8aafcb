"""The methods compared, each a callable ``query -> ranked ids`` over one index.

Peers (same index, same embedding model, same kinds filter):

* ``BM25`` -- our BM25 index alone (lower-cased words, identifiers kept whole and split).
* ``dense`` -- exact cosine over the index's node vectors (no HNSW approximation).
* ``LC Ensemble`` -- LangChain's ``EnsembleRetriever`` (weights 0.5 / 0.5, c = 60) over
  langchain_community's ``BM25Retriever`` (whitespace split, case kept: its default) and a
  dense retriever that is a tiny ``BaseRetriever`` over the same vectors: what most users
  wire up first.

Ours, through ``Retriever.search``: the three routes forced (``quick``, ``ppr``,
``smart``; no rerank, so the difference is the route), the full pipeline with the
router's choice with and without rerank, and ablations: the full pipeline without rerank
with one channel switched off (``channels={"graph": False}``, ...). For the incident
benchmark, ``only:<channel>`` runs the pipeline with that channel's weight alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from skill_retriever.bench.datasets import EvalQuery
from skill_retriever.filters import Filters
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

if TYPE_CHECKING:
    from langchain_core.retrievers import BaseRetriever

CHANNELS = ("semantic", "keyword", "graph", "temporal")
DEPTH = 50  # how deep each peer channel's list goes, as our channel_depth


@dataclass
class Ranked:
    """One method's answer to one query."""

    ids: list[str]
    ms: float
    route: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Method:
    name: str
    family: str  # peer | route | pipeline | ablation | channel
    run: Callable[[EvalQuery], Ranked]
    description: str = ""


def _timed(fn: Callable[[EvalQuery], list[str]]) -> Callable[[EvalQuery], Ranked]:
    def run(q: EvalQuery) -> Ranked:
        start = time.perf_counter()
        ids = fn(q)
        return Ranked(ids, (time.perf_counter() - start) * 1000.0)

    return run


class DenseSearcher:
    """Exact cosine search over the index's node vectors, restricted to some kinds."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.snapshot = index.snapshot()
        self._ids = self.snapshot.graph.ids
        self._emb = self.snapshot.embeddings
        self._by_kinds: dict[tuple[str, ...] | None, tuple[np.ndarray, np.ndarray]] = {}

    def _rows(self, kinds: tuple[str, ...] | None) -> tuple[np.ndarray, np.ndarray]:
        if kinds not in self._by_kinds:
            nodes = self.snapshot.nodes
            if kinds is None:
                rows = np.arange(len(self._ids))
            else:
                wanted = set(kinds)
                rows = np.asarray([r for r, i in enumerate(self._ids) if nodes[i].kind.value in wanted], dtype=np.int64)
            self._by_kinds[kinds] = (rows, np.ascontiguousarray(self._emb[rows]))
        return self._by_kinds[kinds]

    def search_vector(self, qvec: np.ndarray, k: int, kinds: tuple[str, ...] | None) -> list[tuple[str, float]]:
        rows, emb = self._rows(kinds)
        if len(rows) == 0:
            return []
        sims = emb @ np.asarray(qvec, dtype=np.float32)
        k = min(k, len(rows))
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.lexsort((top, -sims[top]))]
        return [(self._ids[rows[j]], float(sims[j])) for j in top]

    def search(self, query: str, k: int, kinds: tuple[str, ...] | None) -> list[tuple[str, float]]:
        return self.search_vector(self.snapshot.embed_query(query), k, kinds)


def _kinds(q: EvalQuery, default: tuple[str, ...] | None) -> tuple[str, ...] | None:
    return q.kinds if q.kinds is not None else default


def peer_methods(index: Index, kinds: tuple[str, ...] | None, k: int = 10) -> list[Method]:
    """BM25, dense, and LangChain's EnsembleRetriever over the two."""
    dense = DenseSearcher(index)

    def bm25(q: EvalQuery) -> list[str]:
        ks = _kinds(q, kinds)
        f = Filters(kinds=frozenset(ks) if ks is not None else None, principals=frozenset({"*"}))
        return [h.id for h in dense.snapshot.search_keywords(q.text, k, f)]

    def dense_run(q: EvalQuery) -> list[str]:
        return [i for i, _ in dense.search(q.text, k, _kinds(q, kinds))]

    ensembles: dict[tuple[str, ...] | None, BaseRetriever] = {}

    def ensemble(q: EvalQuery) -> list[str]:
        ks = _kinds(q, kinds)
        if ks not in ensembles:
            ensembles[ks] = build_langchain_ensemble(index, dense, ks, DEPTH)
        docs = ensembles[ks].invoke(q.text)
        return [d.metadata["id"] for d in docs[:k]]

    return [
        Method("BM25", "peer", _timed(bm25), "our BM25 index alone"),
        # The index's own model: with --embedder it is not the bundled MiniLM.
        Method("dense", "peer", _timed(dense_run), f"exact cosine, {index.embedder.name}"),
        Method("LC Ensemble", "peer", _timed(ensemble),
               "LangChain EnsembleRetriever(BM25Retriever, dense), weights 0.5/0.5, c=60"),
    ]


def build_langchain_ensemble(
    index: Index, dense: DenseSearcher, kinds: tuple[str, ...] | None, depth: int
) -> BaseRetriever:
    """LangChain's EnsembleRetriever over its BM25Retriever and a dense retriever on our vectors."""
    try:
        from langchain_classic.retrievers import EnsembleRetriever
    except ImportError:  # pragma: no cover - older LangChain layouts
        try:
            from langchain.retrievers import EnsembleRetriever  # type: ignore[no-redef]
        except ImportError as exc:
            raise ImportError(
                "the LangChain peer needs EnsembleRetriever: pip install langchain-classic"
            ) from exc
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from langchain_community.retrievers import BM25Retriever
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    nodes = [n for n in dense.snapshot.nodes.values() if kinds is None or n.kind.value in kinds]
    bm25 = BM25Retriever.from_texts(
        [n.embedding_text() for n in nodes], metadatas=[{"id": n.id} for n in nodes], k=depth
    )

    class OurVectorsRetriever(BaseRetriever):
        """Dense retrieval over the skill-retriever index's vectors (same model)."""

        # Any: pydantic validates field types, and it cannot check these two
        searcher: Any
        kinds: Any
        k: int

        def _get_relevant_documents(
            self, query: str, *, run_manager: CallbackManagerForRetrieverRun
        ) -> list[Document]:
            hits = self.searcher.search(query, self.k, self.kinds)
            return [Document(page_content=dense.snapshot.nodes[i].embedding_text(), metadata={"id": i, "score": s})
                    for i, s in hits]

    vec = OurVectorsRetriever(searcher=dense, kinds=kinds, k=depth)
    return EnsembleRetriever(retrievers=[bm25, vec], weights=[0.5, 0.5], id_key="id")


def _search(retriever: Retriever, q: EvalQuery, kinds: tuple[str, ...] | None, k: int, **kw: Any) -> Ranked:
    start = time.perf_counter()
    resp = retriever.search(q.text, k=k, kinds=_kinds(q, kinds), principals=["*"], **kw)
    ms = (time.perf_counter() - start) * 1000.0
    return Ranked(resp.ids, ms, route=resp.route, extra={"failed_phases": len(resp.failed_phases)})


def _pipeline(retriever: Retriever, kinds: tuple[str, ...] | None, k: int, **kw: Any) -> Callable[[EvalQuery], Ranked]:
    def run(q: EvalQuery) -> Ranked:
        return _search(retriever, q, kinds, k, **kw)

    return run


def our_methods(
    retriever: Retriever,
    kinds: tuple[str, ...] | None,
    k: int = 10,
    *,
    routes: Sequence[str] = ("quick", "ppr", "smart"),
    rerank: bool = True,
    ablate: Sequence[str] = CHANNELS,
    profiles: Sequence[str] = (),
) -> list[Method]:
    """Our routes, the full pipeline with and without rerank, the full pipeline under named
    config profiles (``config_profiles.PROFILES``), and channel ablations."""
    out = [Method(f"route {r}", "route", _pipeline(retriever, kinds, k, route=r, rerank=False),
                  f"route {r} forced, no rerank") for r in routes]
    out.append(Method("full", "pipeline", _pipeline(retriever, kinds, k, rerank=False),
                      "router picks the route, all channels, no rerank"))
    if rerank:
        out.append(Method("full+rerank", "pipeline", _pipeline(retriever, kinds, k, rerank=True),
                          "router picks the route, all channels, rerank"))
    for name in profiles:
        from skill_retriever.config_profiles import PROFILES

        out.append(Method(f"full [{name}]", "pipeline", _pipeline(retriever, kinds, k, rerank=False, **PROFILES[name]),
                          f"full (no rerank) with the {name!r} config profile"))
    out += [Method(f"full -{ch}", "ablation", _pipeline(retriever, kinds, k, rerank=False, channels={ch: False}),
                   f"full (no rerank) with the {ch} channel off") for ch in ablate]
    return out


#: Rows that measure the parts of a passage corpus's defaults (``calibration.defaults``)
#: one at a time: (name, the call's overrides, what it is).
PASSAGE_ABLATIONS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("full -facts", {"fact_seeds": 0}, "full, no fact seeds the walk (fact_seeds=0)"),
    ("full -synonyms", {"synonyms": False}, "full, the walk leaves out the SAME_AS edges"),
    ("full +specificity", {"specificity": 1.0}, "full, entity restart weights times 1/|passages| (HippoRAG)"),
    ("full, built-in defaults", {"use_calibration": False},
     "full without what the index suggests (the router picks the route; design defaults)"),
)


#: The same for a component or tool catalogue's defaults (score fusion).
CATALOGUE_ABLATIONS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("full, rrf", {"fusion": "rrf"}, "full with RRF instead of the catalogue's score fusion"),
    ("route smart, rrf", {"fusion": "rrf", "route": "smart"}, "route smart forced, RRF"),
    ("full, no feedback", {"feedback_docs": 0},
     ("full without the semantic channel's second search from the query moved toward the best items of a "
      "first keyword + semantic fusion (feedback_docs=0; on by default where most items are long)")),
    ("full, feedback forced", {"feedback_docs": 2},
     ("full with that second search on whatever the items' length (feedback_docs=2): what the default "
      "does where most items are long, tried where they are short")),
    ("full, multifactor ranking forced", {"multifactor_ranking": True},
     ("full with the smart route's ranking fused as the graph channel whatever the items' length "
      "(multifactor_ranking=True): left out by default where most items are long, fused where they are short")),
    ("full, one ask", {"clause_coverage": 0.0},
     "full without covering a request's asks one by one (clause_coverage=0: the fused list as it is)"),
    ("full, route by complexity", {"default_route": "by-complexity"},
     "full with the router's complexity table (simple: quick, medium: smart, complex: ppr) for every index"),
    # What the smart route's lead over the complexity table is made of (calibration.defaults).
    ("route smart, no gap filling", {"route": "smart", "completeness_max_iterations": 0},
     "route smart forced, no gap filling (completeness_max_iterations=0)"),
    ("route smart, gap filling by vector", {"route": "smart", "gap_fill_by_vector": True},
     "route smart forced, missing components no item's words match also looked up by vector"),
)

#: Which family's index gets which defaults (``calibration.defaults``).
DEFAULTS_ABLATIONS: dict[str, tuple[tuple[str, dict[str, Any], str], ...]] = {
    "multihop": PASSAGE_ABLATIONS, "skills": CATALOGUE_ABLATIONS, "toolret": CATALOGUE_ABLATIONS,
}


def defaults_methods(
    family: str, retriever: Retriever, kinds: tuple[str, ...] | None, k: int = 10
) -> list[Method]:
    """The rows that take the index's suggested defaults apart, one at a time (no rerank)."""
    return [Method(name, "ablation", _pipeline(retriever, kinds, k, rerank=False, **kw), what)
            for name, kw, what in DEFAULTS_ABLATIONS.get(family, ())]


def channel_methods(retriever: Retriever, kinds: tuple[str, ...] | None, k: int = 10) -> list[Method]:
    """Each channel alone (its weight alone on: the "named" list of ids the query writes out
    is off too, or "only graph" found identifiers), then the fusion, then fusion + rerank."""
    out = [Method(f"only {ch}", "channel",
                  _pipeline(retriever, kinds, k, rerank=False,
                            channel_weights={**{c: float(c == ch) for c in CHANNELS}, "named": 0.0}),
                  f"pipeline with only the {ch} channel weighted") for ch in CHANNELS]
    out.append(Method("fusion", "pipeline", _pipeline(retriever, kinds, k, rerank=False),
                      "the default search (the fusion the index suggests), no rerank"))
    out.append(Method("fusion+rerank", "pipeline", _pipeline(retriever, kinds, k, rerank=True),
                      "the default search, then the benchmark's reranker"))
    return out


def has_timestamps(index: Index) -> bool:
    """Whether any item of the index carries a time (the temporal channel has something)."""
    return any(n.last_changed is not None for n in index.snapshot().nodes.values())


__all__ = [
    "CATALOGUE_ABLATIONS",
    "CHANNELS",
    "DEFAULTS_ABLATIONS",
    "PASSAGE_ABLATIONS",
    "DenseSearcher",
    "Method",
    "Ranked",
    "build_langchain_ensemble",
    "channel_methods",
    "defaults_methods",
    "has_timestamps",
    "our_methods",
    "peer_methods",
]
