"""An MCP server whose entry its author left to fill in otherwise than with ``YOUR_...``
or ``<...>``: an environment value left empty (``"BROWSERBASE_API_KEY": ""``), a token
masked with asterisks (``"NOTION_TOKEN": "ntn_****"``), a placeholder in the URL's query
(``?token=YOUR_BRIGHTDATA_API_TOKEN``). Each is noted as one to fill in, and filled in it
is no change of the user's own (uninstall removes the server as unchanged).

`unfilled_notes` knew none of the three: davila7's browserbase, dynatrace, notion and
brightdata servers (../shared/data/skills/davila7__claude-code-templates,
cli-tool/components/mcps) were written into ``.mcp.json`` with nothing said (seen
installing each of its 100 servers into a fresh project), and a value the user then set
there made uninstall keep the server as the user's change.
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
    "browserbase": {"command": "npx", "args": ["@browserbasehq/mcp-server-browserbase"],
                    "env": {"BROWSERBASE_API_KEY": "", "BROWSERBASE_PROJECT_ID": "", "GEMINI_API_KEY": ""}},
    "notionApi": {"command": "npx", "args": ["-y", "@notionhq/notion-mcp-server"], "env": {"NOTION_TOKEN": "ntn_****"}},
    "brightdata": {"type": "http", "url": "https://mcp.brightdata.com/mcp?token=YOUR_BRIGHTDATA_API_TOKEN&pro=1"},
    "plain": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "**/*.md"],
              "env": {"LOG_LEVEL": "info", "HOME_DIR": "${HOME}"}},
}


def test_an_empty_value_is_noted_and_is_a_spot() -> None:
    notes = unfilled_notes(SERVERS["browserbase"])
    assert notes == [
        ("its env BROWSERBASE_API_KEY, BROWSERBASE_PROJECT_ID, GEMINI_API_KEY are left empty, which Claude Code "
         "passes on as written: set the value in .mcp.json, or name an environment variable (${VAR})")
    ], notes
    assert placeholder_spots(SERVERS["browserbase"]) == [
        ("env", "BROWSERBASE_API_KEY"), ("env", "BROWSERBASE_PROJECT_ID"), ("env", "GEMINI_API_KEY")]
    header = {"type": "http", "url": "https://x.example/mcp", "headers": {"Authorization": " "}}
    assert "its headers Authorization is left empty" in " ".join(unfilled_notes(header))
    assert placeholder_spots({"command": "npx", "args": [""]}) == []  # an empty argument may mean one


def test_a_masked_token_and_a_placeholder_in_a_query_are_noted() -> None:
    assert placeholder_spots(SERVERS["notionApi"]) == [("env", "NOTION_TOKEN")]
    assert "its env NOTION_TOKEN still hold(s) a placeholder value" in " ".join(unfilled_notes(SERVERS["notionApi"]))
    assert placeholder_spots(SERVERS["brightdata"]) == [("url",)]
    notes = unfilled_notes(SERVERS["brightdata"])
    assert notes == [
        ("its URL holds a placeholder ('https://mcp.brightdata.com/mcp?token=YOUR_BRIGHTDATA_API_TOKEN&pro=1'): "
         "set the real one in .mcp.json")
    ], notes
    assert unfilled_notes(SERVERS["plain"]) == [] and placeholder_spots(SERVERS["plain"]) == []


def test_a_real_secret_beside_a_placeholder_in_the_url_is_not_shown() -> None:
    entry = {"type": "http", "url": "https://x.example/mcp?id=YOUR_ID&token=Xk9q2Lm7Pz4Rt8Vw3Ns6"}
    notes = " ".join(unfilled_notes(entry))
    assert "YOUR_ID" in notes and "Xk9q2Lm7Pz4Rt8Vw3Ns6" not in notes, notes


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    with servers_index(tmp_path, SERVERS) as idx:
        yield idx


def test_install_says_to_fill_them_in(index: Index, tmp_path: Path) -> None:
    plan = install(index, sorted(index.snapshot().nodes), tmp_path / "project")
    assert plan.ok
    got = {c.name: c.reason for c in plan.components}
    assert "left empty" in got["browserbase"], got
    assert "placeholder" in got["notionApi"] and "placeholder" in got["brightdata"], got
    assert "placeholder" not in got["plain"] and "empty" not in got["plain"], got


def test_the_empty_value_filled_in_uninstalls_as_unchanged(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "project"
    install(index, [next(i for i, n in index.snapshot().nodes.items() if n.name == "browserbase")], project)
    mcp = project / ".mcp.json"
    data = json.loads(mcp.read_text())
    data["mcpServers"]["browserbase"]["env"]["GEMINI_API_KEY"] = "${GEMINI_API_KEY}"
    mcp.write_text(json.dumps(data))
    report = uninstall(["browserbase"], project)
    assert report.ok and report.filled == {".mcp.json#browserbase": ["env GEMINI_API_KEY"]}, report
    assert not mcp.exists(), mcp.read_text()  # its only server gone, the file install made goes too
