"""What install says of a plugin's files, and what a killed install leaves behind.

- A file naming agents through their plugin as Markdown writes it
  (``- `subagent_type`: "agent-teams:team-debugger"``, bold, a table) gets the plan note
  the README promises: installed alone the agent answers to its bare name.
- A plugin's prompt file, part of no component, is read through ``${CLAUDE_PLUGIN_ROOT}``,
  which only Claude Code's plugin install sets: refusing it says so, names the
  ``/plugin install`` command (with the marketplace the index records) and the plugin's
  folder to copy, instead of "install the plugin", which does not bring the file.
- A temporary copy an install killed mid-write left (``.SKILL.md.<random>.tmp``) goes
  with the uninstall of that component, and so does the folder made for it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.components.install.claude_names import claude_code_notes
from skill_retriever.model import NodeKind

HASHING = ("--embedder", "hashing-64")
REAL_TEAM_DEBUG = Path("/work/shared/data/skills/wshobson__agents/plugins/agent-teams/commands/team-debug.md")
DEBUG_COMMAND = (
    "---\ndescription: Debug with a team\n---\n\n# Team Debug\n\n"
    "1. Spawn one investigator per hypothesis using the `Task` tool with:\n"
    "   - `team_name`: \"debug-{timestamp}\"\n"
    "   - `subagent_type`: \"teams:team-debugger\"\n"
)
SKILL = "---\nname: track-management\ndescription: Tracks the work of a team.\n---\n# Track\n"
PROMPT = "---\nname: null-deref-finder\ndescription: Finds null dereferences.\n---\nLook for NULL.\n"


def _index(tmp_path: Path, capsys: pytest.CaptureFixture[str], marketplace: bool = False) -> Path:
    """A repository with the plugin ``teams`` (a command, a skill, a prompt file), indexed."""
    repo = tmp_path / "repo"
    write_file(repo, "plugins/teams/commands/team-debug.md", DEBUG_COMMAND)
    write_file(repo, "plugins/teams/skills/track-management/SKILL.md", SKILL)
    write_file(repo, "plugins/teams/prompts/general/null-deref-finder.md", PROMPT)
    if marketplace:
        entry = {"name": "teams", "source": "./plugins/teams", "description": "Teams of agents"}
        write_file(repo, ".claude-plugin/marketplace.json", json.dumps({"name": "acme-tools", "plugins": [entry]}))
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    return ix


@pytest.mark.parametrize(
    "line",
    [
        '   - `subagent_type`: "teams:team-debugger"',
        "**subagent_type**: teams:team-debugger",
        "| `subagent_type` | `teams:team-debugger` |",
        'Agent(subagent_type="teams:team-debugger", description="x")',
        "spawn it with `subagent_type=teams:team-debugger`",
    ],
)
def test_markdown_ways_of_naming_an_agent_through_its_plugin_get_the_note(line: str) -> None:
    (note,) = claude_code_notes(NodeKind.COMMAND, f"# Debug\n\n{line}\n".encode())
    assert "names agents by their plugin's namespace (teams:team-debugger)" in note
    assert "named without it (team-debugger)" in note


def test_bare_agent_names_and_other_colons_get_no_note() -> None:
    text = 'Use subagent_type="general-purpose", description: "a:b"\n`subagent_type`: `team-debugger`\n'
    assert claude_code_notes(NodeKind.COMMAND, text.encode()) == []


def test_the_double_colon_form_is_noted_as_written() -> None:
    (note,) = claude_code_notes(NodeKind.COMMAND, b'subagent_type="backend-development::backend-architect"\n')
    assert "(backend-development::backend-architect)" in note and "(backend-architect)" in note


@pytest.mark.skipif(not REAL_TEAM_DEBUG.is_file(), reason="shared skills data not present")
def test_the_readme_example_file_gets_its_note() -> None:
    """wshobson's agent-teams ``team-debug.md``, the file the README cites."""
    notes = claude_code_notes(NodeKind.COMMAND, REAL_TEAM_DEBUG.read_bytes())
    assert any("(agent-teams:team-debugger)" in n for n in notes), notes


def test_installing_a_command_that_names_its_plugins_agent_says_so_in_the_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = _index(tmp_path, capsys)
    code, out, err = run(capsys, "install", "team-debug", "--target", tmp_path / "proj", "--index-dir", ix)
    assert code == 0, out + err
    (line,) = [x for x in out.splitlines() if x.startswith("[command] team-debug ")]
    assert "names agents by their plugin's namespace (teams:team-debugger)" in line
    assert (tmp_path / "proj/.claude/commands/teams/team-debug.md").read_text() == DEBUG_COMMAND


@pytest.mark.parametrize("marketplace", [False, True])
def test_a_plugins_prompt_file_says_what_installs_it(
    marketplace: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = _index(tmp_path, capsys, marketplace)
    project = tmp_path / "proj"
    code, out, err = run(capsys, "install", "null-deref-finder", "--target", project, "--index-dir", ix)
    assert code == 2 and out == ""
    assert "install the component that uses it" not in err  # installing the plugin does not bring it
    assert "whose components reach such files through ${CLAUDE_PLUGIN_ROOT}" in err
    assert "installing the plugin here writes its components, not this file" in err
    command = "/plugin install teams@acme-tools)" if marketplace else (
        "/plugin install teams@<marketplace>; the index records no marketplace for it)")
    assert command in err
    assert f"copy the plugin's folder, {tmp_path / 'repo/plugins/teams'}, by hand" in err
    # what it says of the plugin install here holds: the plugin's components, not the file
    code, out, _ = run(capsys, "install", "teams", "--target", project, "--index-dir", ix)
    assert code == 0 and (project / ".claude/skills/track-management/SKILL.md").is_file(), out
    assert not list(project.rglob("null-deref-finder.md"))


def test_uninstall_after_an_install_killed_mid_write_leaves_no_temporary_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = _index(tmp_path, capsys)
    project = tmp_path / "proj"
    project.mkdir()
    # Dies (as kill -9) after the record and its .gitignore, with SKILL.md's copy written
    # and not yet renamed into place.
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from skill_retriever.components.install import install
        from skill_retriever.stores.index import Index
        real, calls = os.replace, []
        def replace_or_die(*args):
            calls.append(args)
            if len(calls) == 3:
                os._exit(9)
            real(*args)
        os.replace = replace_or_die
        install(Index.open({str(ix)!r}), ["track-management"], Path({str(project)!r}))
    """)
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr
    folder = project / ".claude/skills/track-management"
    (left,) = list(folder.iterdir())
    assert left.name.startswith(".SKILL.md.") and left.name.endswith(".tmp")
    mine = project / ".claude/skills/.notes.tmp"  # the user's, named alike: not the writer's
    mine.write_text("mine\n")
    code, out, _ = run(capsys, "uninstall", "track-management", "--target", project)
    assert code == 0, out
    assert "gone already (nothing to take back): .claude/skills/track-management/SKILL.md" in out
    assert not folder.exists()  # the copy, then the folder made for it
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == [
        ".claude", ".claude/skills", ".claude/skills/.notes.tmp"
    ]
