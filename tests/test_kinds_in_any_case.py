"""A kind is accepted in any case on every surface, as README says of ``query --kinds``:
``Retriever.search(kinds=["Agent"])``, `Filters`, the LangChain retriever, the agent tool
and `ComponentService` answered "did you mean 'agent'" while the CLI took ``--kinds Agent``.
The case is read in one place (`kind_names.kind_in_case`); a plural is still refused, naming
the kind it means (read silently, ``skills`` would blur the item kind with the source kind
``index --kind skills``). Over the bundled sample catalogue."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.components.service import ComponentService
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERY = "review a pull request for security problems"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    opened = Index.open(tmp_path_factory.mktemp("kinds") / "ix", embedder=HashingEmbedder(64), create=True)
    index_sources(opened, [sample_catalogue_path()])
    yield opened
    opened.close()


def test_filters_store_any_case_as_the_kind_and_refuse_a_plural() -> None:
    assert Filters(kinds=["Agent", "MCP_SERVER", "skill"]).kinds == {"agent", "mcp_server", "skill"}
    assert Filters.from_spec({"kinds": ["AGENT"]}) == Filters(kinds=["agent"])
    with pytest.raises(ConfigError, match="did you mean 'skill'"):
        Filters(kinds=["Skills"])


def test_python_search_takes_any_case(index: Index) -> None:
    retriever = Retriever(index, reranker=None)
    lower = retriever.search(QUERY, kinds=["agent"], principals=["*"])
    mixed = retriever.search(QUERY, kinds=["Agent"], principals=["*"])
    assert lower.results and {r.kind for r in mixed.results} == {"agent"}
    assert mixed.ids == lower.ids
    assert retriever.search(QUERY, filters={"kinds": ["AGENT"]}, kinds="agent", principals=["*"]).ids == lower.ids
    with pytest.raises(ConfigError, match="did you mean 'agent'"):
        retriever.search(QUERY, kinds=["Agents"])


def test_the_langchain_retriever_takes_any_case(index: Index) -> None:
    docs = SkillRetriever(index=index, kinds=["Agent"], reranker=None, filters={"principals": ["*"]}).invoke(QUERY)
    assert docs and {d.metadata["kind"] for d in docs} == {"agent"}
    with pytest.raises(ConfigError, match="did you mean 'agent'"):
        SkillRetriever(index=index, kinds=["Agents"])


def test_the_agent_tool_takes_any_case(index: Index) -> None:
    tool = make_search_skills_tool(index, rerank=False, principals=["*"])

    def call(kinds: list[str]) -> object:
        return tool.invoke({"name": "search_skills", "args": {"query": QUERY, "kinds": kinds}, "id": "1",
                            "type": "tool_call"})

    said = call(["Agent", "COMMAND"])
    kinds = {a["kind"] for a in said.artifact}  # type: ignore[attr-defined]
    assert kinds and kinds <= {"agent", "command"}
    refused = call(["Agents"]).content  # type: ignore[attr-defined]
    assert refused.startswith("Error:") and "did you mean 'agent'" in refused


def test_component_search_takes_any_case(index: Index) -> None:
    service = ComponentService(index, principals=["*"])
    found = service.search(QUERY, kinds=["Agent"])
    assert found.results and {r.kind for r in found.results} == {"agent"}
    with pytest.raises(ConfigError, match="not component kinds"):
        service.search(QUERY, kinds=["Agents"])
