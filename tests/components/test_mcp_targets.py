"""The MCP tools' ``target``: an empty, unusable or missing folder is refused in one line
the agent can act on, never ignored and never created."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import sid

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def call(server: Any, tool: str, args: dict[str, Any]) -> str:
    """The tool's answer, or its error's text."""
    try:
        return str(asyncio.run(server.call_tool(tool, args)))
    except Exception as exc:  # noqa: BLE001 - the SDK raises a tool's error; its text is the answer
        return f"error: {exc}"


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("", "target folder is empty"),
        ("   ", "target folder is empty"),
        ("/tmp/a\x00b", "is not a usable path"),
        ("/tmp/" + "x" * 5000, "is not a usable path"),
        ("/no/such/project", "is not an existing folder"),
    ],
)
def test_a_bad_target_is_refused_by_every_tool(hashed_index: Index, tmp_path: Path, target: str, said: str) -> None:
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    answers = {
        "search_components": call(server, "search_components", {"query": "format python", "target": target}),
        "check_dependencies": call(server, "check_dependencies", {"ids": [sid("ruff-lint")], "target": target}),
        "install_components": call(
            server, "install_components", {"ids": [sid("ruff-lint")], "target": target, "dry_run": False}
        ),
    }
    for tool, answer in answers.items():
        assert answer.startswith("error:") and said in answer, (tool, answer[:300])
        assert "pass the project folder's absolute path" in answer
        assert len(answer) < 600  # the 5,000-character path is cut, not echoed whole
    assert not Path("/no/such/project").exists()


def test_a_file_is_not_a_project_folder(hashed_index: Index, tmp_path: Path) -> None:
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    afile = tmp_path / "notes.txt"
    afile.write_text("x", encoding="utf-8")
    answer = call(server, "search_components", {"query": "format python", "target": str(afile)})
    assert "is not an existing folder" in answer
    project = tmp_path / "proj"
    project.mkdir()
    done = call(server, "install_components", {"ids": [sid("ruff-lint")], "target": str(project), "dry_run": False})
    assert not done.startswith("error:") and (project / ".claude/skills/ruff-lint/SKILL.md").is_file()
    # a new project folder inside an existing one may be made, as the CLI makes it
    fresh = tmp_path / "new-project"
    done = call(server, "install_components", {"ids": [sid("ruff-lint")], "target": str(fresh), "dry_run": False})
    assert not done.startswith("error:") and (fresh / ".claude/skills/ruff-lint/SKILL.md").is_file()
    # but only for installing: a search's target names a project that is there
    assert "is not an existing folder" in call(
        server, "search_components", {"query": "format python", "target": str(tmp_path / "other-new")}
    )


@pytest.mark.parametrize("args", [{"k": True}, {"k": "5"}, {"budget": False}, {"k": 2.5}])
def test_counts_must_be_whole_numbers_not_booleans_or_text(hashed_index: Index, args: dict[str, Any]) -> None:
    """JSON true is not 1: a tool call that sends a boolean or a string for a count is
    told so, as ComponentService tells a Python caller."""
    server = build_server(hashed_index, retriever=Retriever(hashed_index, reranker=None))
    answer = call(server, "search_components", {"query": "format python", **args})
    assert answer.startswith("error:") and "valid integer" in answer, answer[:300]
    assert not call(server, "search_components", {"query": "format python", "k": 2}).startswith("error:")


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("", "target folder is empty"),
        ("/tmp/a\x00b", "is not a usable path"),
        ("/tmp/" + "x" * 5000, "is not a usable path"),
        ("/no/such/project", "is not an existing folder"),
    ],
)
def test_the_python_api_refuses_a_bad_target_the_same_way(hashed_index: Index, target: str, said: str) -> None:
    """A search or dependency check given a folder that is not there said nothing and
    reported no installed conflicts, as if the project held nothing."""
    from skill_retriever.components.install import InstallError
    from skill_retriever.components.service import ComponentService

    service = ComponentService(hashed_index, Retriever(hashed_index, reranker=None))
    with pytest.raises(InstallError, match=said):
        service.search("format python", target=target)
    with pytest.raises(InstallError, match=said):
        service.check_dependencies([sid("ruff-lint")], target=target)


def test_install_refuses_an_unusable_path_in_one_line(hashed_index: Index) -> None:
    """A NUL byte passed the install's target check and failed later in the OS's words."""
    from skill_retriever.components.install import InstallError, install

    for target in ("/tmp/a\x00b", "/tmp/" + "x" * 5000):
        with pytest.raises(InstallError, match="is not a usable path") as got:
            install(hashed_index, [sid("ruff-lint")], target)
        assert len(str(got.value)) < 400
