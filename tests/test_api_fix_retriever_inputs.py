"""The Python API's arguments, found by a walkthrough of it: a reranker no search can run,
an unknown phase in ``phase_timeouts``, an unordered batch for ``search_many`` are refused
at once in one line; a warning lists at most a few of the names a filter asked for; the
signature and docstrings say what a caller needs (``DEFAULT_RERANKER``, each result field).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

import pytest
from tiny_graph import NOW

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError
from skill_retriever.graph import graph
from skill_retriever.model import Node
from skill_retriever.phase_names import PHASES
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.responses import SearchResult
from skill_retriever.retriever import DEFAULT_RERANKER, Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

CONFIG = RetrievalConfig(now=NOW)


class LengthReranker:
    """A reranker of the caller's own (duck-typed, no base class): longer texts first."""

    name = "by-length"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return [float(len(t)) for t in texts]


class Nameless:
    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return [0.0] * len(texts)


def one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    text = str(exc.value)
    assert "\n" not in text and len(text) < 400, text
    return text


# -- (b) the reranker ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reranker", "said"),
    [
        ("cross-encoder/ms-marco-MiniLM-L6-v2", "CrossEncoderReranker('cross-encoder/ms-marco-MiniLM-L6-v2')"),
        (42, "got int 42"),
        (True, "got bool True"),
        (EmbeddingReranker, "got the class EmbeddingReranker: pass an instance"),
        (Nameless(), "got Nameless"),
    ],
    ids=["model-name", "number", "bool", "class", "no-name"],
)
def test_a_reranker_no_search_could_run_is_refused_at_construction(
    shared_tiny_index: Index, reranker: object, said: str
) -> None:
    with pytest.raises(ConfigError) as exc:
        Retriever(shared_tiny_index, CONFIG, reranker=reranker)  # type: ignore[arg-type]
    text = one_line(exc)
    assert said in text and "None for no reranking" in text and "score(query, texts)" in text


def test_every_kind_of_reranker_the_docs_name_is_taken_and_runs(shared_tiny_index: Index) -> None:
    query = "postgres migrations"
    assert Retriever(shared_tiny_index, CONFIG, reranker=None).search(query).reranker == "none"
    mine = Retriever(shared_tiny_index, CONFIG, reranker=LengthReranker(), cache_size=0).search(query)
    assert mine.reranker == "by-length" and not mine.failed_phases
    scores = [r.rerank_score for r in mine.results]
    assert scores == sorted(scores, reverse=True)  # replace mode: the reranker's order
    embedding = Retriever(shared_tiny_index, CONFIG, reranker=EmbeddingReranker(shared_tiny_index.embedder))
    assert embedding.search(query).reranker.startswith("embedding:")
    # left out or named: the same default, resolved at first use
    assert Retriever(shared_tiny_index, CONFIG)._reranker is DEFAULT_RERANKER
    assert Retriever(shared_tiny_index, CONFIG, reranker=DEFAULT_RERANKER)._reranker is DEFAULT_RERANKER


def test_the_signature_shows_the_default_reranker_by_name() -> None:
    shown = str(inspect.signature(Retriever))
    assert "reranker: 'Reranker | Default | None' = DEFAULT_RERANKER" in shown and "object at 0x" not in shown


# -- (c) phase_timeouts -------------------------------------------------------------------
def test_the_phase_names_are_the_graphs() -> None:
    assert set(PHASES) == set(graph.get_graph().nodes) - {"__start__", "__end__"}


def test_an_unknown_phase_in_phase_timeouts_is_refused_with_the_phases_listed(shared_tiny_index: Index) -> None:
    with pytest.raises(ConfigError) as exc:
        RetrievalConfig(phase_timeouts={"nosuch": 1})
    text = one_line(exc)
    assert "unknown phase(s) 'nosuch'" in text and ", ".join(PHASES) in text
    with pytest.raises(ConfigError, match=r"'run_pr' \(did you mean 'run_ppr'\?\)"):
        Retriever(shared_tiny_index, CONFIG, reranker=None).search("deploy", phase_timeouts={"run_pr": 1})
    with pytest.raises(ConfigError) as many:
        RetrievalConfig(phase_timeouts={f"phase-{i}": 1 for i in range(1000)})
    assert "and 997 more" in one_line(many)
    ok = RetrievalConfig(phase_timeouts={"rerank_cross_encoder": 0.5, "run_ppr": 2})
    assert ok.timeout_for("run_ppr") == 2.0 and ok.timeout_for("plan_query") is None


