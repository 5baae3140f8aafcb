"""Claude Code's packaging: plugin marketplaces and manifests, settings-fragment hooks with
their scripts, ``.mcp.json`` servers below ``mcps/`` (synthetic repositories here; the
real ones are read in test_real_packaging.py)."""

from __future__ import annotations

import json
from pathlib import Path

from files import write_file

from skill_retriever.ingest.result import IngestResult
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind, Node, NodeKind, validate_graph


def _md(name: str, description: str = "A component.") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\nBody of {name}.\n"


def _by_name(result: IngestResult, kind: NodeKind) -> dict[str, Node]:
    return {n.name: n for n in result.nodes if n.kind is kind}


def _part_of(result: IngestResult) -> set[tuple[str, str]]:
    names = {n.id: n.name for n in result.nodes}
    return {(names[e.source], names[e.target]) for e in result.edges if e.kind is EdgeKind.PART_OF}


# -- plugin marketplaces ---------------------------------------------------------------------

MARKETPLACE = {
    "name": "team-market",
    "owner": {"name": "Team"},
    "metadata": {"pluginRoot": "./plugins"},
    "plugins": [
        {
            "name": "docs-kit",
            "source": "./plugins/docs-kit",
            "description": "Entry description.",
            "version": "1.0.0",
            "author": {"name": "Entry Author", "email": "a@example.org"},
            "category": "documentation",
            "homepage": "https://example.org/docs-kit",
            "license": "MIT",
        },
        {
            "name": "lint-kit",
            "source": "lint-kit",
            "description": "Linters.",
            "category": "quality",
        },
        {
            "name": "far-away",
            "source": {"source": "github", "repo": "someone/far-away"},
            "description": "Kept in another repository.",
            "category": "memory",
            "keywords": ["recall", "sessions"],
        },
        {"name": "docs-kit", "source": "./plugins/other", "description": "Listed twice."},
        {"description": "No name."},
        {"name": "ghost", "source": "./plugins/ghost", "description": "No such folder."},
    ],
}


def _market_repo(root: Path) -> None:
    write_file(root, ".claude-plugin/marketplace.json", MARKETPLACE)
    write_file(
        root,
        "plugins/docs-kit/.claude-plugin/plugin.json",
        {
            "name": "docs-kit",
            "version": "1.1.0",
            "description": "Manifest description.",
            "author": {"name": "Manifest Author"},
        },
    )
    write_file(root, "plugins/docs-kit/skills/write-docs/SKILL.md", _md("write-docs"))
    write_file(root, "plugins/docs-kit/agents/doc-writer.md", _md("doc-writer"))
    write_file(root, "plugins/docs-kit/commands/docs.md", _md("docs-command"))
    write_file(
        root,
        "plugins/docs-kit/hooks/hooks.json",
        {
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]},
            "description": "Say when done.",
        },
    )
    write_file(root, "plugins/docs-kit/.mcp.json", {"mcpServers": {"docs-search": {"command": "ds"}}})
    write_file(root, "plugins/lint-kit/agents/linter.md", _md("linter"))
    write_file(root, "skills/loose/SKILL.md", _md("loose-skill"))


def test_marketplace_entries_become_plugins_merged_with_their_manifests(tmp_path: Path) -> None:
    root = tmp_path / "market"
    _market_repo(root)
    result = ingest_skill_repo(root)
    validate_graph(result.nodes, result.edges)
    plugins = _by_name(result, NodeKind.PLUGIN)
    assert set(plugins) == {"docs-kit", "lint-kit", "far-away", "ghost"}
    docs = plugins["docs-kit"]
    assert docs.id == "market/plugins/docs-kit"
    # plugin.json wins for the fields it has; the entry fills in the rest.
    assert docs.description == "Manifest description."
    assert docs.attrs["version"] == "1.1.0" and docs.attrs["author"] == "Manifest Author"
    assert docs.attrs["category"] == "documentation" and docs.attrs["license"] == "MIT"
    assert docs.attrs["homepage"] == "https://example.org/docs-kit"
    assert docs.attrs["marketplace"] == "team-market"
    assert docs.attrs["marketplace_source"] == "./plugins/docs-kit"
    assert "Category: documentation" in docs.text and "write-docs (skill)" in docs.text
    # pluginRoot is put before a bare source name.
    assert plugins["lint-kit"].id == "market/plugins/lint-kit"
    far = plugins["far-away"]
    assert far.id == "market/.claude-plugin/marketplace.json#far-away"
    assert far.attrs["marketplace_source"] == {"source": "github", "repo": "someone/far-away"}
    assert set(far.tags) == {"memory", "recall", "sessions"}
    assert plugins["ghost"].id == "market/.claude-plugin/marketplace.json#ghost"


