"""Install and uninstall lines a newcomer can act on, found walking them on a small catalogue:

- a conflict declared as a bare ``conflicts: [sk-a]`` printed ``conflict: sk-c (...) vs
  sk-a (...) (installed at ...)`` and ``"reason": ""``: nothing said who declared it, where,
  or what to type. It now names the declaring side and its file, and, the other side
  being installed, the ``uninstall`` that takes it out first (``--allow-conflicts`` the
  switch that installs both; ``--force`` has nothing to do with conflicts).
- ``uninstall`` named a removed hook by a hash (``command @742ae9bc``); it now says what
  the hook ran, on one shortened line, and keeps the hash only for two that read the same.
- a file the user added in an installed skill's folder stayed after the uninstall with no
  line saying so, leaving a folder without its SKILL.md; a ``kept ...: your file`` line says it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SK_A = "cat/skills/sk-a/SKILL.md"
SK_C = "cat/skills/sk-c/SKILL.md"
SAME = "echo this long shared prefix reads the same for both guard hooks until the end:"


def _skill(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: Migrate databases the {name} way.\n{extra}---\n\n# {name}\n\nBody.\n"


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[Path]:
    src = tmp_path / "src" / "cat"
    write_file(src, "skills/sk-a/SKILL.md", _skill("sk-a"))
    write_file(src, "skills/sk-c/SKILL.md", _skill("sk-c", "conflicts: [sk-a]\n"))
    hooks = [{"type": "command", "command": f"{SAME} {n}"} for n in ("one", "two")]
    hooks.append({"type": "command", "command": "jq -r .tool_input.command   | grep -qv rm"})
    write_file(src, "hooks/guards.json", {"description": "Guard bash calls.",
                                          "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}})
    write_file(src, "hooks/stop-bell.json", {"description": "Ring on stop.",
                                             "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "printf '\\a'"}]}]}})
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    built.close()
    yield tmp_path / "index"


def test_a_bare_conflict_says_who_declares_it_where_and_the_command_past_it(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    code, out, err = run(capsys, "install", "sk-a", "--target", project, "--index-dir", index_dir)
    assert code == 0, out + err
    code, out, err = run(capsys, "install", "sk-c", "--target", project, "--index-dir", index_dir)
    assert code == 1, out + err
    (line,) = [x for x in out.splitlines() if x.startswith("conflict: ")]
    source = tmp_path / "src/cat/skills/sk-c/SKILL.md"
    assert f"declared by sk-c in its conflicts ({source})" in line, line
    undo = f"skill-retriever uninstall {SK_A} --target {project}"
    assert f"to install sk-c here, run `{undo}` first, or add --allow-conflicts" in line, line
    assert "--force" not in line  # it overwrites files; it lets no conflict through
    code, out, err = run(capsys, "install", "sk-c", "--target", project, "--index-dir", index_dir, "--json")
    (c,) = json.loads(out)["conflicts"]
    assert c["reason"] == "" and c["source"] == SK_C  # the old fields, as they were
    assert c["declared_by"] == [SK_C] and c["declared_in"] == [str(source)]
    assert c["resolve"] == undo
    # the command works as printed: then sk-c installs
    code, out, err = run(capsys, *undo.split()[1:])
    assert code == 0, out + err
    code, out, err = run(capsys, "install", "sk-c", "--target", project, "--index-dir", index_dir)
    assert code == 0 and (project / ".claude/skills/sk-c/SKILL.md").is_file(), out + err


def test_a_conflict_of_two_in_the_set_says_its_declarer_and_no_uninstall(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    code, out, err = run(capsys, "install", "sk-a", "sk-c", "--target", project, "--index-dir", index_dir)
    assert code == 1, out + err
    (line,) = [x for x in out.splitlines() if x.startswith("conflict: ")]
    assert "declared by sk-c in its conflicts (" in line and "uninstall" not in line, line


def test_uninstall_says_what_a_removed_hook_ran_and_a_hash_only_for_twins(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    code, out, err = run(capsys, "install", "guards", "stop-bell", "--target", project, "--index-dir", index_dir)
    assert code == 0, out + err
    code, out, err = run(capsys, "uninstall", "guards", "stop-bell", "--target", project)
    assert code == 0, out + err
    removed = [x.strip() for x in out.splitlines() if x.strip().startswith("removed hook")]
    assert "removed hook Stop (runs printf '\\a') from .claude/settings.json" in removed, out
    assert ("removed hook PreToolUse (tools matching Bash, runs jq -r .tool_input.command | grep -qv rm) "
            "from .claude/settings.json") in removed, out
    # the two whose shortened commands read the same keep their hash, and only they
    twins = [x for x in removed if "this long shared prefix" in x]
    assert len(twins) == 2 and all(" command @" in x for x in twins), out
    assert sum(" command @" in x for x in removed) == 2, out


def test_uninstall_names_your_file_left_in_a_skill_folder(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    code, out, err = run(capsys, "install", "sk-a", "--target", project, "--index-dir", index_dir)
    assert code == 0, out + err
    write_file(project, ".claude/skills/sk-a/mynotes.md", "my notes\n")
    said = (".claude/skills/sk-a/mynotes.md: your file (no install wrote it), so .claude/skills/sk-a stays, "
            "without its SKILL.md")
    code, out, err = run(capsys, "uninstall", "sk-a", "--target", project, "--dry-run")
    assert code == 0 and f"would keep {said}" in out, out + err
    code, out, err = run(capsys, "uninstall", "sk-a", "--target", project)
    assert code == 0 and f"kept {said}" in out, out + err
    assert (project / ".claude/skills/sk-a/mynotes.md").is_file()
    assert not (project / ".claude/skills/sk-a/SKILL.md").exists()
    write_file(project, ".claude/skills/sk-a/SKILL.md", _skill("sk-a"))  # (gone: install it again)
    (project / ".claude/skills/sk-a/SKILL.md").unlink()
    code, out, err = run(capsys, "install", "sk-a", "--target", project, "--index-dir", index_dir)
    assert code == 0, out + err
    code, out, err = run(capsys, "uninstall", "sk-a", "--target", project, "--json")
    assert code == 0 and json.loads(out)["kept_yours"] == {
        ".claude/skills/sk-a/mynotes.md": ".claude/skills/sk-a"
    }, out


def test_a_conflict_with_a_copy_no_install_recorded_says_to_delete_it(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    write_file(project, ".claude/skills/sk-a/SKILL.md", _skill("sk-a"))  # put there by hand
    code, out, err = run(capsys, "install", "sk-c", "--target", project, "--index-dir", index_dir)
    assert code == 1, out + err
    (line,) = [x for x in out.splitlines() if x.startswith("conflict: ")]
    assert "to install sk-c here, delete .claude/skills/sk-a/SKILL.md first (no install recorded it" in line, line
    assert "uninstall" not in line, line  # there is no record for uninstall to take it back by
