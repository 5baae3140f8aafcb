"""Property: whatever a caller passes to ``Retriever.search``, the outcome is results or a
QueryError / ConfigError, never another exception, never a hang, never a leak."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from reliability_support import LABELS, VOCAB, count, examples

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.filters import Filters
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

# Any code point, surrogates included; whole planes; controls; words the index knows.
any_char = st.characters(codec=None, exclude_categories=())
plane_char = st.integers(0, 0x10FFFF).map(chr)
words = st.sampled_from(VOCAB + ["and", "then", "which", "Deploy", "Postgres", "last 24h", "since 2026-11-01", "recent", "kit3", "kit4"])
queries = st.one_of(
    st.text(any_char, max_size=60),
    st.text(plane_char, max_size=40),
    st.lists(words, min_size=1, max_size=14).map(" ".join),
    st.tuples(st.lists(words, max_size=6).map(" ".join), st.text(any_char, max_size=10), st.lists(words, max_size=6).map(" ".join)).map("".join),
    st.sampled_from(["", " ", "\x00", "\ud800", "x" * 4001, "deploy " * 700, "x" * 1_000_000]),
    st.binary(max_size=30),
    st.none(),
    st.integers(),
)
maybe = st.one_of
ints = st.one_of(st.none(), st.integers(-3, 60), st.just(10**9), st.booleans(), st.floats(allow_nan=True), st.text(max_size=3))
principals = st.one_of(
    st.none(),
    st.lists(st.sampled_from([*LABELS, "*", "nobody", ""]), max_size=3),
    st.sampled_from(LABELS),
    st.lists(st.integers(), min_size=1, max_size=2),
    st.integers(),
)
kinds = st.one_of(st.none(), st.lists(st.sampled_from(["skill", "agent", "document", "incident", "passage", "spaceship"]), max_size=3))
routes = st.one_of(st.none(), st.sampled_from(["smart", "ppr", "quick", "fastest", ""]), st.integers(0, 3))
setting_values = st.fixed_dictionaries(
    {},
    optional={
        "rrf_k": ints,
        "channel_depth": ints,
        "seed_nodes": ints,
        "expand_max_nodes": ints,
        "coverage_threshold": st.floats(allow_nan=True, allow_infinity=True),
        "seed_node_min_similarity": st.floats(-2, 2),
        "expand_thresholds": st.one_of(st.tuples(), st.tuples(st.floats(allow_nan=True)), st.lists(st.floats(0, 1), max_size=3)),
        "channels": st.one_of(
            st.dictionaries(st.sampled_from(["graph", "semantic", "keyword", "temporal", "nope"]), st.one_of(st.booleans(), st.floats(-1, 3), st.text(max_size=2)), max_size=3),
            st.lists(st.text(max_size=3), max_size=2),
        ),
        "recent_days": st.floats(allow_nan=True, allow_infinity=True),
        "rerank": st.one_of(st.booleans(), st.integers(0, 1)),
        "rerank_top_n": ints,
        "snippet_chars": ints,
        "drop_flagged": st.one_of(st.booleans(), st.none()),
        "phase_timeout_s": st.one_of(st.none(), st.floats(-1, 30), st.just(0)),
        "max_query_chars": ints,
        "keep_nodes": ints,
        "flow_max_hops": ints,
    },
)


def _visible(index: Index, principals_arg: Any) -> set[str] | None:
    """Ids the caller may see, or None when the principals were not usable."""
    if principals_arg is None:
        p: frozenset[str] | None = None
    elif isinstance(principals_arg, str):
        p = frozenset({principals_arg})
    elif isinstance(principals_arg, list) and all(isinstance(x, str) for x in principals_arg):
        p = frozenset(principals_arg)
    else:
        return None
    f = Filters(principals=p)
    return {i for i, n in index.nodes.items() if f.can_see(n)}


@settings(max_examples=examples(ci=70, full=3500))
@given(
    query=queries,
    k=ints,
    budget=st.one_of(st.none(), st.integers(-5, 400), st.text(max_size=2)),
    route=routes,
    principals_arg=principals,
    kinds_arg=kinds,
    overrides=setting_values,
)
def test_search_answers_or_says_what_is_wrong(
    labelled_index: Index,
    query: Any,
    k: Any,
    budget: Any,
    route: Any,
    principals_arg: Any,
    kinds_arg: Any,
    overrides: dict[str, Any],
) -> None:
    count("query_path")
    retriever = Retriever(
        labelled_index,
        RetrievalConfig(rerank_top_n=10),
        reranker=EmbeddingReranker(labelled_index.embedder),
        cache_size=0,
    )
    try:
        resp = retriever.search(
            query, k=k, budget=budget, route=route, principals=principals_arg, kinds=kinds_arg, **overrides
        )
    except (QueryError, ConfigError) as exc:
        assert str(exc)  # a message that says what is wrong
        return
    visible = _visible(labelled_index, principals_arg)
    assert visible is not None, "unusable principals were accepted"
    ids = resp.ids
    assert len(ids) == len(set(ids))
    assert set(ids) <= visible, "a result the caller may not see"
    for r in resp.results:
        assert r.token_count >= 0 and isinstance(r.flags, tuple)
    assert not any("failed and was skipped" in w and "Timeout" not in w for w in resp.warnings), resp.warnings


# -- the graph's own input, as a LangGraph server receives it (any JSON) ----------------
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=True), st.text(any_char, max_size=20))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=8)
graph_inputs = st.fixed_dictionaries(
    {"query": st.one_of(queries.filter(lambda q: not isinstance(q, bytes)), json_values)},
    optional={
        "k": st.one_of(ints, json_values),
        "token_budget": st.one_of(st.none(), st.integers(-5, 500), json_values),
        "route": st.one_of(routes, json_values),
        "filters": st.one_of(
            st.fixed_dictionaries({}, optional={"principals": principals, "kinds": kinds, "tags": json_values,
                                                "since": json_values, "until": st.sampled_from(["2026-11-01", "x"])}),
            json_values,
        ),
        "profile": st.one_of(setting_values, json_values),
        "query_vector": st.one_of(json_values, st.lists(st.floats(allow_nan=True), min_size=32, max_size=32)),
        "unexpected": json_values,
    },
)


@settings(max_examples=examples(ci=40, full=1500))
@given(payload=graph_inputs)
def test_graph_input_answers_or_says_what_is_wrong(labelled_index: Index, payload: dict[str, Any]) -> None:
    from skill_retriever.context import RetrievalContext
    from skill_retriever.graph import graph

    count("graph_input")
    try:
        out = graph.invoke(payload, context=RetrievalContext(index=labelled_index, config=RetrievalConfig(rerank=False)))
    except (QueryError, ConfigError) as exc:
        assert str(exc)
        return
    assert isinstance(out["results"], list)
    assert not any("failed and was skipped" in w for w in out["warnings"]), out["warnings"]
