"""Defects the API walkthroughs met, each said in one line that names what to do:

- The retrieval graph given a plain dict as its LangGraph context: a path for ``index``
  failed inside ``plan_query`` with ``'str' object has no attribute 'snapshot'``, and the
  server graph's ``{"index_dir": ...}`` with a dataclass ``TypeError``.
- An unknown route (or fusion, rerank mode, ...) was worded as Python's type
  (``typing.Optional[typing.Literal[...]]``), not as the words it may be.
- The LangChain retriever dropped the search's warnings: with a token budget it returned
  fewer documents than ``k`` and no hint why.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError
from skill_retriever.graph import graph
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERY = "add OpenTelemetry tracing to a FastAPI service"


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """The bundled sample catalogue, as the walkthroughs used it (HashingEmbedder)."""
    path: Path = tmp_path_factory.mktemp("walkthrough") / "sample-index"
    index = Index.open(path, embedder=HashingEmbedder(64), create=True)
    index_sources(index, [sample_catalogue_path()])
    yield index
    index.close()


# -- 1. the graph's context ---------------------------------------------------------------


def test_a_path_for_the_index_is_refused_when_the_context_is_made() -> None:
    want = r"^context\.index must be an Index \(RetrievalContext\(index=Index\.open\(path\)\)\), got str$"
    with pytest.raises(ConfigError, match=want):
        graph.invoke({"query": "x"}, context={"index": "x"})
    with pytest.raises(ConfigError, match=want):
        RetrievalContext(index="x")  # type: ignore[arg-type]


def test_the_server_graphs_json_context_points_at_the_server_graph() -> None:
    with pytest.raises(ConfigError) as info:
        graph.invoke({"query": "x"}, context={"index_dir": "/tmp/some-index"})
    message = str(info.value)
    assert "\n" not in message
    assert "context=RetrievalContext(index=Index.open(...))" in message
    assert "skill_retriever.adapters.langgraph_server.build_server_graph" in message


@pytest.mark.parametrize(
    ("context", "says"),
    [
        (None, "it got NoneType"),
        ({}, "it got no index"),
        ({"indx": "x"}, "got unknown 'indx'"),
        ("an-index", "it got str"),
    ],
)
def test_a_context_that_is_no_retrieval_context_says_what_to_pass(context: object, says: str) -> None:
    with pytest.raises(ConfigError) as info:
        graph.invoke({"query": "x"}, context=context)  # type: ignore[arg-type]
    message = str(info.value)
    assert "context=RetrievalContext(index=Index.open(...))" in message and says in message
    assert "\n" not in message


def test_a_dict_holding_an_index_still_works_and_a_context_still_copies(sample_index: Index) -> None:
    out = graph.invoke(
        {"query": QUERY, "k": 3}, context={"index": sample_index, "config": RetrievalConfig(rerank=False)}
    )
    assert out["results"]
    ctx = RetrievalContext(index=sample_index)
    assert copy.copy(ctx).index is sample_index
    assert dataclasses.replace(ctx, config=RetrievalConfig(k=3)).config.k == 3


# -- 2. Literal settings in words -----------------------------------------------------------


def test_an_unknown_route_names_the_routes(sample_index: Index) -> None:
    want = "route must be one of smart, ppr, quick (or None for the router's choice), got 'fast'"
    with pytest.raises(ConfigError) as info:
        Retriever(sample_index, reranker=None).search("x", route="fast")  # type: ignore[arg-type]
    assert str(info.value) == want
    with pytest.raises(ConfigError) as info:
        graph.invoke({"query": "x", "route": "fast"}, context=RetrievalContext(index=sample_index))  # type: ignore[typeddict-item]
    assert str(info.value) == want


@pytest.mark.parametrize(
    ("setting", "value", "want"),
    [
        ("fusion", "sum", "fusion must be one of rrf, scores (or None for the index's suggestion), got 'sum'"),
        ("rerank_mode", "always", "rerank_mode must be one of auto, blend, replace, got 'always'"),
        ("rerank_mode", None, "rerank_mode must be one of auto, blend, replace, got None"),
        (
            "default_route",
            "fast",
            (
                "default_route must be one of smart, ppr, quick, by-complexity "
                "(or None for the index's suggestion), got 'fast'"
            ),
        ),
    ],
)
def test_every_literal_setting_is_worded_by_its_choices(setting: str, value: object, want: str) -> None:
    with pytest.raises(ConfigError) as info:
        RetrievalConfig(**{setting: value})
    assert str(info.value) == want
    assert "typing" not in str(info.value)


def test_other_wrong_types_still_name_the_type() -> None:
    with pytest.raises(ConfigError, match=r"setting 'k' has the wrong type: 'five'"):
        RetrievalConfig(k="five")  # type: ignore[arg-type]


# -- 3. the LangChain retriever's warnings ---------------------------------------------------


def _budget_dropping_three(index: Index) -> int:
    """A token budget that keeps the first two of five documents."""
    docs = SkillRetriever(index=index, k=5, reranker=None).invoke(QUERY)
    assert len(docs) == 5
    return sum(d.metadata["token_count"] for d in docs[:2])


def test_what_the_budget_dropped_is_logged_and_on_each_document(
    sample_index: Index, caplog: pytest.LogCaptureFixture
) -> None:
    budget = _budget_dropping_three(sample_index)
    retriever = SkillRetriever(index=sample_index, k=5, token_budget=budget, reranker=None)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        docs = retriever.invoke(QUERY)
    assert len(docs) == 2
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and r.name == "skill_retriever"]
    assert any(f"token budget of {budget} dropped 3 of 5" in m for m in logged), logged
    for d in docs:
        assert any(f"token budget of {budget} dropped 3" in w for w in d.metadata["warnings"])
        # the hashing embedder matches nothing well: the calibration says so, on each too
        nothing_fits = any("fits this well" in w for w in d.metadata["warnings"])
        assert d.metadata["nothing_fits"] is nothing_fits is True


def test_the_async_retriever_says_it_too(sample_index: Index, caplog: pytest.LogCaptureFixture) -> None:
    budget = _budget_dropping_three(sample_index)
    retriever = SkillRetriever(index=sample_index, k=5, token_budget=budget, reranker=None)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        docs = asyncio.run(retriever.ainvoke(QUERY))
    assert len(docs) == 2 and all(d.metadata["warnings"] for d in docs)
    assert any("dropped 3 of 5" in r.getMessage() for r in caplog.records)


def test_a_budget_dropping_everything_is_logged(sample_index: Index, caplog: pytest.LogCaptureFixture) -> None:
    retriever = SkillRetriever(index=sample_index, k=5, token_budget=1, reranker=None)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        assert retriever.invoke(QUERY) == []
    assert any("token budget of 1 dropped" in r.getMessage() for r in caplog.records)


def test_an_answer_without_warnings_says_so(sample_index: Index, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        docs = SkillRetriever(
            index=sample_index, k=3, reranker=None, config=RetrievalConfig(use_calibration=False)
        ).invoke(QUERY)
    assert docs and all(d.metadata["warnings"] == [] and d.metadata["nothing_fits"] is False for d in docs)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