def test_every_component_of_a_plugin_folder_is_part_of_it(tmp_path: Path) -> None:
    root = tmp_path / "market"
    _market_repo(root)
    result = ingest_skill_repo(root)
    members = {src for src, dst in _part_of(result) if dst == "docs-kit"}
    assert members == {"write-docs", "doc-writer", "docs-command", "docs-kit-hooks", "docs-search"}  # hooks.json: named after its plugin
    assert {src for src, dst in _part_of(result) if dst == "lint-kit"} == {"linter"}
    assert not any(src == "loose-skill" for src, _ in _part_of(result))
    kinds = {n.kind for n in result.nodes if n.name in members}
    assert kinds == {
        NodeKind.SKILL,
        NodeKind.AGENT,
        NodeKind.COMMAND,
        NodeKind.HOOK,
        NodeKind.MCP_SERVER,
    }


def test_bad_marketplace_entries_are_problems_of_the_marketplace(tmp_path: Path) -> None:
    root = tmp_path / "market"
    _market_repo(root)
    result = ingest_skill_repo(root)
    market = str(root / ".claude-plugin" / "marketplace.json")
    assert {p.path for p in result.problems} == {market}
    messages = sorted(p.message for p in result.problems)
    assert len(messages) == 3
    assert any("plugins[3]" in m and "twice" in m for m in messages)
    assert any("plugins[4]" in m and "needs a name" in m for m in messages)
    assert any("plugins[5]" in m and "'./plugins/ghost'" in m for m in messages)


def test_unreadable_marketplace_leaves_its_root_unindexed(tmp_path: Path) -> None:
    """Its entries say who may see their plugins: read without them, the folder was a bare
    plugin, public with its members (`tests/ingest/test_unreadable_marketplace.py`)."""
    root = tmp_path / "r"
    write_file(root, ".claude-plugin/marketplace.json", '{"plugins": [NaN]}')
    write_file(root, "plugins/p/agents/a.md", _md("a-agent"))
    result = ingest_skill_repo(root)
    assert [p.path for p in result.problems] == [str(root / ".claude-plugin/marketplace.json"), str(root)]
    assert result.problems[0].message.startswith("marketplace not read: ")
    assert result.nodes == []


# -- hooks as settings.json fragments ----------------------------------------------------------

FRAGMENT = {
    "description": "Show a timeline of the session.",
    "supportingFiles": [
        {"source": "timeline/app.js", "destination": "~/.claude/scripts/timeline/app.js"}
    ],
    "hooks": {
        "SessionStart": [
            {
                "matcher": "*",
                "hooks": [
                    {
                        "type": "command",
                        "command": 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/timeline.py" --start',
                        "timeout": 30,
                    }
                ],
            }
        ],
        "PostToolUse": [
            {"hooks": [{"type": "command", "command": "bash ../shared/notify.sh 2>/dev/null"}]},
            {"matcher": "Bash", "hooks": [{"type": "agent", "prompt": "Check the command."}]},
        ],
    },
}


def _hook_repo(root: Path) -> None:
    write_file(root, "hooks/monitoring/timeline.json", FRAGMENT)
    write_file(root, "hooks/monitoring/timeline.py", "print('timeline')\n")
    write_file(root, "hooks/monitoring/timeline/app.js", "// app\n")
    write_file(root, "hooks/monitoring/timeline/index.html", "<html></html>\n")
    write_file(root, "hooks/shared/notify.sh", "echo hi\n")
    write_file(root, "hooks/monitoring/unrelated.sh", "echo unrelated\n")
    write_file(root, "hooks/PATTERNS.json", {"patterns": {"log": {"desc": "a pattern"}}})
    write_file(
        root,
        "hooks/flat.json",
        {"description": "Flat form.", "event": "Stop", "command": "make test"},
    )
    write_file(
        root,
        "hooks/broken.json",
        {"description": "d", "hooks": {"Stop": [{"matcher": 3, "hooks": []}]}},
    )


def test_settings_fragment_hook_keeps_its_hooks_and_scripts(tmp_path: Path) -> None:
    root = tmp_path / "hooks-repo"
    _hook_repo(root)
    result = ingest_skill_repo(root)
    hooks = _by_name(result, NodeKind.HOOK)
    timeline = hooks["timeline"]
    written = json.loads((root / "hooks/monitoring/timeline.json").read_text(encoding="utf-8"))
    assert timeline.attrs["hooks"] == written["hooks"]  # exactly what settings.json takes
    assert timeline.attrs["supporting_files"] == written["supportingFiles"]
    assert timeline.attrs["scripts"] == [
        "../shared/notify.sh",  # named by a relative path in a command
        "timeline.py",  # the same stem
        "timeline/app.js",  # the same-stem folder
        "timeline/index.html",
    ]
    for rel in timeline.attrs["scripts"]:
        assert (root / "hooks/monitoring" / rel).is_file()
    assert "On SessionStart for tools matching *" in timeline.text
    assert "asks a model: Check the command." in timeline.text
    assert [r["event"] for r in timeline.attrs["runs"]] == ["SessionStart", "PostToolUse"]


