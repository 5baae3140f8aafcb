"""SkillRetriever against LangChain's own standard retriever suite, plus what its
Documents carry."""

from __future__ import annotations

import asyncio
from typing import get_type_hints

import pytest
from langchain_core.documents import Document
from langchain_tests.integration_tests import RetrieversIntegrationTests
from pydantic import ValidationError

from skill_retriever.adapters.langchain import SearchSkillsInput, SkillRetriever
from skill_retriever.config import RetrievalConfig
from skill_retriever.model import NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot

QUERY = "add OpenTelemetry tracing to a FastAPI service"


class TestSkillRetrieverStandard(RetrieversIntegrationTests):
    """langchain_tests.integration_tests.RetrieversIntegrationTests, unchanged."""

    @pytest.fixture(autouse=True)
    def _index(self, sample_index: Index) -> None:
        self._sample_index = sample_index

    @property
    def retriever_constructor(self) -> type[SkillRetriever]:
        return SkillRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, object]:
        return {"index": self._sample_index, "k": 4, "reranker": None}

    @property
    def retriever_query_example(self) -> str:
        return QUERY


# The suite forbids overriding its tests, and its one async test carries no asyncio mark
# (LangChain runs pytest-asyncio in auto mode; this repo runs strict mode): mark it.
pytest.mark.asyncio(RetrieversIntegrationTests.test_ainvoke_returns_documents)


def _check_documents(docs: list[Document], index: Index) -> None:
    assert docs and all(isinstance(d, Document) for d in docs)
    for d in docs:
        m = d.metadata
        assert d.id == m["id"] and m["id"] in index.nodes
        node = index.nodes[m["id"]]
        assert d.page_content == node.embedding_text()  # the full text the token count measures
        assert (
            m["kind"] == node.kind.value and m["name"] == node.name and m["source"] == node.source
        )
        assert isinstance(m["fusion_score"], float) and m["fusion_score"] > 0
        assert isinstance(m["token_count"], int) and m["token_count"] > 0
        assert m["channels"] and all(isinstance(r, int) and r >= 1 for r in m["channels"].values())
        assert isinstance(m["path"], list)
        assert m["route"] in ("smart", "ppr", "quick")
    scores = [d.metadata["fusion_score"] for d in docs]
    assert scores == sorted(scores, reverse=True)  # no reranker: fusion order


def test_documents_carry_scores_channels_tokens_and_path(sample_index: Index) -> None:
    # k=10: the three items the question names come first (the "named" list), the
    # items PPR reached through them follow with their paths
    retriever = SkillRetriever(index=sample_index, k=10, reranker=None, route="ppr")
    docs = retriever.invoke(
        "How do migrations-alembic and postgres-schema-design relate to the db-toolkit plugin?"
    )
    _check_documents(docs, sample_index)
    assert {d.metadata["route"] for d in docs} == {"ppr"}
    assert any(d.metadata["path"] for d in docs), "the PPR route explains some results with a path"
    for d in docs:
        if d.metadata["path"]:
            assert d.metadata["path"][-1] == d.id
            assert 0.0 < d.metadata["path_reliability"] <= 1.0


def test_per_call_kinds_budget_and_overrides(sample_index: Index) -> None:
    retriever = SkillRetriever(index=sample_index, k=6, reranker=None)
    docs = retriever.invoke(
        QUERY, kinds=["agent", "command"], token_budget=700, channels={"temporal": False}
    )
    assert docs and {d.metadata["kind"] for d in docs} <= {"agent", "command"}
    assert sum(d.metadata["token_count"] for d in docs) <= 700


@pytest.mark.asyncio
async def test_async_matches_sync(sample_index: Index) -> None:
    retriever = SkillRetriever.from_retriever(Retriever(sample_index, reranker=None), k=3)
    sync_docs = retriever.invoke(QUERY)
    async_docs = await retriever.ainvoke(QUERY)
    _check_documents(async_docs, sample_index)
    assert [d.id for d in async_docs] == [d.id for d in sync_docs]
    assert [d.metadata["fusion_score"] for d in async_docs] == pytest.approx(
        [d.metadata["fusion_score"] for d in sync_docs]
    )


# -- one snapshot per answer ------------------------------------------------------------

ALEMBIC_QUERY = "alembic postgres migrations"


class WritingReranker:
    """Changes the index from inside the rerank phase, i.e. after the search pinned its
    snapshot and before the documents are built: it keeps the snapshot the search read,
    then rewrites skill:alembic and deletes skill:postgres-migrations."""

    name = "writing"

    def __init__(self, index: Index) -> None:
        self.index = index
        self.read: list[IndexSnapshot] = []

    def score(self, query: str, texts: list[str]) -> list[float]:
        if not self.read:
            self.read.append(self.index.snapshot())  # no write yet: the pinned snapshot
            alembic = self.index.get("skill:alembic")
            self.index.upsert(
                [alembic.with_changes(text="rewritten while a search ran", source="new.md")]
            )
            self.index.delete(["skill:postgres-migrations"])
        return [1.0] * len(texts)


def _check_built_from(docs: list[Document], snapshot: IndexSnapshot) -> None:
    assert docs
    for d in docs:
        node = snapshot.nodes[d.id]  # type: ignore[index]
        assert d.page_content == node.embedding_text()
        assert d.metadata["name"] == node.name and d.metadata["source"] == node.source


@pytest.mark.parametrize("call", ["invoke", "ainvoke"])
def test_documents_are_built_from_the_snapshot_the_search_read(tiny_index: Index, call: str) -> None:
    """A write that lands while a search runs changes none of its documents: an item
    rewritten meanwhile keeps the text its scores were computed on, and one deleted
    meanwhile keeps its full text (not its snippet) and its source."""
    writer = WritingReranker(tiny_index)
    retriever = SkillRetriever.from_retriever(
        Retriever(tiny_index, RetrievalConfig(k=10), reranker=writer)
    )
    docs = (
        retriever.invoke(ALEMBIC_QUERY)
        if call == "invoke"
        else asyncio.run(retriever.ainvoke(ALEMBIC_QUERY))
    )
    assert writer.read and "skill:postgres-migrations" not in tiny_index
    assert {"skill:alembic", "skill:postgres-migrations"} <= {d.id for d in docs}
    _check_built_from(docs, writer.read[0])


def test_kinds_are_typed_as_names_and_checked() -> None:
    """``kinds=["skill"]`` passes ``mypy --strict`` (the field is typed by ``str``), a
    NodeKind still fits, and an unknown name fails with the names that exist."""
    assert get_type_hints(SkillRetriever)["kinds"] == list[str] | None
    assert get_type_hints(SearchSkillsInput)["kinds"] == list[str] | None
    args = SearchSkillsInput(query="x", kinds=["skill", NodeKind.AGENT])
    assert args.kinds == [NodeKind.SKILL, NodeKind.AGENT]
    with pytest.raises(ValidationError, match="unknown kind 'skills'; use one of: skill, agent"):
        SearchSkillsInput(query="x", kinds=["skills"])
