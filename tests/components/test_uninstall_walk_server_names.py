"""An MCP server by the name the user sees in ``.mcp.json``, and close names for a name
nothing installed answers to, found walking install and uninstall over davila7's
catalogue: a server whose name is no key Claude Code takes (``DeepGraph React MCP``) is
written as ``.mcp.json#DeepGraph-React-MCP``, and ``uninstall DeepGraph-React-MCP`` was
refused, listing the first ten ids of the record, none close to it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file
from guard_plugin import HOOK_ID, indexed, write_guard_plugin

from skill_retriever.components.install import InstallError, install, uninstall
from skill_retriever.stores.index import Index

SERVER = "DeepGraph React MCP"


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[Path]:
    src = tmp_path / "src" / "cat"
    write_guard_plugin(src)
    write_file(src, "mcps/react.json", {"mcpServers": {SERVER: {"command": "npx", "args": ["-y", "deepgraph-react"]}}})
    write_file(src, "mcps/vue.json", {"mcpServers": {"DeepGraph Vue MCP": {"command": "npx", "args": ["dg-vue"]}}})
    yield indexed(src, tmp_path / "index")


def test_a_server_uninstalls_by_the_name_it_has_in_mcp_json(index_dir: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    index = Index.open(index_dir)
    try:
        plan = install(index, [SERVER, "DeepGraph Vue MCP"], project)
    finally:
        index.close()
    assert plan.ok
    servers = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert sorted(servers) == ["DeepGraph-React-MCP", "DeepGraph-Vue-MCP"]
    report = uninstall(["deepgraph-react-mcp"], project)  # the key, case aside, as names are compared
    assert report.ok and report.removed == [".mcp.json#DeepGraph-React-MCP"], report
    assert any(f"it is the name of mcp server {SERVER} (id cat/mcps/react.json#{SERVER}) in .mcp.json" in n for n in report.notes), report.notes
    servers = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert sorted(servers) == ["DeepGraph-Vue-MCP"]


def test_an_unknown_name_is_offered_the_close_installed_names(index_dir: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    index = Index.open(index_dir)
    try:
        assert install(index, [SERVER, "DeepGraph Vue MCP", "guard"], project).ok
    finally:
        index.close()
    with pytest.raises(InstallError) as caught:
        uninstall(["DeepGraph-Vue"], project)
    said = str(caught.value)
    assert "no component 'DeepGraph-Vue' installed" in said
    assert "close names installed: DeepGraph Vue MCP" in said, said
    assert HOOK_ID not in said, said  # not the record's first ids, unrelated to the name
