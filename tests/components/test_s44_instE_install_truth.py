"""Install writes, and dry runs, that say what is true (a walkthrough on real catalogues).

- A hook that joins the user's group in ``settings.json`` while the same install adds new
  groups to that event keeps the text of the user's hook byte for byte.
- A target that refuses the whole install (a ``.claude`` link to nothing, a read-only file
  system) is said once: no file is listed as if it would be written, no closing "some
  files would not be written"; ``--json`` shows its components refused, and the real
  run's refusal carries the same plan. A re-install that writes nothing is no refusal.
- Words inside ``echo "..."`` text (``Next.js``, ``Moment.js``) are not scripts the
  project must hold; a script an interpreter runs still is.
- A file the user edited after installing it, whose source did not change since, is
  theirs: ``unchanged`` (exit 0); a new version of the source is still blocked.
- A linked ``settings.json`` or ``.mcp.json`` is refused in one sentence.
- A ``settings.json`` with a UTF-8 byte order mark, or of whitespace only, is merged into.

All through the CLI, on a small repository indexed for the test (the real catalogue's
hooks where it is present).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file
from read_only_target import mount_read_only

from skill_retriever.components.install import install
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.target import TargetRefusedError
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")
LOGGER = {
    "description": "Log every edit and write.",
    "hooks": {"PostToolUse": [
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "echo edited >> edits.log"}]},
        {"matcher": "Write", "hooks": [{"type": "command", "command": "echo written >> edits.log"}]},
    ]},
}  # fmt: skip
NOTES = {
    "description": "Say which framework a change touches.",
    "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": (
        "bash -c 'echo \"Next.js project\"; echo \"Moment.js usage detected\" >&2; "
        "find . -name \"*.js\" | head -1; node checks/budget.js'"
    )}]}]},
}  # fmt: skip
SKILL = "---\nname: notes\ndescription: Keep notes of the work.\n---\n# Notes\n"
#: The walkthrough's settings.json: tabs, CRLF, the user's group on one line.
WALKTHROUGH = (
    '{\r\n\t"hooks": {\r\n\t\t"PostToolUse": [ {"matcher": "Edit", "hooks": [ { "type": "command", '
    '"command": "echo mine" } ]} ]\r\n\t}\r\n}\r\n'
)
MINE = '[ { "type": "command", "command": "echo mine" }'
TWO_SPACES = (
    '{\n  "hooks": {\n    "PostToolUse": [\n      {\n        "matcher": "Edit",\n'
    '        "hooks": [ { "type": "command", "command": "echo mine" } ]\n      }\n    ]\n  }\n}\n'
)
#: What a plan says of a bare relative script a hook runs and does not ship.
BARE_SCRIPT_SAID = re.compile(r"commands run (?!\.claude/)[^ ,]+, which it does not ship")
CCT_HOOKS = (
    Path(__file__).resolve().parents[3]
    / "shared/data/skills/davila7__claude-code-templates/cli-tool/components/hooks"
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_file(repo, "hooks/automation/edit-logger.json", json.dumps(LOGGER))
    write_file(repo, "hooks/automation/framework-notes.json", json.dumps(NOTES))
    write_file(repo, "skills/notes/SKILL.md", SKILL)
    write_file(repo, ".mcp.json", json.dumps({"mcpServers": {"metrics": {"command": "metrics-mcp"}}}))
    return repo


@pytest.fixture
def index_dir(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    return ix


def _install(capsys: pytest.CaptureFixture[str], ix: Path, target: Path, *more: str) -> tuple[int, str]:
    code, out, err = run(capsys, "install", *more, "--target", target, "--index-dir", ix)
    assert err == "", err
    return code, out


def _settings(project: Path) -> Path:
    return project / ".claude/settings.json"


# -- 1. the user's hook keeps its text when its group is joined and groups are added -------


@pytest.mark.parametrize("before", [WALKTHROUGH, TWO_SPACES], ids=["tabs-crlf", "two-spaces"])
def test_joining_the_users_group_while_adding_groups_keeps_the_users_hook_text(
    before: str, index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/settings.json", before)
    code, out = _install(capsys, index_dir, project, "edit-logger")
    assert code == 0, out
    assert "add hook PostToolUse (tools matching Edit) to .claude/settings.json, in the existing" in out
    text = _settings(project).read_bytes().decode("utf-8")
    assert MINE in text  # the user's hook object, spaces inside its braces and all
    groups = json.loads(text)["hooks"]["PostToolUse"]
    assert [g["matcher"] for g in groups] == ["Edit", "Write"]
    assert groups[0]["hooks"] == [{"type": "command", "command": "echo mine"}, *LOGGER["hooks"]["PostToolUse"][0]["hooks"]]
    if "\r\n" in before:
        assert "\n" not in text.replace("\r\n", "")  # no bare new line came in
    else:  # the lines around the user's group are the file's own
        assert text.startswith('{\n  "hooks": {\n    "PostToolUse": [\n      {\n        "matcher": "Edit",\n')
    assert run(capsys, "uninstall", "edit-logger", "--target", project)[0] == 0
    assert _settings(project).read_bytes().decode("utf-8") == before


# -- 2. a target that refuses the whole install ----------------------------------------------


def test_a_refused_dry_run_says_it_once_and_lists_nothing_as_happening(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / ".claude").symlink_to(tmp_path / "not-cloned-yet", target_is_directory=True)
    code, out = _install(capsys, index_dir, project, "edit-logger", "notes", "--dry-run")
    lines = out.splitlines()
    assert code == 1
    assert len([x for x in lines if x.startswith("refused: ")]) == 1 and lines[-1].startswith("refused: ")
    assert not [x for x in lines if x.lstrip().startswith(("would create", "would add", "some files"))], out
    assert [x.rsplit(": ", 1)[1] for x in lines if x.startswith("[")] == [
        "would have been installed if the target could be written"
    ] * 2
    code, out = _install(capsys, index_dir, project, "edit-logger", "--dry-run", "--json")
    dry = json.loads(out)
    assert code == 1 and dry["refused"] and dry["ok"] is False and dry["nothing_written"] is True
    (component,) = dry["components"]
    assert component["status"] == "refused" and "the target cannot be written" in component["reason"]
    assert {f["action"] for f in component["files"]} == {"not written"}


def test_the_real_refusal_carries_the_plan_its_dry_run_shows(index_dir: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / ".claude").symlink_to(tmp_path / "not-cloned-yet", target_is_directory=True)
    index = Index.open(index_dir)
    try:
        dry = install(index, ["edit-logger"], project, dry_run=True)
        with pytest.raises(TargetRefusedError) as refused:
            install(index, ["edit-logger"], project)
    finally:
        index.close()
    plan = refused.value.plan
    assert plan is not None and plan.refused == str(refused.value)
    assert plan.to_dict().keys() == dry.to_dict().keys()
    assert plan.to_dict()["components"] == dry.to_dict()["components"]
    assert plan.lines()[-1] == f"refused: {plan.refused}" and not plan.applied
    assert list(project.iterdir()) == [project / ".claude"]


def test_installing_again_what_is_there_is_no_refusal_on_a_read_only_target(
    index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    assert _install(capsys, index_dir, project, "edit-logger", "notes")[0] == 0
    write_file(project, "checks/budget.js", "")  # what framework-notes runs: it would install
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    mount_read_only(monkeypatch, project)
    for more in (("--dry-run",), ()):
        code, out = _install(capsys, index_dir, project, "edit-logger", "notes", *more)
        assert code == 0 and "refused" not in out, out
        assert [x.rsplit(": ", 1)[1] for x in out.splitlines() if x.startswith("[")] == ["unchanged"] * 2
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before
    # something to write: refused as before, the dry run and the real run alike
    for more in (("--dry-run",), ()):
        code, out = _install(capsys, index_dir, project, "framework-notes", *more)
        assert code == 1 and "(read-only file system)" in out, out


# -- 3. words in echo text are no scripts --------------------------------------------------


def test_words_in_echo_text_are_not_scripts_the_project_must_hold(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _install(capsys, index_dir, tmp_path / "proj", "framework-notes", "--dry-run")
    assert code == 1, out  # node runs checks/budget.js, which the project lacks: left out
    assert "its PostToolUse commands run checks/budget.js, which it does not ship" in out
    for word in ("Next.js", "Moment.js", "*.js"):
        assert f"commands run {word}" not in out


@pytest.mark.skipif(not CCT_HOOKS.is_dir(), reason="shared skills data not present")
def test_no_real_hook_is_said_to_need_a_script_named_in_its_echo_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the fix, nextjs-code-quality-enforcer (Next.js) and performance-budget-guard
    (Moment.js) got the note; no hook of the catalogue runs a bare relative script."""
    source = tmp_path / "claude-code-templates"
    shutil.copytree(CCT_HOOKS, source / "hooks")  # a copy: the data stays out of the repository
    ix = tmp_path / "ix"
    assert run(capsys, "index", source, "--index-dir", ix, *HASHING)[0] == 0
    index = Index.open(ix)
    try:
        hooks = sorted(n.id for n in index.nodes.values() if n.kind.value == "hook")
        assert len(hooks) >= 50
        noted = []
        for hook in hooks:
            plan = install(index, [hook], tmp_path / "proj", dry_run=True, with_dependencies=False)
            noted += [c.name for c in plan.components if BARE_SCRIPT_SAID.search(c.reason)]
    finally:
        index.close()
    assert noted == []


