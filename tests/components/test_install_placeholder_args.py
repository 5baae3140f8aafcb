"""An MCP server whose arguments still hold its author's placeholder (``--read-token=YOUR-TOKEN``,
``--project-ref=<project-ref>``, ``api-xxxxxxxx-xxxx-xxxx``) is noted as one to fill in.

The indexer keeps a placeholder argument as written (`secret_values.is_placeholder`), and
`render_mcp.unfilled_notes` looked for placeholders in the env, the headers and URL
logins only: the server was written with ``YOUR-TOKEN`` in its arguments and nothing was
said (seen installing logfire from ../shared/data/skills, its source file gone). Uninstall
counts a server whose only change is that argument, filled in, as unchanged, as it counts
a filled env value (`filled_in`, through `placeholder_spots`).
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

SERVERS = {
    "logfire": {"command": "uvx", "args": ["logfire-mcp", "--read-token=YOUR-TOKEN"]},
    "darkly": {"command": "npx", "args": ["-y", "ld-mcp", "--api-key", "api-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"]},
    "plain": {"command": "npx", "args": ["-y", "plain-mcp", "--verbose"]},
}
NOTE = "still hold(s) a placeholder value"


def test_an_argument_s_placeholder_is_noted_and_is_a_spot() -> None:
    entry = {"command": "uvx", "args": ["logfire-mcp", "--read-token=YOUR-TOKEN"]}
    notes = unfilled_notes(entry)
    assert len(notes) == 1 and NOTE in notes[0] and "--read-token=YOUR-TOKEN" in notes[0]
    assert placeholder_spots(entry) == [("args", 1)]
    assert unfilled_notes({"command": "npx", "args": ["srv", "--read-token=${LOGFIRE_TOKEN}"]}) == []


def test_a_login_placeholder_is_said_once() -> None:
    notes = unfilled_notes({"command": "psql", "args": ["postgresql://<user>:<password>@localhost/db"]})
    assert len(notes) == 1 and "placeholder user and password" in notes[0]


def test_a_secret_beside_the_placeholder_is_not_shown() -> None:
    notes = unfilled_notes({"command": "srv", "args": ["postgresql://admin:Zq9W8e7R6t5Y@db.example/<db>"]})
    assert notes and "Zq9W8e7R6t5Y" not in " ".join(notes)


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    with servers_index(tmp_path, SERVERS) as idx:
        yield idx


@pytest.mark.parametrize("from_file", [True, False])
def test_install_says_to_fill_the_argument_in(index: Index, tmp_path: Path, from_file: bool) -> None:
    if not from_file:
        (tmp_path / "repo" / "mcps" / "servers.json").unlink()
    plan = install(index, sorted(index.snapshot().nodes), tmp_path / "project")
    assert plan.ok
    got = {c.name: c.reason for c in plan.components}
    assert NOTE in got["logfire"] and "--read-token=YOUR-TOKEN" in got["logfire"]
    assert NOTE in got["darkly"] and "api-xxxxxxxx" in got["darkly"]
    assert NOTE not in got["plain"]
    written = json.loads((tmp_path / "project/.mcp.json").read_text())["mcpServers"]
    assert written["logfire"]["args"] == SERVERS["logfire"]["args"]


def test_the_argument_filled_in_uninstalls_as_unchanged(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "project"
    install(index, [next(i for i, n in index.snapshot().nodes.items() if n.name == "logfire")], project)
    mcp = project / ".mcp.json"
    data = json.loads(mcp.read_text())
    data["mcpServers"]["logfire"]["args"][1] = "--read-token=${LOGFIRE_READ_TOKEN}"
    mcp.write_text(json.dumps(data))
    report = uninstall(["logfire"], project)
    assert report.ok and report.filled == {".mcp.json#logfire": ["args[1]"]}
