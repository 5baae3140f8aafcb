"""An MCP server whose program or paths are still its author's example
(``"command": "<path of binary aks-mcp>"``, ``/path/to/mcp-server-box``,
``/abs/path/to/uv``) is noted as one to fill in, as a placeholder key is.

`unfilled_notes` read the URL, the arguments, the headers and the environment, never the
command, and took ``/path/to/...`` for a real path: davila7's aks, serena, box,
filesystem and google-ads servers (../shared/data/skills/davila7__claude-code-templates,
cli-tool/components/mcps) were written into ``.mcp.json`` with nothing said, and Claude
Code then fails to start them (seen installing each of its 100 servers into a fresh
project). Filled in, such a value is no change of the user's own: uninstall removes the
server as unchanged (`filled_in`, through `placeholder_spots`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_servers_index import servers_index

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.placeholders import placeholder_spots, unfilled_notes
from skill_retriever.stores.index import Index

#: As davila7's files hold them (their descriptions aside).
SERVERS = {
    "aks": {"command": "<path of binary aks-mcp>", "args": ["--transport", "stdio"]},
    "serena": {"command": "/abs/path/to/uv",
               "args": ["run", "--directory", "/abs/path/to/serena", "serena", "start-mcp-server"]},
    "mcp-server-box": {"command": "uv", "args": ["--directory", "/path/to/mcp-server-box", "run", "src/mcp_server_box.py"]},
    "google-ads": {"command": "/full/path/to/your/project/.venv/bin/python",
                   "args": ["/full/path/to/your/project/server.py"]},
    "plain": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/shared/docs"]},
}


def test_a_placeholder_command_is_noted_and_is_a_spot() -> None:
    notes = unfilled_notes(SERVERS["aks"])
    assert len(notes) == 1 and "its command holds a placeholder ('<path of binary aks-mcp>')" in notes[0], notes
    assert placeholder_spots(SERVERS["aks"]) == [("command",)]


def test_an_example_path_is_noted_in_the_command_and_the_arguments() -> None:
    notes = " ".join(unfilled_notes(SERVERS["serena"]))
    assert "'/abs/path/to/uv'" in notes and "'/abs/path/to/serena'" in notes, notes
    assert placeholder_spots(SERVERS["serena"]) == [("command",), ("args", 2)]
    assert placeholder_spots(SERVERS["mcp-server-box"]) == [("args", 1)]
    assert placeholder_spots(SERVERS["google-ads"]) == [("command",), ("args", 0)]
    assert unfilled_notes(SERVERS["plain"]) == []
    assert unfilled_notes({"command": "node", "args": ["lib/path/tools.js"], "env": {"DIR": "${HOME}/path/to"}}) == []


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    with servers_index(tmp_path, SERVERS) as idx:
        yield idx


def test_install_says_to_fill_them_in(index: Index, tmp_path: Path) -> None:
    plan = install(index, sorted(index.snapshot().nodes), tmp_path / "project")
    assert plan.ok
    got = {c.name: c.reason for c in plan.components}
    assert "its command holds a placeholder" in got["aks"], got
    for name in ("serena", "mcp-server-box", "google-ads"):
        assert "placeholder" in got[name], got
    assert "placeholder" not in got["plain"], got


def test_the_command_filled_in_uninstalls_as_unchanged(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "project"
    install(index, [next(i for i, n in index.snapshot().nodes.items() if n.name == "aks")], project)
    mcp = project / ".mcp.json"
    data = json.loads(mcp.read_text())
    data["mcpServers"]["aks"]["command"] = "/usr/local/bin/aks-mcp"
    mcp.write_text(json.dumps(data))
    report = uninstall(["aks"], project)
    assert report.ok and report.filled == {".mcp.json#aks": ["command"]}, report
