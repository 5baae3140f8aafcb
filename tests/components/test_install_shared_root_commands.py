"""A command several marketplace entries at one root load goes under the plugin installed,
and uninstalling one of two such plugins leaves what the other still holds.

`shared_root_components`: ``alpha`` names ``commands/deploy.md`` and ``extras/ship.md``;
``beta`` loads the default ``commands/`` folder (``deploy.md`` and ``clean.md``) and names
its agent; both load ``skills/pdf``, ``hooks/hooks.json`` and ``agents/reviewer.md``. The
index files ``deploy`` under the first entry, alpha: ``install beta`` wrote
``.claude/commands/alpha/deploy.md``, though Claude Code names a plugin's commands by the
plugin installed (https://code.claude.com/docs/en/slash-commands#plugin-commands); and
``uninstall alpha`` took back what beta, still installed, had brought too. Then
``uninstall alpha`` with beta installed left ``deploy.md`` in ``.claude/commands/alpha/``,
the folder of a plugin no longer installed: it moves to the folder of the plugin that
holds it (``.claude/commands/beta/deploy.md``), and the record says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import installed_fresh, run
from read_only_target import mount_read_only
from shared_root_market import shared_root_components_index

#: What each plugin writes, as installed alone (the hook: its Stop group in settings.json).
ALPHA = {".claude/commands/alpha/deploy.md", ".claude/commands/alpha/ship.md", ".claude/agents/reviewer.md",
         ".claude/agents/tester.md", ".claude/skills/pdf/SKILL.md"}
BETA = {".claude/commands/beta/deploy.md", ".claude/commands/beta/clean.md", ".claude/agents/reviewer.md",
        ".claude/skills/pdf/SKILL.md"}


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shared")
    return shared_root_components_index(root)


def _files(target: Path) -> set[str]:
    """What lies in ``target``'s .claude, the install record and settings.json aside."""
    claude = target / ".claude"
    return {p.relative_to(target).as_posix() for p in claude.rglob("*") if p.is_file()
            and ".skill-retriever" not in p.parts and p.name != "settings.json"}


def _stop_hooks(target: Path) -> list[str]:
    settings = target / ".claude/settings.json"
    if not settings.exists():
        return []
    groups = json.loads(settings.read_text()).get("hooks", {}).get("Stop", [])
    return [h["command"] for g in groups for h in g["hooks"]]


def test_a_shared_command_goes_under_the_plugin_installed_and_stays_there_on_reinstall(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, "beta")
    assert _files(target) == BETA, out
    code, out, err = run(capsys, "install", "beta", "--target", target, "--index-dir", index_dir)
    assert code == 0 and "unchanged .claude/commands/beta/deploy.md" in out and "remove" not in out, out + err
    code, out, err = run(capsys, "uninstall", "beta", "--target", target)
    assert code == 0, out + err
    assert not (target / ".claude").exists()


@pytest.mark.parametrize(("first", "second"), [("alpha", "beta"), ("beta", "alpha")])
def test_uninstalling_one_of_two_plugins_leaves_what_the_other_holds(
    first: str, second: str, index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, first, second)
    both = _files(target)
    # one copy of deploy.md, in alpha's folder (the name that sorts first) whichever was installed
    # first: Claude Code calls it /deploy in either folder
    assert both == {*ALPHA, *BETA} - {".claude/commands/beta/deploy.md"}, both
    if first == "beta":  # installing alpha moved it out of beta's folder, and said why
        assert ("remove .claude/commands/beta/deploy.md: moved to .claude/commands/alpha/deploy.md: of the "
                "plugins installed here that load it, 'alpha' sorts first") in out, out
    for going, staying in ((first, second), (second, None)):
        code, out, err = run(capsys, "uninstall", going, "--target", target)
        assert code == 0, out + err
        if staying is None:
            assert not (target / ".claude").exists()
            continue
        # the shared command lies in the folder of the plugin that stays: none is left under going's
        assert _files(target) == (ALPHA if staying == "alpha" else BETA), out
        moved = "moved .claude/commands/alpha/deploy.md to .claude/commands/beta/deploy.md"
        assert (moved in out) == (going == "alpha"), out
        recorded = json.loads((target / ".claude/.skill-retriever/installed.json").read_text())["components"]
        assert [f for e in recorded.values() for f in e["files"] if f.endswith("/deploy.md")] == [
            f".claude/commands/{staying}/deploy.md"]
        assert _stop_hooks(target) == ["echo stop"], out
        assert f"plugin '{staying}'" in out, out  # says why what it holds stayed


@pytest.mark.parametrize("runs", [("alpha", "beta"), ("beta", "alpha"), ("beta alpha",), ("alpha beta",)])
def test_the_same_plugins_give_the_same_tree_whatever_the_order_or_runs(
    runs: tuple[str, ...], index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The install order decided the shared command's folder: alpha then beta wrote
    alpha/deploy.md, beta then alpha beta/deploy.md (two trees of one set of plugins)."""
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, *runs)
    assert _files(target) == {*ALPHA, *BETA} - {".claude/commands/beta/deploy.md"}, out
    code, out, err = run(capsys, "install", "alpha", "beta", "--target", target, "--index-dir", index_dir)
    assert code == 0 and "create" not in out and "remove" not in out, out + err  # nothing to change


def test_a_shared_command_you_changed_stays_in_its_folder_when_a_plugin_sorting_first_installs(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Moved, your change would pass for what the install wrote, and a second copy would be
    a second /deploy: it stays where it is, one copy."""
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, "beta")
    (target / ".claude/commands/beta/deploy.md").write_text("my deploy\n")
    _, out, err = run(capsys, "install", "alpha", "--target", target, "--index-dir", index_dir)
    assert ".claude/commands/alpha/deploy.md" not in _files(target), out + err
    assert (target / ".claude/commands/beta/deploy.md").read_text() == "my deploy\n"


