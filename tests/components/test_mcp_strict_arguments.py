"""The MCP tools' switches and targets are read strictly: a switch is JSON true or false
(pydantic's lax bool read "false" as false and "yes" as true, so a client's text decided
whether an install wrote files), and a target is an absolute path (a relative one was read
from the server's working folder, which the agent cannot know)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import files_under

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def call(server: Any, tool: str, args: dict[str, Any]) -> str:
    """The tool's answer, or its error's text."""
    try:
        return str(asyncio.run(server.call_tool(tool, args)))
    except Exception as exc:  # noqa: BLE001 - the SDK raises a tool's error; its text is the answer
        return f"error: {exc}"


@pytest.mark.parametrize("value", ["false", "no", "off", 0, "true", 1, None])
@pytest.mark.parametrize("switch", ["dry_run", "force", "with_dependencies", "allow_conflicts"])
def test_a_switch_that_is_not_true_or_false_is_refused_and_nothing_is_written(
    sample_index: Index, tmp_path: Path, switch: str, value: object
) -> None:
    server = build_server(sample_index, retriever=Retriever(sample_index, reranker=None))
    project = tmp_path / "project"
    project.mkdir()
    args = {"ids": ["api-reviewer"], "target": str(project), "dry_run": False, switch: value}
    answer = call(server, "install_components", args)
    assert answer.startswith("error:") and f"{switch}: input should be a valid boolean" in answer, answer[:300]
    assert files_under(project) == {}


def test_drop_conflicts_is_a_switch_too(sample_index: Index) -> None:
    server = build_server(sample_index, retriever=Retriever(sample_index, reranker=None))
    answer = call(server, "search_components", {"query": "format python", "drop_conflicts": "yes"})
    assert answer.startswith("error:") and "drop_conflicts: input should be a valid boolean" in answer


@pytest.mark.parametrize("tool", ["install_components", "check_dependencies", "search_components"])
def test_a_relative_target_is_refused(
    sample_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tool: str
) -> None:
    monkeypatch.chdir(tmp_path)  # where a relative target would have been read from
    (tmp_path / "relproj").mkdir()
    server = build_server(sample_index, retriever=Retriever(sample_index, reranker=None))
    args: dict[str, Any] = {"target": "relproj"}
    args |= {"query": "format python"} if tool == "search_components" else {"ids": ["api-reviewer"]}
    args |= {"dry_run": False} if tool == "install_components" else {}
    answer = call(server, tool, args)
    assert answer.startswith("error:") and "is a relative path" in answer and "absolute path" in answer, answer[:300]
    assert files_under(tmp_path / "relproj") == {}


def test_an_over_long_query_tells_the_agent_to_shorten_it_not_to_pass_a_flag(sample_index: Index) -> None:
    server = build_server(sample_index, retriever=Retriever(sample_index, reranker=None))
    answer = call(server, "search_components", {"query": "format python " * 8_000})
    assert answer.startswith("error:") and "over this tool's limit of 100,000" in answer, answer[:300]
    assert "Shorten it to the task itself" in answer and "--max-query-chars" not in answer