# -- (d) what a warning lists ---------------------------------------------------------------
def test_a_filter_of_many_tags_gets_a_warning_of_one_line(shared_tiny_index: Index) -> None:
    tags = [f"tag-{i:06d}" for i in range(100_000)]
    response = Retriever(shared_tiny_index, CONFIG, reranker=None).search("deploy", filters={"tags": tags})
    assert response.results == []
    [note] = response.warnings
    assert len(note) < 300, len(note)
    assert "tags tag-000000, tag-000001," in note and "tag-000009 and 99,990 more" in note
    assert "tag-000010" not in note


def test_a_few_tags_are_all_listed_and_a_long_one_is_cut(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, CONFIG, reranker=None)
    [note] = retriever.search("deploy", filters={"tags": ["nope", "none"]}).warnings
    assert "(tags none, nope)" in note and "more" not in note
    [cut] = retriever.search("deploy", filters={"tags": ["x" * 10_000]}).warnings
    assert len(cut) < 300 and "x" * 60 + "..." in cut


def test_many_principals_that_see_nothing_are_listed_in_part(tmp_path) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    try:
        index.add([Node(id="doc:private", kind="document", name="private", text="deploy notes", access=("ops",))])
        principals = [f"team-{i:04d}" for i in range(5_000)]
        [note] = Retriever(index, CONFIG, reranker=None).search("deploy", principals=principals).warnings
        assert "the principals team-0000," in note and "team-0009 and 4,990 more" in note and len(note) < 300
    finally:
        index.close()


# -- (e) search_many ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "queries",
    [{"deploy", "postgres"}, frozenset({"deploy"}), {"deploy": 1}, {"deploy": 1}.keys()],
    ids=["set", "frozenset", "dict", "keys"],
)
def test_search_many_refuses_queries_without_an_order(shared_tiny_index: Index, queries: object) -> None:
    with pytest.raises(ConfigError) as exc:
        Retriever(shared_tiny_index, CONFIG, reranker=None).search_many(queries)  # type: ignore[arg-type]
    text = one_line(exc)
    assert "in order (a list or tuple)" in text and "matched to its queries by position" in text


def test_search_many_answers_ordered_queries_in_their_order(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, CONFIG, reranker=None, cache_size=0)
    queries = ["postgres migrations", "pytest fixtures", "ruff pre-commit hook"]
    alone = [retriever.search(q, k=1).ids for q in queries]
    assert alone == [["skill:postgres-migrations"], ["skill:pytest-fixtures"], ["hook:ruff-pre-commit"]]
    for given in (queries, tuple(queries), (q for q in queries)):
        assert [r.ids for r in retriever.search_many(given, k=1)] == alone
    with pytest.raises(ConfigError, match="search_many takes a list of queries, got int"):
        retriever.search_many(5)  # type: ignore[arg-type]


# -- (f) what the docs say, held against what a search returns --------------------------------
def test_every_result_field_is_documented() -> None:
    doc = inspect.getdoc(SearchResult) or ""
    for field in SearchResult.__dataclass_fields__:
        assert f"\n    {field}: " in doc, field
    assert "not a file" in doc and "1-based rank" in doc and '"<kind>: <detail>"' in doc


def test_search_documents_what_it_returns_raises_and_takes() -> None:
    doc = inspect.getdoc(Retriever.search) or ""
    for said in ("Returns:", "Raises:", "drop_flagged", "budget_fill", "QueryError", "ConfigError"):
        assert said in doc, said


def test_a_result_is_what_its_fields_say(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, CONFIG, reranker=None, cache_size=0)
    response = retriever.search("what checkout-api depends on postgres deploy", route="ppr", principals=["*"])
    with_path = [r for r in response.results if r.path]
    assert with_path  # the walk reached some results through others
    for r in with_path:  # item ids, from a seed to this result
        assert r.path[-1] == r.id and all(step in shared_tiny_index for step in r.path)
        assert r.path_reliability is not None
    for r in response.results:
        assert r.channels and all(rank >= 1 for rank in r.channels.values())
        assert r.score == r.fusion_score and r.rerank_score is None  # no reranker, no clause reordering