def test_two_plugins_installed_in_one_run_each_uninstall_leaves_the_other(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, "beta alpha")
    assert ".claude/commands/alpha/deploy.md" in _files(target), out  # the name that sorts first
    code, out, err = run(capsys, "uninstall", "beta", "--target", target)
    assert code == 0, out + err
    assert _files(target) == ALPHA
    code, out, err = run(capsys, "uninstall", "alpha", "--target", target)
    assert code == 0, out + err
    assert not (target / ".claude").exists()


@pytest.mark.parametrize(("first", "second"), [("alpha", "beta"), ("beta", "alpha")])
def test_reinstalling_and_uninstalling_both_in_either_order_leaves_no_stray_file(
    first: str, second: str, index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """first, second; uninstall first (the command moves to second's folder); install
    first again (no second copy; back in alpha's folder); uninstall second (moved to
    beta's when alpha goes); uninstall first."""
    target = tmp_path / "proj"
    target.mkdir()
    steps = [("install", first), ("install", second), ("uninstall", first), ("install", first)]
    for verb, plugin in steps:
        code, out, err = run(capsys, verb, plugin, "--target", target,
                             *(["--index-dir", index_dir] if verb == "install" else []))
        assert code == 0, out + err
    assert _files(target) == {*ALPHA, *BETA} - {".claude/commands/beta/deploy.md"}, out
    code, out, err = run(capsys, "uninstall", second, "--dry-run", "--target", target)
    assert code == 0 and ("would move .claude/commands/alpha/deploy.md" in out) == (second == "alpha"), out + err
    assert _files(target) == {*ALPHA, *BETA} - {".claude/commands/beta/deploy.md"}, out
    code, out, err = run(capsys, "uninstall", second, "--target", target)
    assert code == 0, out + err
    assert _files(target) == (ALPHA if first == "alpha" else BETA), out
    code, out, err = run(capsys, "uninstall", first, "--target", target)
    assert code == 0 and "kept" not in out, out + err
    assert not (target / ".claude").exists(), _files(target)


def test_a_file_where_the_command_would_move_keeps_it_in_place_dry_run_alike(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file of the user's where the shared command would go is never overwritten: the
    command stays where it was, said in a note, and a dry run (which uninstalls a copy of
    what the record lists) says the same, not that it would move."""
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, "alpha", "beta")
    mine = target / ".claude/commands/beta/deploy.md"
    mine.write_text("my own deploy\n")
    for dry in (["--dry-run"], []):
        code, out, err = run(capsys, "uninstall", "alpha", "--target", target, *dry)
        assert code == 0, out + err
        assert "move" not in out.replace("remove", ""), out
        assert ("left .claude/commands/alpha/deploy.md where it is: .claude/commands/beta/deploy.md, "
                "where it would go, is there already") in out, out
    assert mine.read_text() == "my own deploy\n"
    assert (target / ".claude/commands/alpha/deploy.md").is_file()


def test_a_folder_the_command_would_move_into_that_cannot_be_written_refuses_dry_run_alike(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move writes into the staying plugin's folder: one that cannot be written refuses
    the uninstall before anything changes, and the dry run (of a copy, which can always be
    written) says so too."""
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, "alpha", "beta")
    before = _files(target)
    mount_read_only(monkeypatch, target / ".claude/commands/beta")
    code, out, err = run(capsys, "uninstall", "alpha", "--target", target, "--dry-run")
    assert "refused" in out + err and ".claude/commands/beta" in out + err, out + err
    code, out, err = run(capsys, "uninstall", "alpha", "--target", target)
    assert code != 0 and "cannot write into" in out + err and ".claude/commands/beta" in out + err, out + err
    assert _files(target) == before


@pytest.mark.parametrize("order", [("gamma", "beta", "alpha"), ("alpha", "beta", "gamma")])
def test_three_plugins_in_either_order_give_one_tree_and_uninstall_hands_the_command_to_the_first_by_name(
    order: tuple[str, ...], index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """deploy is loaded by all three, clean by beta and gamma: each lies in the folder of the
    first by name; uninstall alpha moves deploy to beta's, and its kept line names beta too
    (it named the plugin recorded last)."""
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, *order)
    commands = {f for f in _files(target) if "/commands/" in f}
    assert commands == {".claude/commands/alpha/deploy.md", ".claude/commands/alpha/ship.md",
                        ".claude/commands/beta/clean.md"}, commands
    code, out, err = run(capsys, "uninstall", "alpha", "--target", target)
    assert code == 0, out + err
    assert "moved .claude/commands/alpha/deploy.md to .claude/commands/beta/deploy.md" in out, out
    assert "kept deploy: plugin 'beta', still installed, holds it too" in out, out


def test_a_file_of_yours_where_the_command_would_go_keeps_it_where_it_lies(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Installing alpha after beta would move deploy into alpha's folder; a file of yours
    there is not overwritten: deploy stays in beta's, and installing alpha still succeeds."""
    target, out = installed_fresh(capsys, tmp_path / "proj", index_dir, "beta")
    mine = target / ".claude/commands/alpha/deploy.md"
    mine.parent.mkdir(parents=True)
    mine.write_text("my deploy\n")
    code, out, err = run(capsys, "install", "alpha", "--target", target, "--index-dir", index_dir)
    assert code == 0 and "unchanged .claude/commands/beta/deploy.md" in out, out + err
    assert mine.read_text() == "my deploy\n"
    assert (target / ".claude/commands/beta/deploy.md").is_file()
