"""A marketplace entry whose plugin is kept elsewhere (`plugin_manifests`): an object
``source`` (``{"source": "github", "repo": "a/b"}``, ``{"source": "url", "url": ...}``:
https://code.claude.com/docs/en/plugin-marketplaces#plugin-sources), or a string one
naming no folder of the repository. It is a plugin node without members, whose files the
index does not hold. The hooks and MCP servers such an entry holds inline were left out
without a word, while an entry of a local plugin has them indexed (`inline_members`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.ingest.result import IngestResult, Unread
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind, NodeKind

MARKET = ".claude-plugin/marketplace.json"
HOOKS = {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff check ."}]}]}
SERVERS = {"tracker": {"command": "npx", "args": ["-y", "@acme/tracker-mcp"]}}


def _ingest(tmp_path: Path, *entries: dict[str, Any]) -> IngestResult:
    root = tmp_path / "repo"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / MARKET).write_text(json.dumps({"name": "m", "owner": {"name": "A"}, "plugins": list(entries)}))
    (root / "skills/notes").mkdir(parents=True)
    (root / "skills/notes/SKILL.md").write_text("---\nname: notes\ndescription: Keeps notes.\n---\n# Notes\n")
    return ingest_skill_repo(root)


@pytest.mark.parametrize(("source", "where"), [
    ({"source": "github", "repo": "acme/guard"}, "github acme/guard"),
    ({"source": "url", "url": "https://git.example/guard.git"}, "url https://git.example/guard.git"),
])
@pytest.mark.parametrize("inline", [{"hooks": HOOKS}, {"mcpServers": SERVERS}, {"hooks": HOOKS, "mcpServers": SERVERS}])
def test_inline_members_of_a_plugin_kept_elsewhere_are_said_once(
    tmp_path: Path, source: dict[str, str], where: str, inline: dict[str, Any]
) -> None:
    result = _ingest(tmp_path, {"name": "guard", "source": source, **inline})
    ids = {n.id.removeprefix("repo/"): n for n in result.nodes}
    assert ids[f"{MARKET}#guard"].kind is NodeKind.PLUGIN  # the plugin, from its entry alone
    assert not [e for e in result.edges if e.kind is EdgeKind.PART_OF and e.target == f"repo/{MARKET}#guard"]
    (problem,) = result.problems
    assert problem.path == str(tmp_path / "repo" / MARKET) and problem.keeps is Unread.NOTHING
    fields = " and ".join(f for f in ("hooks", "mcpServers") if f in inline)
    assert problem.message == (
        f"plugins[0]: plugin 'guard' is kept elsewhere ({where}), not in this folder: the {fields} its entry "
        "holds inline are not indexed, as none of its files are; index a checkout of it to search and install them"
    )


def test_a_plugin_kept_elsewhere_without_inline_members_is_a_plugin_node_and_no_problem(tmp_path: Path) -> None:
    result = _ingest(tmp_path, {"name": "guard", "source": {"source": "github", "repo": "acme/guard"},
                                "description": "Guards edits."})
    (plugin,) = [n for n in result.nodes if n.kind is NodeKind.PLUGIN]
    assert plugin.id == f"repo/{MARKET}#guard" and plugin.attrs["marketplace_source"] == {"source": "github", "repo": "acme/guard"}
    assert result.problems == []


def test_a_string_source_naming_no_folder_says_its_inline_members_in_its_one_problem(tmp_path: Path) -> None:
    result = _ingest(tmp_path, {"name": "guard", "source": "./plugins/guard", "hooks": HOOKS})
    (problem,) = result.problems
    assert problem.message == (
        "plugins[0]: plugin 'guard' source './plugins/guard' is no folder of this repository; indexed from its "
        "entry alone, the hooks it holds inline left out; index a checkout holding that folder to search and "
        "install them"
    )
