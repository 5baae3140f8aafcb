"""A command records where it lies below its ``commands/`` folder (``command_namespace``)
and its file's stem (``command_stem``): Claude Code names a command by its file and
labels it by its folders, and install writes it there. A folder install could not write
as a name is left out, with a note; a plugin's command gets its plugin's name in front."""

from __future__ import annotations

import json
from pathlib import Path

from files import write_file

from skill_retriever.ingest.command_places import command_place, name_problem
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import NodeKind

CMD = "---\ndescription: Do the thing.\n---\n\nDo it.\n"


def _commands(root: Path) -> dict[str, tuple[str, str]]:
    result = ingest_skill_repo(root)
    return {
        n.attrs["path"]: (n.attrs.get("command_namespace"), n.attrs.get("command_stem"))
        for n in result.nodes
        if n.kind is NodeKind.COMMAND
    }


def test_a_command_records_its_folders_below_commands_and_its_stem(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for rel in (
        ".claude/commands/git/commit.md",
        ".claude/commands/svn/commit.md",
        ".claude/commands/top.md",
        "commands/a/b/deep.md",
        "tools/commands/ops/deploy.md",
        "commands/nested/commands/inner.md",  # the nearest commands/ folder counts
    ):
        write_file(repo, rel, CMD)
    write_file(repo, "commands/agents/helper.md", "---\nname: helper\ndescription: d\n---\n\nx\n")
    got = _commands(repo)
    assert got == {
        ".claude/commands/git/commit.md": ("git", "commit"),
        ".claude/commands/svn/commit.md": ("svn", "commit"),
        ".claude/commands/top.md": ("", "top"),
        "commands/a/b/deep.md": ("a/b", "deep"),
        "tools/commands/ops/deploy.md": ("ops", "deploy"),
        "commands/nested/commands/inner.md": ("", "inner"),
    }
    agent = next(n for n in ingest_skill_repo(repo).nodes if n.name == "helper")
    assert agent.kind is NodeKind.AGENT and "command_namespace" not in agent.attrs


def test_the_stem_is_kept_when_the_frontmatter_names_it_otherwise(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "commands/ct-check.md", "---\nname: trailofbits:ct-check\ndescription: d\n---\n\nx\n")
    (node,) = ingest_skill_repo(repo).nodes
    assert node.name == "trailofbits:ct-check" and node.id == "repo/commands/ct-check.md"
    assert (node.attrs["command_namespace"], node.attrs["command_stem"]) == ("", "ct-check")


def test_a_folder_install_cannot_write_is_left_out_with_a_note(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "commands/a..b/ok/run.md", CMD)
    write_file(repo, "commands/---/run2.md", CMD)
    result = ingest_skill_repo(repo)
    assert _commands(repo) == {
        "commands/a..b/ok/run.md": ("ok", "run"),
        "commands/---/run2.md": ("", "run2"),
    }
    notes = {Path(p.path).name: p.message for p in result.notes}
    assert "its folder 'a..b' below commands/ holds a path separator or '..'" in notes["run.md"]
    assert "its folder '---' below commands/ gives no usable file name" in notes["run2.md"]
    assert result.problems == result.notes  # notes only: both files were read whole


def test_a_plugin_command_is_filed_under_its_plugin(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "plugins/ct/commands/ct-check.md", CMD)
    write_file(repo, "plugins/ct/commands/more/extra.md", CMD)
    write_file(repo, "plugins/odd/.claude-plugin/plugin.json", json.dumps({"name": "odd..name"}))
    write_file(repo, "plugins/odd/commands/go.md", CMD)
    result = ingest_skill_repo(repo)
    assert _commands(repo) == {
        "plugins/ct/commands/ct-check.md": ("ct", "ct-check"),
        "plugins/ct/commands/more/extra.md": ("ct/more", "extra"),
        "plugins/odd/commands/go.md": ("", "go"),  # its plugin's name is no folder name
    }
    (note,) = [p for p in result.notes if p.path.endswith("go.md")]
    assert "plugin name 'odd..name' holds a path separator or '..'" in note.message


def test_command_place_outside_a_commands_folder_has_no_namespace() -> None:
    assert command_place(["repo", "tools"], "x") == ({"command_namespace": "", "command_stem": "x"}, [])


def test_a_nul_in_a_name_is_named_as_such() -> None:
    """It was refused as one that "holds a path separator or '..'" (found in a walkthrough)."""
    assert name_problem("bad\x00name") == "holds a NUL character"
    assert name_problem("a/b") == "holds a path separator or '..'"
    assert name_problem("fine-name") is None
