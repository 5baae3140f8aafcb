"""A command's subfolder below ``commands/`` survives indexing and installing, as Claude
Code reads it: ``.claude/commands/git/commit.md`` is ``/commit``, labelled "(project:git)".

Before, every command was written flat under its node name: ``git/commit.md`` and
``svn/commit.md`` clashed at ``.claude/commands/commit.md``, and a plugin command with a
frontmatter ``name: trailofbits:ct-check`` became ``trailofbits-ct-check.md``. Now a
command goes to ``.claude/commands/<folders>/<file stem>.md`` (a plugin's under its
plugin's name); two of one file name both install, each with a note; uninstall takes the
folders it empties back, never ``.claude/commands`` itself. An index built before the
folders were recorded installs flat, as it did.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from component_catalogue import files_under
from files import write_file

from skill_retriever.components.install import install, plan_install, uninstall
from skill_retriever.components.install.errors import UnknownComponentError
from skill_retriever.indexing import index_sources
from skill_retriever.model import NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

CAT = "cat"
GIT, SVN, TOP = (f"{CAT}/.claude/commands/{p}" for p in ("git/commit.md", "svn/commit.md", "top.md"))
GIT_TO, SVN_TO, TOP_TO = (f".claude/commands/{p}" for p in ("git/commit.md", "svn/commit.md", "top.md"))
PLUGIN_CMD = f"{CAT}/plugins/ct/commands/ct-check.md"
PLUGIN_TO = ".claude/commands/ct/ct-check.md"
RECORD = ".claude/.skill-retriever/installed.json"


def _command(description: str, name: str | None = None) -> str:
    named = f"name: {name}\n" if name else ""
    return f"---\n{named}description: {description}\n---\n\n{description} Run it.\n"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    """A catalogue with commands in subfolders of ``.claude/commands`` (two named
    ``commit``), one at its top, and a plugin command whose frontmatter name is not its
    file's (as trailofbits/skills' ``name: trailofbits:ct-check``)."""
    src = tmp_path / "src" / CAT
    write_file(src, ".claude/commands/git/commit.md", _command("Commit with git."))
    write_file(src, ".claude/commands/svn/commit.md", _command("Commit with svn."))
    write_file(src, ".claude/commands/top.md", _command("A top-level command."))
    write_file(src, "plugins/ct/commands/ct-check.md", _command("Check timing.", "trailofbits:ct-check"))
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(built, [src], "skills")
    assert not [p for s in run.sources for p in s.problems if not p.read_whole]
    yield built
    built.close()


def test_commands_install_in_their_folders_and_uninstall_takes_the_folders_back(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    dry = install(index, [GIT, SVN, TOP], project, dry_run=True)
    assert {c.id: [f.path for f in c.files] for c in dry.components} == {
        GIT: [GIT_TO], SVN: [SVN_TO], TOP: [TOP_TO]
    }
    assert dry.clashes == () and not (project / ".claude").exists()
    plan = install(index, [GIT, SVN, TOP], project)
    assert plan.ok and plan.applied and plan.clashes == ()
    got = files_under(project)
    assert {GIT_TO, SVN_TO, TOP_TO} <= got.keys()
    assert b"Commit with git." in got[GIT_TO] and b"Commit with svn." in got[SVN_TO]
    # both are /commit in Claude Code: a note on each names the other; none on top.md
    reasons = {c.id: c.reason for c in plan.components}
    assert f"Claude Code offers it as /commit, and {SVN_TO} as /commit too" in reasons[GIT]
    assert f"Claude Code offers it as /commit, and {GIT_TO} as /commit too" in reasons[SVN]
    assert "/top" not in reasons[TOP]
    text = "\n".join(plan.lines())
    assert GIT_TO in text and SVN_TO in text
    record = json.loads((project / RECORD).read_text())["components"]
    assert set(record[GIT]["files"]) == {GIT_TO} and set(record[SVN]["files"]) == {SVN_TO}
    assert set(record[TOP]["files"]) == {TOP_TO}
    # installing again changes nothing and still says so
    again = install(index, [GIT, SVN, TOP], project)
    assert {c.status for c in again.components} == {"unchanged"}
    assert "as /commit too" in next(c.reason for c in again.components if c.id == GIT)

    report = uninstall([GIT, SVN], project)
    assert report.ok and set(report.removed) == {GIT_TO, SVN_TO}
    assert not (project / ".claude/commands/git").exists()
    assert not (project / ".claude/commands/svn").exists()
    assert (project / TOP_TO).is_file()  # still installed: .claude/commands stays
    assert uninstall([TOP], project).ok
    assert files_under(project) == {}
    assert not (project / ".claude").exists()  # the install made it: gone with the last file


def test_a_command_folder_that_was_there_and_holds_more_stays(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/commands/git/mine.md", "my own command\n")
    assert install(index, [GIT], project).ok
    assert uninstall([GIT], project).ok
    assert files_under(project) == {".claude/commands/git/mine.md": b"my own command\n"}


def test_the_target_command_of_one_name_in_another_folder_gets_a_note(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/commands/commit.md", "my commit\n")
    plan = install(index, [GIT], project, dry_run=True)
    (git,) = plan.components
    assert git.status == "install" and [f.path for f in git.files] == [GIT_TO]
    assert "and .claude/commands/commit.md as /commit too" in git.reason


def test_a_skill_hides_a_command_in_a_subfolder(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/skills/commit/SKILL.md", "---\nname: commit\ndescription: d\n---\n\nx\n")
    (git,) = install(index, [GIT], project, dry_run=True).components
    assert "its /commit will run the skill commit" in git.reason


def test_a_folder_the_target_spells_otherwise_is_used_as_spelled(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/commands/Git/other.md", "mine\n")
    (git,) = install(index, [GIT], project, dry_run=True).components
    assert [f.path for f in git.files] == [".claude/commands/Git/commit.md"]
    assert "the target spells .claude/commands/git/commit.md as .claude/commands/Git/commit.md" in (
        git.files[0].reason
    )


def test_user_scope_keeps_the_folders(
    index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    plan = install(index, [GIT], user=True, home=home)
    assert plan.ok and (home / GIT_TO).is_file()
    assert uninstall([GIT], user=True, home=home).ok
    assert not (home / ".claude/commands/git").exists()


def test_a_plugin_command_goes_under_its_plugin_by_its_file_name(index: Index, tmp_path: Path) -> None:
    node = index.get(PLUGIN_CMD)
    assert node.name == "trailofbits:ct-check"  # the node keeps its frontmatter name and id
    assert node.attrs["command_namespace"] == "ct" and node.attrs["command_stem"] == "ct-check"
    plan = install(index, [PLUGIN_CMD], tmp_path / "proj")
    (ct,) = plan.components
    assert plan.ok and [f.path for f in ct.files] == [PLUGIN_TO]  # not trailofbits-ct-check.md
    assert "this one is /ct-check, and its frontmatter name 'trailofbits:ct-check' is not used" in ct.reason



def test_the_name_claude_code_gives_a_plugin_command_is_offered_its_frontmatter_name(
    index: Index, tmp_path: Path
) -> None:
    """``trailofbits-ct-check`` (the file name an older install wrote) found no close name:
    ``trailofbits:ct-check`` did not end with ``-ct-check``, a colon not being read as a
    separator of parts (seen on trailofbits__skills). ``ct-check``, its file's name, takes
    it (test_install_file_name)."""
    for typed in ("trailofbits-ct-check",):
        with pytest.raises(UnknownComponentError) as caught:
            plan_install(index, [typed], tmp_path / "proj")
        assert caught.value.suggestions[:1] == ("trailofbits:ct-check",), caught.value


def _as_indexed_before(index: Index, node_id: str) -> None:
    """Make ``node_id`` what an index built before namespaces were recorded holds."""
    node = index.get(node_id)
    old = {k: v for k, v in node.attrs.items() if k not in ("command_namespace", "command_stem")}
    index.upsert([replace(node, attrs=old)])


def test_an_index_without_the_namespace_installs_flat_as_before(index: Index, tmp_path: Path) -> None:
    _as_indexed_before(index, GIT)
    _as_indexed_before(index, PLUGIN_CMD)
    assert "command_namespace" not in index.get(GIT).attrs
    plan = install(index, [GIT, PLUGIN_CMD], tmp_path / "proj")
    assert plan.ok
    assert {c.id: [f.path for f in c.files] for c in plan.components} == {
        GIT: [".claude/commands/commit.md"],
        PLUGIN_CMD: [".claude/commands/trailofbits-ct-check.md"],  # its node name, as before
    }
    # re-indexing records the folders; installing again moves what the earlier install
    # wrote (unchanged since) there, and the flat file it removes is no second /commit
    index_sources(index, [tmp_path / "src" / CAT], "skills")
    again = install(index, [GIT, PLUGIN_CMD], tmp_path / "proj")
    assert again.ok and set(files_under(tmp_path / "proj")) >= {GIT_TO, PLUGIN_TO}
    assert not (tmp_path / "proj/.claude/commands/commit.md").exists()
    git = next(c for c in again.components if c.id == GIT)
    assert [(f.path, f.action) for f in git.files] == [
        (GIT_TO, "create"), (".claude/commands/commit.md", "remove")
    ]
    assert "/commit too" not in git.reason


@pytest.mark.parametrize("namespace", ["../out", "a/../../b", "a//b", 7])
def test_an_unsafe_recorded_namespace_refuses_the_command(
    index: Index, tmp_path: Path, namespace: object
) -> None:
    node = index.get(GIT)
    index.upsert([replace(node, attrs={**node.attrs, "command_namespace": namespace})])
    plan = plan_install(index, [GIT], tmp_path / "proj")
    (git,) = plan.components
    assert git.status == "refused" and git.files == ()
    assert "refusing it" in git.reason or "is not text" in git.reason
    assert not (tmp_path / "out").exists()


def test_ingest_kinds_are_unchanged(index: Index) -> None:
    kinds = {n.id: n.kind for n in index.nodes.values() if n.id.startswith(f"{CAT}/.claude")}
    assert kinds == dict.fromkeys((GIT, SVN, TOP), NodeKind.COMMAND)


def test_two_plugins_commands_of_one_name_both_install(tmp_path: Path) -> None:
    """As wshobson/agents' plugins that each ship a commands/setup.md: before, one clash at
    .claude/commands/setup.md refused the set; now each goes under its plugin's name."""
    src = tmp_path / "market"
    for plugin in ("alpha", "beta"):
        write_file(src, f"plugins/{plugin}/commands/setup.md", _command(f"Set up {plugin}."))
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(built, [src], "skills")
        plan = install(built, ["market/plugins/alpha", "market/plugins/beta"], tmp_path / "proj")
        assert plan.ok and plan.applied and plan.clashes == ()
        assert set(plan.written()) == {".claude/commands/alpha/setup.md", ".claude/commands/beta/setup.md"}
        assert all("as /setup too" in c.reason for c in plan.components)
    finally:
        built.close()