# -- 4. the user's edit of what this very version installed is theirs ------------------------


def test_an_edited_file_whose_source_is_unchanged_is_theirs_and_a_new_version_is_blocked(
    repo: Path, index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    assert _install(capsys, index_dir, project, "notes")[0] == 0
    installed = project / ".claude/skills/notes/SKILL.md"
    installed.write_text(SKILL + "my own line\n", encoding="utf-8")
    for _ in range(2):  # every later install says the same, and exits 0
        code, out = _install(capsys, index_dir, project, "notes")
        assert code == 0, out
        assert "[skill] notes" in out and out.splitlines()[1].endswith(": unchanged")
        assert "  unchanged .claude/skills/notes/SKILL.md: yours, changed since it was installed" in out
        assert "force" not in out and "some files" not in out
    assert installed.read_text(encoding="utf-8").endswith("my own line\n")
    write_file(repo, "skills/notes/SKILL.md", SKILL + "A new version.\n")
    assert run(capsys, "index", repo, "--index-dir", index_dir)[0] == 0
    code, out = _install(capsys, index_dir, project, "notes")
    assert code == 1
    assert "kept .claude/skills/notes/SKILL.md: changed since it was installed; force overwrites it" in out
    assert installed.read_text(encoding="utf-8").endswith("my own line\n")


# -- 5. a linked settings.json or .mcp.json: one sentence ------------------------------------


@pytest.mark.parametrize(("name", "rel"), [("edit-logger", ".claude/settings.json"), ("metrics", ".mcp.json")])
def test_a_linked_shared_file_is_refused_in_one_sentence(
    name: str, rel: str, index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    dotfiles = write_file(tmp_path, "dotfiles/shared.json", "{}\n")
    (project / rel).parent.mkdir(parents=True, exist_ok=True)
    (project / rel).symlink_to(dotfiles)
    code, out = _install(capsys, index_dir, project, name, "--dry-run")
    assert code == 1
    said = {x.split(": ", 1)[1] for x in out.splitlines() if x.lstrip().startswith("refused ")}
    assert said == {(
        f"{rel} is a symbolic link to {dotfiles}, and an install writes no file through a link; "
        "replace the link by a copy of the file it points to (Claude Code reads either), or "
        "install into another target"
    )}
    assert dotfiles.read_text() == "{}\n"


def test_a_linked_file_leading_out_is_not_told_to_become_a_folder(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    elsewhere = write_file(tmp_path, "elsewhere/SKILL.md", "mine\n")
    installed = project / ".claude/skills/notes/SKILL.md"
    installed.parent.mkdir(parents=True)
    installed.symlink_to(elsewhere)
    code, out = _install(capsys, index_dir, project, "notes", "--dry-run")
    (line,) = [x for x in out.splitlines() if x.startswith("  refused ")]
    assert code == 1 and "a folder" not in line
    assert line.endswith(
        f"is a symbolic link to {elsewhere}, outside the target {project}, and an install writes no "
        "file through a link; replace the link by a copy of the file it points to, or install into "
        "another target"
    )


# -- 6. a byte order mark, a blank file ------------------------------------------------------


def test_a_settings_json_with_a_byte_order_mark_is_merged_into_and_keeps_it(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    _settings(project).write_bytes(b'\xef\xbb\xbf{\n  "model": "opus"\n}\n')
    code, out = _install(capsys, index_dir, project, "edit-logger")
    assert code == 0 and "BOM" not in out, out
    data = _settings(project).read_bytes()
    assert data.startswith(b'\xef\xbb\xbf{\n  "model": "opus",\n')
    assert json.loads(data.decode("utf-8-sig"))["hooks"]["PostToolUse"] == LOGGER["hooks"]["PostToolUse"]
    code, out = _install(capsys, index_dir, project, "edit-logger")
    assert code == 0 and "unchanged hook PostToolUse (tools matching Write)" in out


def test_a_settings_json_of_whitespace_only_is_read_as_empty(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/settings.json", "  \n\n")
    code, out = _install(capsys, index_dir, project, "edit-logger", "--dry-run")
    assert code == 0 and "unreadable" not in out, out
    code, out = _install(capsys, index_dir, project, "edit-logger")
    assert code == 0, out
    assert json.loads(_settings(project).read_text())["hooks"]["PostToolUse"] == LOGGER["hooks"]["PostToolUse"]
    # the record keeps the blank text, for uninstall to put back
    assert InstallRecord.load(project).originals == {".claude/settings.json": "  \n\n"}


def test_splice_keeps_a_changed_items_members_when_others_go_and_come() -> None:
    """One change to an array that alters an item, drops one and adds one: the altered
    item keeps the text of what it kept, the untouched one all of its text."""
    from skill_retriever.components.install.json_layout import json_style
    from skill_retriever.components.install.json_splice import splice

    text = '{"a": [ {"m": "E", "h": [ { "c": "mine" } ]}, {"m": "X", "h": [1]}, {"m": "K",  "h": [ 2 ]} ]}\n'
    data = {"a": [
        {"m": "E", "h": [{"c": "mine"}, {"c": "new"}]}, {"m": "K", "h": [2]}, {"m": "W", "h": [3]},
    ]}  # fmt: skip
    out = splice(text, data, json_style(text))
    assert out is not None and json.loads(out) == data
    assert '[ { "c": "mine" }, ' in out and '{"m": "K",  "h": [ 2 ]}' in out and '"X"' not in out
