"""``skill-retriever index`` of one hook definition or one ``.mcp.json`` (QA): read as a
JSON graph, it was refused for its missing ``"nodes"``, as if the file were broken. It is
one file of a skills repository, refused as a SKILL.md or an agent given alone is, with
the folder to index named; a JSON graph is still indexed. The index is made with the
bundled model, as a user's is.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

HOOK = {"description": "Notify", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}
MCP = {"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"]}}}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write_file(tmp_path / "repo", "hooks/notify.json", HOOK)
    write_file(tmp_path / "repo", ".mcp.json", MCP)
    return tmp_path / "repo"


@pytest.mark.parametrize(
    ("rel", "what", "folder"),
    [("hooks/notify.json", "a hook definition", "hooks"), (".mcp.json", "an MCP server configuration", ".")],
)
def test_one_component_json_is_refused_with_its_folder_named_and_that_folder_indexes(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], rel: str, what: str, folder: str
) -> None:
    index_dir = str(tmp_path / "ix")
    code, out, err = run(capsys, "index", repo / rel, "--index-dir", index_dir)
    assert code != 0 and out == ""
    assert f"{repo / rel} is {what}, one file of a skills repository" in err
    assert '"nodes"' not in err and "--kind docs" not in err  # not a broken graph, and no document
    advised = re.search(r"`(skill-retriever index [^`]*)`", err)
    assert advised and shlex.split(advised.group(1))[2] == str((repo / folder).resolve())
    code, _, err = run(capsys, *shlex.split(advised.group(1))[1:])  # as printed
    assert code == 0, err
    code, out, _ = run(capsys, "stats", "--index-dir", index_dir, "--json")
    assert code == 0 and json.loads(out)["nodes"] >= 1


def test_a_hook_of_an_indexed_repository_names_the_repository(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(tmp_path / "ix")
    assert run(capsys, "index", repo, "--index-dir", index_dir)[0] == 0
    code, _, err = run(capsys, "index", repo / "hooks" / "notify.json", "--index-dir", index_dir)
    assert code != 0
    assert "is a hook definition, one file of the source 'repo'" in err
    assert f"`skill-retriever index {repo} --index-dir {index_dir}`" in err


def test_a_json_graph_that_names_hooks_still_indexes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A graph is read as one, whatever its items hold ("hooks" and "mcpServers" among them)."""
    graph = {
        "nodes": [{"id": "skill:notify", "kind": "skill", "name": "notify",
                   "text": "Set up Stop hooks and mcpServers for notifications.",
                   "attrs": {"hooks": {"Stop": []}, "mcpServers": {}}}],
        "edges": [],
        "hooks": {"Stop": []},
    }
    write_file(tmp_path, "graph.json", graph)
    code, _, err = run(capsys, "index", tmp_path / "graph.json", "--index-dir", tmp_path / "ix")
    assert code == 0, err
