"""What the MCP tools and the LangChain agent tool tell an agent, as a user walkthrough
found it wanting:

- ``search_components`` with ``budget: -1`` said "token budget must be None or an
  integer >= 0": None is Python's word; it now says what ``search`` says.
- The tool descriptions were sent as written in the source (``Args:`` lines indented by
  8 spaces); ``search`` listed the kinds without ``entity`` and ``fact``, which its
  schema's enum has; ``k`` and ``budget`` had no ``minimum`` in the schemas.
- The agent tool ``search_skills`` gave a document no file to open (the CLI's ``--json``
  and the retriever's documents do), and refused ``kinds: "document"``, which the MCP
  ``search`` tool takes as one kind.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.algorithms.budget import pack_to_budget
from skill_retriever.exceptions import ConfigError
from skill_retriever.indexing import index_sources
from skill_retriever.model import NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _server(index: Index) -> Any:
    return build_server(index, retriever=Retriever(index, reranker=None))


def _error(server: Any, tool: str, args: dict[str, Any]) -> str:
    async def run() -> str:
        try:
            result = await server.call_tool(tool, args)
        except Exception as exc:  # noqa: BLE001 - the SDK raises a tool's refusal; its text is the answer
            return str(exc)
        return f"no error: {result}"

    return asyncio.run(run())


@pytest.mark.parametrize("tool", ["search", "search_components"])
def test_a_negative_budget_is_said_in_the_tools_words(sample_index: Index, tool: str) -> None:
    said = _error(_server(sample_index), tool, {"query": "format python", "budget": -1})
    assert said.endswith("budget must be >= 0 (leave it out for no limit), got -1"), said
    assert "None" not in said


def test_the_python_api_says_none_as_python_does() -> None:
    with pytest.raises(ConfigError, match=r"token budget must be an integer >= 0 \(or None for no limit\), got -1"):
        pack_to_budget(["a"], {"a": 1}, -1)


def test_the_tool_descriptions_and_schemas(sample_index: Index) -> None:
    tools = {t.name: t for t in asyncio.run(_server(sample_index).list_tools())}
    for tool in tools.values():
        lines = tool.description.splitlines()
        assert "\nArgs:\n    " in tool.description, tool.description  # dedented: was 8 spaces, then 12
        assert lines == [line.rstrip() for line in lines] and lines[-1].strip()
    search = tools["search"]
    enum = next(s for s in search.input_schema["properties"]["kinds"]["anyOf"] if s.get("type") == "array")
    kinds = enum["items"]["enum"]
    assert {"entity", "fact"} <= set(kinds) and set(kinds) == {k.value for k in NodeKind}
    assert f"any of: {', '.join(kinds)}." in " ".join(search.description.split())
    for name in ("search", "search_components"):
        props = tools[name].input_schema["properties"]
        assert props["k"]["minimum"] == 1
        assert {"type": "integer", "minimum": 0} in props["budget"]["anyOf"]


def _runbook(sections: int, needle_at: int) -> tuple[str, int]:
    """A Markdown runbook long enough to be split into sections, and the line of the
    section that holds a word no other holds."""
    lines = ["# Operations runbook", ""]
    needle_line = 0
    for i in range(sections):
        if i == needle_at:
            needle_line = len(lines) + 1
        lines += [f"## Step {i}", ""]
        word = "zebrafish aquarium heater" if i == needle_at else f"routine check number {i}"
        lines += [f"Paragraph {j} of step {i}: {word} and the usual operations notes." for j in range(25)]
        lines.append("")
    return "\n".join(lines), needle_line


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Index, Path, int]]:
    root = tmp_path_factory.mktemp("walk-docs")
    (folder := root / "docs").mkdir()
    text, line = _runbook(40, 31)
    (folder / "runbook.md").write_text(text, encoding="utf-8")
    (folder / "short.md").write_text("# Restart the cache\n\nRestart the redis cache pods.\n", encoding="utf-8")
    index = Index.open(root / "index", embedder=HashingEmbedder(64), create=True)
    index_sources(index, [folder], "docs")
    yield index, folder, line
    index.close()


def test_the_agent_tool_says_where_a_document_lies(docs: tuple[Index, Path, int]) -> None:
    index, folder, line = docs
    tool = make_search_skills_tool(Retriever(index, reranker=None))
    call = {"type": "tool_call", "id": "c1", "name": "search_skills",
            "args": {"query": "zebrafish aquarium heater", "kinds": "document", "k": 2}}  # fmt: skip
    msg = tool.invoke(call)
    assert isinstance(msg, ToolMessage) and msg.status == "success", msg.content
    assert msg.artifact and {r["kind"] for r in msg.artifact} == {"document"}
    top = msg.artifact[0]
    assert top["source"] == str(folder / "runbook.md") and top["line"] == line
    assert f"   at {folder / 'runbook.md'}:{line}" in str(msg.content).splitlines()
    short = tool.invoke({**call, "args": {"query": "restart the redis cache", "kinds": "document", "k": 1}})
    assert short.artifact[0]["source"] == str(folder / "short.md") and "line" not in short.artifact[0]
    assert f"   at {folder / 'short.md'}" in str(short.content).splitlines()


def test_one_kind_as_a_string_is_one_kind(sample_index: Index) -> None:
    tool = make_search_skills_tool(Retriever(sample_index, reranker=None))
    text = tool.invoke({"query": "format python code", "kinds": "skill", "k": 3})
    assert "3 items (route" in text.splitlines()[1 if text.startswith("Note:") else 0]
    assert text.count("[skill]") == 3
    assert "   at " not in text  # a component is used by its id
    refused = tool.invoke({"query": "x", "kinds": "skills"})
    assert refused.startswith("Error: invalid arguments: kinds: unknown kind 'skills'"), refused
