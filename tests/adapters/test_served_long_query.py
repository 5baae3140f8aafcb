"""A query (or a coding task) over ``max_query_chars`` sent to the served graphs is told to
shorten it, in the words of its own input: both said "the query is N characters, over the
limit of L; shorten it or raise max_query_chars (CLI: --max-query-chars)", advice a server's
client cannot take (a run's profile may lower the server's limit, never raise it; there is
no CLI), and ``coding_agent``'s client sent no "query" but a "task". The agent tool and the
MCP tools already said it so (`QueryTooLongError.to_agent`). The coding agent built in
Python with a context of one's own may raise the limit there, and is told so as "the task".
Sample index (hashing embedder), real LangGraph."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

import pytest

from skill_retriever.adapters import langgraph_server as srv
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import QueryTooLongError
from skill_retriever.stores.index import Index

LONG = "add tracing to a service " * 5000  # 125,000 characters, the limit is 100,000


@pytest.fixture
def served_ctx(sample_index_path: Path, tmp_path: Path) -> dict[str, object]:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    return {"index_dir": str(index_dir), "cross_encoder": None}


def test_the_served_retrieval_graph_says_shorten_the_query(served_ctx: dict[str, object]) -> None:
    with pytest.raises(QueryTooLongError) as info:
        srv.build_server_graph().invoke({"query": LONG}, context=served_ctx)
    said = str(info.value)
    assert said.startswith(f"the query is {len(LONG.strip()):,} characters, over this server's limit of 100,000")
    assert "CLI" not in said and "raise" not in said


def test_the_served_coding_agent_says_shorten_the_task(coding_agent: ModuleType, served_ctx: dict[str, object]) -> None:
    with pytest.raises(QueryTooLongError) as info:
        coding_agent.build_agent_with_wrapper_node().invoke({"task": LONG}, context=served_ctx)
    said = str(info.value)
    assert said.startswith(f"the task is {len(LONG.strip()):,} characters, over this server's limit of 100,000")
    assert "CLI" not in said and "query" not in said


def test_the_coding_agent_with_its_own_context_names_the_setting(coding_agent: ModuleType, sample_index: Index) -> None:
    ctx = RetrievalContext(index=sample_index, config=RetrievalConfig(rerank=False))
    with pytest.raises(QueryTooLongError) as info:
        coding_agent.build_agent_with_wrapper_node(retrieval=ctx).invoke({"task": LONG}, context=ctx)
    said = str(info.value)
    assert said.startswith(f"the task is {len(LONG.strip()):,} characters, over the limit of 100,000")
    assert "max_query_chars" in said and "CLI" not in said
