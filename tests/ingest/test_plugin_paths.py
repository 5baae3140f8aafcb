"""The component paths a ``plugin.json`` declares (`plugin_paths`): inline hooks, hooks and
mcpServers files, custom commands, agents and skills folders, read besides the default
folders (a commands or agents path instead of its default folder) and linked to their
plugin; paths leaving the plugin refused."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from files import write_file

from skill_retriever.ingest.result import IngestResult, Unread
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind, Node, NodeKind

PLUGIN = "plugins/p1"
MANIFEST = f"{PLUGIN}/.claude-plugin/plugin.json"
SECRET = "sk-ant-api03-" + "a" * 40
HOOKS = {
    "PostToolUse": [
        {
            "matcher": "Edit",
            "hooks": [{"type": "command", "command": f"curl -H 'x-api-key: {SECRET}' https://x.example/h"}],
        }
    ]
}


def _md(name: str, description: str = "A component.") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\nBody of {name}.\n"


def _repo(tmp_path: Path, manifest: dict[str, Any], **files: str | dict[str, Any]) -> IngestResult:
    root = tmp_path / "repo"
    write_file(root, MANIFEST, {"name": "p1", "description": "The plugin's own words.", **manifest})
    for rel, content in files.items():
        write_file(root, f"{PLUGIN}/{rel}", content)
    return ingest_skill_repo(root)


def _nodes(result: IngestResult) -> dict[str, Node]:
    return {n.id.removeprefix("repo/"): n for n in result.nodes}


def _part_of_plugin(result: IngestResult) -> set[str]:
    return {e.source.removeprefix("repo/") for e in result.edges
            if e.kind is EdgeKind.PART_OF and e.target == f"repo/{PLUGIN}"}


def test_inline_hooks_are_one_hook_of_the_plugin_with_secrets_redacted(tmp_path: Path) -> None:
    result = _repo(tmp_path, {"hooks": HOOKS})
    nodes = _nodes(result)
    hook = nodes[f"{MANIFEST}#hooks"]
    assert hook.kind is NodeKind.HOOK
    assert hook.name == "p1-hooks"  # as plugins/p1/hooks/hooks.json is named
    assert hook.attrs["plugin"] == "p1"
    assert f"{MANIFEST}#hooks" in _part_of_plugin(result)
    assert SECRET not in json.dumps(hook.attrs) and SECRET not in hook.text
    command = hook.attrs["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    assert "[redacted]" in command and command.startswith("curl")
    assert "own words" not in hook.text  # the plugin's description is not the hook's
    assert "On PostToolUse for tools matching Edit" in hook.text
    assert SECRET not in json.dumps(nodes[PLUGIN].attrs)
    assert result.problems == []


@pytest.mark.parametrize("declared", ["./config/hooks.json", ["./config/hooks.json", "./config/guard.json"]])
def test_hooks_paths_are_read_as_hook_files(tmp_path: Path, declared: str | list[str]) -> None:
    result = _repo(
        tmp_path,
        {"hooks": declared},
        **{"config/hooks.json": {"hooks": HOOKS}, "config/guard.json": {"hooks": {"Stop": [
            {"hooks": [{"type": "command", "command": "echo stop"}]}]}}},
    )
    nodes = _nodes(result)
    hook = nodes[f"{PLUGIN}/config/hooks.json"]
    assert (hook.kind, hook.name, hook.attrs["plugin"]) == (NodeKind.HOOK, "p1-hooks", "p1")
    assert SECRET not in json.dumps(hook.attrs)
    assert f"{PLUGIN}/config/hooks.json" in _part_of_plugin(result)
    assert (f"{PLUGIN}/config/guard.json" in nodes) is isinstance(declared, list)
    if isinstance(declared, list):
        assert nodes[f"{PLUGIN}/config/guard.json"].name == "guard"
    assert result.problems == []


def test_custom_commands_and_agents_paths_replace_the_default_folders_skills_paths_add(tmp_path: Path) -> None:
    """Claude Code's plugins reference, "Path behavior rules"
    (https://code.claude.com/docs/en/plugins-reference#path-behavior-rules): a ``commands``
    or ``agents`` path replaces the default folder, which is then not scanned; a ``skills``
    path adds to ``skills/``. Both default folders were read as well, so a plugin indexed
    commands and agents Claude Code never loads."""
    result = _repo(
        tmp_path,
        {
            "commands": ["./custom/cmds", "./extra/deploy.md"],
            "agents": "./team/",
            "skills": ["./more-skills/"],
        },
        **{
            "commands/default.md": "---\ndescription: The default folder's.\n---\n\nDo it.\n",
            "commands/sub/old.md": "---\ndescription: An older one.\n---\n\nDo it.\n",
            "agents/old-agent.md": _md("old-agent", "Not loaded."),
            "custom/cmds/git/commit.md": "---\ndescription: Commit the work.\n---\n\nCommit.\n",
            "custom/cmds/notes.txt": "not a command",
            "extra/deploy.md": "---\ndescription: Deploy it.\n---\n\nDeploy.\n",
            "team/reviewer.md": _md("reviewer", "Reviews diffs."),
            "skills/base/SKILL.md": _md("base", "The default folder's skill."),
            "more-skills/pdf/SKILL.md": _md("pdf", "Reads PDFs."),
        },
    )
    nodes = _nodes(result)
    kinds = {rel: nodes[f"{PLUGIN}/{rel}"].kind for rel in (
        "custom/cmds/git/commit.md", "extra/deploy.md",
        "team/reviewer.md", "skills/base/SKILL.md", "more-skills/pdf/SKILL.md")}
    assert kinds == {
        "custom/cmds/git/commit.md": NodeKind.COMMAND,
        "extra/deploy.md": NodeKind.COMMAND,
        "team/reviewer.md": NodeKind.AGENT,
        "skills/base/SKILL.md": NodeKind.SKILL,
        "more-skills/pdf/SKILL.md": NodeKind.SKILL,
    }
    for rel in ("commands/default.md", "commands/sub/old.md", "agents/old-agent.md"):
        assert f"{PLUGIN}/{rel}" not in nodes, rel
    commit = nodes[f"{PLUGIN}/custom/cmds/git/commit.md"].attrs
    # the folders below the declared one are its namespace, as below commands/
    assert (commit["command_namespace"], commit["command_stem"]) == ("p1/git", "commit")
    assert nodes[f"{PLUGIN}/extra/deploy.md"].attrs["command_namespace"] == "p1"
    assert {f"{PLUGIN}/{rel}" for rel in kinds} <= _part_of_plugin(result)
    # said once per folder, against the manifest, as Claude Code warns in `claude plugin list`
    said = sorted(p.message for p in result.problems)
    assert [p.path for p in result.problems] == [str(tmp_path / "repo" / MANIFEST)] * 2
    assert all(p.unread is Unread.NOTHING for p in result.problems)
    assert "'agents' replaces the default agents/ folder" in said[0] and "1 file" in said[0]
    assert "'commands' replaces the default commands/ folder" in said[1] and "2 files" in said[1]
    assert "list './commands/' in 'commands' to keep them" in said[1]


def test_a_commands_path_into_the_default_folder_keeps_only_what_it_names(tmp_path: Path) -> None:
    result = _repo(
        tmp_path,
        {"commands": ["./commands/deploy.md"]},
        **{"commands/deploy.md": "---\ndescription: Deploy.\n---\n\nGo.\n",
           "commands/other.md": "---\ndescription: Other.\n---\n\nGo.\n"},
    )
    nodes = _nodes(result)
    assert nodes[f"{PLUGIN}/commands/deploy.md"].kind is NodeKind.COMMAND
    assert f"{PLUGIN}/commands/other.md" not in nodes
    assert len(result.problems) == 1 and "1 file" in result.problems[0].message


def test_a_commands_path_naming_a_skill_folder_leaves_the_skill_whole(tmp_path: Path) -> None:
    result = _repo(
        tmp_path,
        {"commands": ["./skills/commit/"]},
        **{"skills/commit/SKILL.md": _md("commit"), "skills/commit/reference.md": _md("ref", "Details.")},
    )
    nodes = _nodes(result)
    assert nodes[f"{PLUGIN}/skills/commit/SKILL.md"].kind is NodeKind.SKILL
    assert nodes[f"{PLUGIN}/skills/commit/reference.md"].kind is NodeKind.OTHER  # as without the path
    assert "reference.md" in nodes[f"{PLUGIN}/skills/commit/SKILL.md"].attrs["files"]


def test_mcp_servers_path_is_read_as_a_servers_file(tmp_path: Path) -> None:
    servers = {"mcpServers": {"db": {"command": "node", "args": ["db.js", "--token", SECRET]}}}
    result = _repo(tmp_path, {"mcpServers": "./config/servers.json"}, **{"config/servers.json": servers})
    server = _nodes(result)[f"{PLUGIN}/config/servers.json#db"]
    assert (server.kind, server.name, server.attrs["plugin"]) == (NodeKind.MCP_SERVER, "db", "p1")
    assert SECRET not in json.dumps(server.attrs)
    assert result.problems == []


def test_inline_servers_and_hooks_together(tmp_path: Path) -> None:
    result = _repo(tmp_path, {"hooks": HOOKS, "mcpServers": {"db": {"command": "node"}}})
    nodes = _nodes(result)
    assert nodes[f"{MANIFEST}#db"].kind is NodeKind.MCP_SERVER
    assert nodes[f"{MANIFEST}#hooks"].kind is NodeKind.HOOK


def test_a_server_named_hooks_keeps_its_id_and_the_hook_gets_another(tmp_path: Path) -> None:
    servers = {"hooks": {"command": "node"}, "hooks-1": {"command": "node"}}
    result = _repo(tmp_path, {"hooks": HOOKS, "mcpServers": servers})
    ids = [n.id for n in result.nodes]
    assert len(ids) == len(set(ids)) == 4
    nodes = _nodes(result)
    assert nodes[f"{MANIFEST}#hooks"].kind is NodeKind.MCP_SERVER
    assert nodes[f"{MANIFEST}#hooks-2"].kind is NodeKind.HOOK


def test_a_declared_default_folder_is_read_once(tmp_path: Path) -> None:
    # wshobson/agents' pptx-deck-creation declares "agents": ["./agents"] and its skills
    result = _repo(
        tmp_path,
        {"agents": ["./agents"], "skills": ["./skills/a"], "hooks": "./hooks/hooks.json", "mcpServers": "./.mcp.json"},
        **{
            "agents/x.md": _md("x"),
            "skills/a/SKILL.md": _md("a"),
            "hooks/hooks.json": {"hooks": HOOKS},
            ".mcp.json": {"mcpServers": {"db": {"command": "node"}}},
        },
    )
    assert sorted(_nodes(result)) == sorted([
        PLUGIN, f"{PLUGIN}/agents/x.md", f"{PLUGIN}/skills/a/SKILL.md",
        f"{PLUGIN}/hooks/hooks.json", f"{PLUGIN}/.mcp.json#db",
    ])
    assert _nodes(result)[f"{PLUGIN}/hooks/hooks.json"].name == "p1-hooks"
    assert result.problems == []


@pytest.mark.parametrize("path", ["../p2/hooks.json", "./a/../../p2/hooks.json", "/etc/passwd"])
def test_a_path_leaving_the_plugin_is_refused_and_never_read(tmp_path: Path, path: str) -> None:
    root = tmp_path / "repo"
    write_file(root, "plugins/p2/hooks.json", {"hooks": HOOKS})  # in the repository, not in p1
    result = _repo(tmp_path, {"hooks": path, "commands": path})
    assert sorted(_nodes(result)) == [PLUGIN]
    assert len(result.problems) == 2
    for problem in result.problems:
        assert problem.path == str(root / MANIFEST)
        assert path in problem.message and "refused" in problem.message
        assert problem.keeps is Unread.NOTHING


def test_a_windows_path_is_refused_saying_why(tmp_path: Path) -> None:
    result = _repo(tmp_path, {"commands": ".\\custom"}, **{"custom/x.md": _md("x")})
    assert _nodes(result)[f"{PLUGIN}/custom/x.md"].kind is NodeKind.OTHER  # as without the path
    (problem,) = result.problems
    assert "backslash" in problem.message and "refused" in problem.message


def test_a_plugin_indexed_as_the_root_reads_its_paths(tmp_path: Path) -> None:
    root = tmp_path / "p1"
    write_file(root, ".claude-plugin/plugin.json", {"name": "p1", "hooks": HOOKS, "agents": "./team"})
    write_file(root, "team/reviewer.md", _md("reviewer"))
    nodes = {n.id: n for n in ingest_skill_repo(root).nodes}
    assert nodes["p1/.claude-plugin/plugin.json#hooks"].name == "p1-hooks"
    assert nodes["p1/team/reviewer.md"].kind is NodeKind.AGENT


def test_a_link_leading_out_of_the_plugin_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_file(root, "shared/hooks.json", {"hooks": HOOKS})
    (root / PLUGIN / "config").mkdir(parents=True)
    os.symlink(root / "shared/hooks.json", root / PLUGIN / "config/hooks.json")
    result = _repo(tmp_path, {"hooks": "./config/hooks.json"})
    assert f"{PLUGIN}/config/hooks.json" not in _nodes(result)
    (problem,) = [p for p in result.problems if p.path == str(root / MANIFEST)]
    assert "symbolic link" in problem.message and "refused" in problem.message


def test_missing_paths_bad_types_and_bad_json_are_warnings_and_the_rest_is_read(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    result = _repo(
        tmp_path,
        {"hooks": "./config/hooks.json", "agents": "./nowhere", "commands": 3, "skills": ["./s", 4],
         "mcpServers": "./config/not-a-hook.json"},
        **{"config/hooks.json": "{not json", "config/not-a-hook.json": "[1, 2]",
           "s/one/SKILL.md": _md("one"), "commands/kept.md": "---\ndescription: Kept.\n---\n\nKept.\n"},
    )
    nodes = _nodes(result)
    assert {n.kind for n in nodes.values()} == {NodeKind.PLUGIN, NodeKind.SKILL, NodeKind.COMMAND}
    by_path: dict[str, list[str]] = {}
    for p in result.problems:
        by_path.setdefault(p.path.removeprefix(f"{root}/"), []).append(p.message)
    assert "not valid JSON" in by_path[f"{PLUGIN}/config/hooks.json"][0]
    assert "MCP config must be a JSON object" in by_path[f"{PLUGIN}/config/not-a-hook.json"][0]
    messages = " | ".join(by_path[MANIFEST])
    assert "'./nowhere' names no file or folder" in messages
    assert "'commands' must be a path or a list of paths, got int" in messages
    assert "'skills' holds entries that are not paths" in messages


def test_a_hooks_file_without_hooks_is_a_problem_of_that_file(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    result = _repo(tmp_path, {"hooks": "./config/h.json"}, **{"config/h.json": {"patterns": []}})
    problem, kept = result.problems
    assert problem.path == str(root / PLUGIN / "config/h.json")
    assert "holds no 'hooks' mapping" in problem.message
    # made of nothing read today, a plugin that gives no 'access' would be public, where what
    # could not be read may be private: it stays as indexed before (`plugin_access`)
    assert sorted(_nodes(result)) == []
    assert kept.keeps is Unread.ITEM and kept.item == f"repo/{PLUGIN}" and "stays as indexed before" in kept.message
    with_access = _repo(tmp_path / "b", {"hooks": "./config/h.json", "access": ["team"]},
                        **{"config/h.json": {"patterns": []}})
    assert sorted(_nodes(with_access)) == [PLUGIN]


def test_malformed_inline_hooks_are_a_problem_and_the_plugin_stays(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    result = _repo(tmp_path, {"hooks": {"Stop": "echo"}}, **{"agents/x.md": _md("x")})
    assert sorted(_nodes(result)) == [PLUGIN, f"{PLUGIN}/agents/x.md"]
    (problem,) = result.problems
    assert problem.path == str(root / MANIFEST) and "hooks.Stop must be a list" in problem.message
    with_servers = _repo(tmp_path / "b", {"hooks": {"Stop": "echo"}, "mcpServers": {"db": {"command": "node"}}})
    assert f"{MANIFEST}#db" in _nodes(with_servers)
    (problem,) = with_servers.problems
    assert "inline hooks ignored" in problem.message


def _market(tmp_path: Path, entry: dict[str, Any], manifest: dict[str, Any] | None, **files: str | dict[str, Any]) -> IngestResult:
    root = tmp_path / "repo"
    write_file(root, ".claude-plugin/marketplace.json", {"name": "m", "plugins": [{"name": "p1", "source": f"./{PLUGIN}", **entry}]})
    if manifest is not None:
        write_file(root, MANIFEST, {"name": "p1", **manifest})
    for rel, content in files.items():
        write_file(root, f"{PLUGIN}/{rel}", content)
    return ingest_skill_repo(root)


@pytest.mark.parametrize("manifest", [{}, None], ids=["with-plugin.json", "strict-false-without"])
def test_a_marketplace_entry_s_component_paths_are_read_as_plugin_json_s(
    tmp_path: Path, manifest: dict[str, Any] | None
) -> None:
    """A plugin entry may carry plugin.json's component fields: merged with its plugin.json
    (``strict``, the default), or the whole definition (``"strict": false``, no plugin.json
    needed); its paths are relative to the plugin's folder
    (https://code.claude.com/docs/en/plugin-marketplaces#strict-mode). They were ignored:
    the entry's commands, agents and hooks files were no components of the plugin."""
    entry: dict[str, Any] = {"commands": ["./extra/"], "agents": "./team/", "hooks": "./config/hooks.json"}
    if manifest is None:
        entry["strict"] = False
    result = _market(tmp_path, entry, manifest, **{
        "extra/deploy.md": "---\ndescription: Deploy it.\n---\n\nDeploy.\n",
        "team/reviewer.md": _md("reviewer", "Reviews diffs."),
        "config/hooks.json": {"hooks": HOOKS},
        "commands/old.md": "---\ndescription: Replaced.\n---\n\nOld.\n",
    })
    nodes = _nodes(result)
    assert nodes[f"{PLUGIN}/extra/deploy.md"].kind is NodeKind.COMMAND
    assert nodes[f"{PLUGIN}/team/reviewer.md"].kind is NodeKind.AGENT
    assert nodes[f"{PLUGIN}/config/hooks.json"].kind is NodeKind.HOOK
    assert {f"{PLUGIN}/extra/deploy.md", f"{PLUGIN}/team/reviewer.md", f"{PLUGIN}/config/hooks.json"} <= _part_of_plugin(result)
    assert f"{PLUGIN}/commands/old.md" not in nodes  # replaced by the entry's commands path
    (said,) = result.problems
    assert said.path == str(tmp_path / "repo/.claude-plugin/marketplace.json")
    assert "'commands' replaces the default commands/ folder" in said.message


MARKET = ".claude-plugin/marketplace.json"


@pytest.mark.parametrize("manifest", [{}, None], ids=["with-plugin.json", "strict-false-without"])
def test_a_marketplace_entry_s_inline_hooks_and_servers_are_the_plugin_s_members(
    tmp_path: Path, manifest: dict[str, Any] | None
) -> None:
    """An entry may hold hooks and MCP servers inline, as a plugin.json may
    (https://code.claude.com/docs/en/plugin-marketplaces#plugin-entries): they were only
    warned about, no items, so no search found them and installing the plugin left them
    out. Now they are read by the code that reads a plugin.json's: ids in the marketplace
    file, one per plugin entry, PART_OF the plugin, secrets redacted."""
    entry: dict[str, Any] = {"hooks": HOOKS, "mcpServers": {"db": {"command": "node", "args": ["--token", SECRET]}}}
    if manifest is None:
        entry["strict"] = False
    result = _market(tmp_path, entry, manifest, **{"scripts/fmt.sh": "#!/bin/sh\n"})
    nodes = _nodes(result)
    hook, server = nodes[f"{MARKET}#p1#hooks"], nodes[f"{MARKET}#p1#db"]
    assert (hook.kind, hook.name, hook.attrs["plugin"]) == (NodeKind.HOOK, "p1-entry-hooks", "p1")
    assert (server.kind, server.name, server.attrs["plugin"]) == (NodeKind.MCP_SERVER, "db", "p1")
    assert {f"{MARKET}#p1#hooks", f"{MARKET}#p1#db"} <= _part_of_plugin(result)
    for item in (hook, server):
        assert item.source == str(tmp_path / "repo" / MARKET)
        assert item.attrs["marketplace_entry"] == "p1"  # what the installer finds it by in the file
        assert SECRET not in json.dumps(item.attrs) and SECRET not in item.text
    assert "On PostToolUse for tools matching Edit" in hook.text
    assert "p1-entry-hooks (hook)" in nodes[PLUGIN].text and "db (mcp_server)" in nodes[PLUGIN].text
    assert result.problems == []


def test_a_marketplace_entry_s_malformed_inline_hooks_are_said_naming_the_plugin(tmp_path: Path) -> None:
    result = _market(tmp_path, {"hooks": {"Stop": "echo"}, "strict": False}, None, **{"scripts/fmt.sh": "#!/bin/sh\n"})
    assert sorted(_nodes(result)) == [PLUGIN]
    (problem,) = result.problems
    assert problem.path == str(tmp_path / "repo" / MARKET)
    assert problem.message.startswith("plugin 'p1': the hooks or MCP servers its marketplace entry holds inline")
    assert "hooks.Stop must be a list" in problem.message


@pytest.mark.parametrize(
    ("strict", "manifest", "said"),
    [
        (False, {"commands": "./extra", "hooks": HOOKS}, "commands, hooks"),
        (False, {"lspServers": "./.lsp.json"}, "lspServers"),
        (False, {"description": "Metadata only."}, None),
        (True, {"commands": "./extra"}, None),
    ],
)
def test_strict_false_with_a_plugin_json_declaring_components_is_said(
    tmp_path: Path, strict: bool, manifest: dict[str, Any], said: str | None
) -> None:
    """With "strict": false the entry is the plugin's whole definition; a plugin.json that
    declares components as well is a conflict and Claude Code fails to load the plugin
    (https://code.claude.com/docs/en/plugin-marketplaces#strict-mode). Both were merged
    without a word."""
    result = _market(tmp_path, {"strict": strict, "agents": "./team/"}, manifest,
                     **{"extra/deploy.md": "---\ndescription: Deploy.\n---\n\nGo.\n", "team/reviewer.md": _md("reviewer")})
    conflicts = [p for p in result.problems if "conflicting manifests" in p.message]
    if said is None:
        assert conflicts == []
        return
    (problem,) = conflicts
    assert problem.path == str(tmp_path / "repo" / MANIFEST)
    assert problem.message.startswith("plugin 'p1' has conflicting manifests: its marketplace entry")
    assert f"declares components ({said})" in problem.message
    assert 'remove them from plugin.json, or "strict": false from the entry' in problem.message
    assert problem.keeps is Unread.NOTHING
    assert _nodes(result)[f"{PLUGIN}/team/reviewer.md"].kind is NodeKind.AGENT  # still indexed as read


def _root_market(tmp_path: Path, source: str, skills: list[str] | None) -> IngestResult:
    root = tmp_path / "repo"
    entry: dict[str, Any] = {"name": "docs", "source": source, "strict": False}
    if skills is not None:
        entry["skills"] = skills
    write_file(root, MARKET, {"name": "m", "plugins": [entry]})
    base = "" if source == "./" else source.removeprefix("./") + "/"
    for name in ("pdf", "docx", "xlsx", "xlsx/charts"):
        write_file(root, f"{base}skills/{name}/SKILL.md", _md(name.replace("/", "-"), f"Works on {name} files."))
    return ingest_skill_repo(root)


def test_skills_paths_of_an_entry_at_the_marketplace_root_replace_skills(tmp_path: Path) -> None:
    """A skills path adds to skills/, except in a marketplace entry whose source is the
    marketplace root, where it replaces it (plugins reference, "Path behavior rules":
    https://code.claude.com/docs/en/plugins-reference#path-behavior-rules): several plugins
    listing their own skills of one repository. Every skill below skills/ was the plugin's."""
    result = _root_market(tmp_path, "./", ["./skills/pdf", "./skills/docx/SKILL.md"])
    nodes = _nodes(result)
    plugin = f"repo/{MARKET}#docs"
    members = {e.source.removeprefix("repo/") for e in result.edges if e.kind is EdgeKind.PART_OF and e.target == plugin}
    assert members == {"skills/pdf/SKILL.md", "skills/docx/SKILL.md"}
    for rel in ("skills/xlsx/SKILL.md", "skills/xlsx/charts/SKILL.md"):  # still skills, of no plugin
        assert nodes[rel].kind is NodeKind.SKILL and "plugin" not in nodes[rel].attrs, rel
    assert "pdf (skill)" in nodes[f"{MARKET}#docs"].text and "xlsx" not in nodes[f"{MARKET}#docs"].text
    (problem,) = result.problems
    assert problem.path == str(tmp_path / "repo" / MARKET) and problem.keeps is Unread.NOTHING
    assert problem.message.startswith("plugin 'docs': 'skills' in its marketplace entry replaces the default skills/ folder")
    assert "its 2 skills no skills path names (skills/xlsx, ...)" in problem.message
    assert "list './skills/' in 'skills' to keep them" in problem.message


@pytest.mark.parametrize(("source", "skills"), [("./", ["./skills/"]), ("./", None), ("./plugins/docs", ["./skills/pdf"])])
def test_skills_paths_elsewhere_add_to_skills(tmp_path: Path, source: str, skills: list[str] | None) -> None:
    result = _root_market(tmp_path, source, skills)
    plugin = "repo/" + (f"{MARKET}#docs" if source == "./" else "plugins/docs")
    members = [e.source for e in result.edges if e.kind is EdgeKind.PART_OF and e.target == plugin]
    assert len(members) == 3 and result.problems == []  # skills/xlsx/charts is PART_OF skills/xlsx


def test_an_entry_s_inline_hooks_and_its_plugin_s_hooks_json_are_two_hooks_by_name(tmp_path: Path) -> None:
    """Claude Code loads both, the entry's inline hooks and the plugin's hooks/hooks.json
    (https://code.claude.com/docs/en/plugins-reference#path-behavior-rules): both were named
    'p1-hooks', so `install p1-hooks` was ambiguous and a query folded one into the other
    as a copy. The entry's are named after the entry, the same every run."""
    result = _market(tmp_path, {"hooks": HOOKS}, {}, **{"hooks/hooks.json": {"hooks": {"Stop": HOOKS["PostToolUse"]}}})
    nodes = _nodes(result)
    assert nodes[f"{PLUGIN}/hooks/hooks.json"].name == "p1-hooks"
    assert nodes[f"{MARKET}#p1#hooks"].name == "p1-entry-hooks"
    assert {n.id for n in ingest_skill_repo(tmp_path / "repo").nodes} == {n.id for n in result.nodes}
