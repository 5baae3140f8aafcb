"""What an MCP server rebuilt from the index tells the user to fill in.

The indexer keeps no secrets: it writes ``[redacted]`` (`skill_configs.REDACTED`) in
arguments and in the command, and stores a remote server's URL bare (no user info, no
query). Installed from its source file, the entry is the user's own and nothing is said;
rebuilt from the index (the file gone), the plan notes each value that needs setting
again in ``.mcp.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.skill_configs import REDACTED
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SERVERS = {
    "psql": {"command": "psql postgresql://u:PW1@db/app", "args": ["--quiet"]},
    "remote": {"url": "https://u:PW2@remote.example/mcp?key=PW3&region=eu"},
    "tokened": {"command": "npx", "args": ["server", "--token", "PW4"]},
}
COMMAND_NOTE = "part of the command was redacted in the index: set it in .mcp.json"
ARGUMENT_NOTE = "an argument was redacted in the index: set it in .mcp.json"
URL_NOTE = "the index keeps the URL without its user info or query"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "repo" / "mcps" / "servers.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"mcpServers": SERVERS}))
    return path


@pytest.fixture
def index(tmp_path: Path, source: Path) -> Iterator[Index]:
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(idx, [source.parent.parent], "skills", calibrate=False)
    assert not [p for s in run.sources for p in s.problems]
    yield idx
    idx.close()


def reasons(index: Index, target: Path) -> dict[str, str]:
    plan = install(index, sorted(index.snapshot().nodes), target)
    assert plan.ok
    return {c.name: c.reason for c in plan.components}


def test_copied_from_the_source_file_nothing_is_said(index: Index, tmp_path: Path) -> None:
    got = reasons(index, tmp_path / "project")
    assert got == {"psql": "", "remote": "", "tokened": ""}
    written = json.loads((tmp_path / "project/.mcp.json").read_text())["mcpServers"]
    assert written["psql"]["command"] == SERVERS["psql"]["command"]
    assert written["remote"]["url"] == SERVERS["remote"]["url"]


def test_rebuilt_from_the_index_each_lost_value_is_noted(
    index: Index, tmp_path: Path, source: Path
) -> None:
    source.unlink()
    got = reasons(index, tmp_path / "project")
    written = json.loads((tmp_path / "project/.mcp.json").read_text())["mcpServers"]
    # a redacted command
    assert written["psql"]["command"] == f"psql postgresql://{REDACTED}@db/app"
    assert COMMAND_NOTE in got["psql"]
    assert ARGUMENT_NOTE not in got["psql"] and URL_NOTE not in got["psql"]
    # a redacted argument, the command intact
    assert written["tokened"]["args"] == ["server", "--token", REDACTED]
    assert ARGUMENT_NOTE in got["tokened"] and COMMAND_NOTE not in got["tokened"]
    # a URL stored bare
    assert written["remote"] == {"type": "http", "url": "https://remote.example/mcp"}
    assert URL_NOTE in got["remote"] and "credentials or a query" in got["remote"]
    assert COMMAND_NOTE not in got["remote"] and ARGUMENT_NOTE not in got["remote"]
    assert not [s for s in ("PW1", "PW2", "PW3", "PW4") if s in json.dumps(written)]


def test_values_left_for_vs_code_or_the_author_to_fill_in_are_noted(tmp_path: Path) -> None:
    # A catalogue's config written for VS Code (its `${input:...}` prompts) with the
    # author's choice of URL left open: Claude Code would pass both on as written.
    servers = {
        "vscode-style": {
            "type": "http",
            "url": "https://mcp.example.com/{minimal | full}",
            "headers": {"Authorization": "Bearer ${input:example-api-key}"},
        },
        "plain": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${API_KEY}"}},
        # the author's placeholders in a header and an environment value (real catalogue
        # entries: huggingface's "Bearer <YOUR_HF_TOKEN>", "YOUR_API_KEY")
        "hf": {"type": "http", "url": "https://hf.co/mcp", "headers": {"Authorization": "Bearer <YOUR_HF_TOKEN>"}},
        "nia": {"command": "nia-mcp", "env": {"NIA_API_KEY": "YOUR_API_KEY", "NIA_REGION": "eu"}},
    }
    path = tmp_path / "repo" / "mcps" / "servers.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"mcpServers": servers}))
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(idx, [tmp_path / "repo"], "skills", calibrate=False)
        got = reasons(idx, tmp_path / "project")
    finally:
        idx.close()
    assert got["plain"] == ""
    assert "VS Code's ${input:...} prompts (example-api-key), which Claude Code does not read" in got["vscode-style"]
    assert "its URL holds a placeholder ('https://mcp.example.com/{minimal | full}')" in got["vscode-style"]
    assert "its headers Authorization still hold(s) a placeholder value" in got["hf"]
    assert "its env NIA_API_KEY still hold(s) a placeholder value" in got["nia"] and "NIA_REGION" not in got["nia"]
    written = json.loads((tmp_path / "project/.mcp.json").read_text())["mcpServers"]
    assert written["vscode-style"] == servers["vscode-style"]  # installed as written, with the notes
