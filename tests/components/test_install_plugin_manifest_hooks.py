"""Installing the hooks a ``plugin.json`` declares (inline, or by a path of its own): the
entries written are what Claude Code's settings.json reads, the command as the author wrote
it (its secret too, which the index keeps redacted), its ``${CLAUDE_PLUGIN_ROOT}`` script
copied and pointed at, as for a plugin's ``hooks/hooks.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_schema import settings_problems
from files import write_file

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

TOKEN = "sk-ant-api03-" + "b" * 40
HOOKS = {
    "PostToolUse": [
        {
            "matcher": "Edit",
            "hooks": [
                {"type": "command", "command": '"${CLAUDE_PLUGIN_ROOT}"/scripts/fmt.sh'},
                {"type": "command", "command": f"notify --api-key {TOKEN}"},
            ],
        }
    ]
}


@pytest.mark.parametrize(
    ("manifest_hooks", "hook_id"),
    [
        (HOOKS, "mkt/plugins/p1/.claude-plugin/plugin.json#hooks"),
        ("./config/hooks.json", "mkt/plugins/p1/config/hooks.json"),
    ],
)
def test_a_manifest_hook_installs_as_claude_code_reads_it(
    tmp_path: Path, manifest_hooks: object, hook_id: str
) -> None:
    plugin = tmp_path / "mkt/plugins/p1"
    write_file(plugin, ".claude-plugin/plugin.json", {"name": "p1", "hooks": manifest_hooks})
    write_file(plugin, "config/hooks.json", {"hooks": HOOKS})
    write_file(plugin, "scripts/fmt.sh", "#!/bin/sh\necho formatted\n")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [tmp_path / "mkt"], "skills")
    assert not [p for s in run.sources for p in s.problems]
    assert TOKEN not in json.dumps(index.nodes[hook_id].attrs)
    project = tmp_path / "proj"
    project.mkdir()
    plan = install(index, ["mkt/plugins/p1"], project)
    index.close()
    (hook,) = [c for c in plan.components if c.kind == "hook"]
    assert (hook.id, hook.status) == (hook_id, "install"), hook.reason
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert settings_problems(settings) == []
    (group,) = settings["hooks"]["PostToolUse"]
    assert group["matcher"] == "Edit"
    assert [h["command"] for h in group["hooks"]] == [
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/scripts/fmt.sh',
        f"notify --api-key {TOKEN}",  # read from the author's file, not the redacted index
    ]
    assert (project / ".claude/hooks/scripts/fmt.sh").read_text() == "#!/bin/sh\necho formatted\n"