def test_flat_hooks_are_converted_and_non_hooks_skipped(tmp_path: Path) -> None:
    root = tmp_path / "hooks-repo"
    _hook_repo(root)
    result = ingest_skill_repo(root)
    hooks = _by_name(result, NodeKind.HOOK)
    assert set(hooks) == {"timeline", "flat"}  # PATTERNS.json defines no hook: no node
    assert hooks["flat"].attrs["hooks"] == {
        "Stop": [{"hooks": [{"type": "command", "command": "make test"}]}]
    }
    assert hooks["flat"].attrs["scripts"] == []
    (problem,) = result.problems  # only the malformed fragment
    assert problem.path == str(root / "hooks/broken.json")
    assert "hooks.Stop[0].matcher" in problem.message and "settings.json" in problem.message


# -- MCP servers below mcps/ ---------------------------------------------------------------


def test_servers_anywhere_below_mcps_keep_what_mcp_json_needs_and_no_secret(tmp_path: Path) -> None:
    root = tmp_path / "servers"
    write_file(
        root,
        "components/mcps/database/pg.json",
        {
            "mcpServers": {
                "postgres": {
                    "description": "Query Postgres.",
                    "command": "npx",
                    "args": ["-y", "pg-mcp", "--password", "SECRET1"],
                    "env": {"PG_URL": "postgresql://u:SECRET2@db/x"},
                }
            }
        },
    )
    write_file(
        root,
        "components/mcps/search/remote.json",
        {
            "mcpServers": {
                "search": {
                    "description": "Hosted search.",
                    "type": "http",
                    "url": "https://search.example/mcp?token=SECRET3",
                    "headers": {"Authorization": "Bearer SECRET4"},
                }
            }
        },
    )
    result = ingest_skill_repo(root)
    assert result.problems == []
    servers = _by_name(result, NodeKind.MCP_SERVER)
    pg, search = servers["postgres"], servers["search"]
    assert pg.id == "servers/components/mcps/database/pg.json#postgres"
    assert pg.attrs["command"] == "npx" and pg.attrs["env_keys"] == ["PG_URL"]
    assert pg.attrs["args"] == ["-y", "pg-mcp", "--password", "[redacted]"]
    assert search.attrs["transport"] == "http"
    assert search.attrs["url"] == "https://search.example/mcp"
    assert search.attrs["header_keys"] == ["Authorization"]
    dump = json.dumps([n.to_dict() for n in result.nodes])
    assert not any(f"SECRET{i}" in dump for i in range(1, 5))


def test_a_hooks_or_mcps_folder_indexed_by_itself_reads_as_such(tmp_path: Path) -> None:
    """A user who points `index` at the hooks/ or mcps/ folder itself gets its hooks and
    servers (the folder's own name says what its files are)."""
    import json as _json

    from skill_retriever.ingest.skills import ingest_skill_repo

    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "lint-on-save.json").write_text(_json.dumps({
        "description": "Lint after every edit",
        "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff check ."}]}]},
    }), encoding="utf-8")
    mcps = tmp_path / "mcps"
    mcps.mkdir()
    (mcps / "db.json").write_text(_json.dumps({"mcpServers": {"db": {"command": "db-mcp", "args": []}}}), encoding="utf-8")
    got_hooks, got_mcps = ingest_skill_repo(hooks), ingest_skill_repo(mcps)
    assert [n.kind.value for n in got_hooks.nodes] == ["hook"] and not got_hooks.problems
    assert [n.kind.value for n in got_mcps.nodes] == ["mcp_server"] and not got_mcps.problems


def test_a_script_named_after_a_quoted_variable_is_found(tmp_path: Path) -> None:
    """`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh` (the quoting Claude Code's docs use)
    names the script beside the hook, as the unquoted form does."""
    root = tmp_path / "hooks-repo"
    for name, command in (("quoted", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh --strict'),
                          ("plain", "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh --strict")):
        write_file(root, f"hooks/{name}/{name}.json", {
            "description": f"{name} guard",
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]},
        })
        write_file(root, f"hooks/{name}/guard.sh", "echo guard\n")
    hooks = _by_name(ingest_skill_repo(root), NodeKind.HOOK)
    assert hooks["quoted"].attrs["scripts"] == hooks["plain"].attrs["scripts"] == ["guard.sh"]
