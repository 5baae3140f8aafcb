"""A command several marketplace entries at one root load goes under the plugin installed,
and uninstalling one of two such plugins leaves what the other still holds.

`shared_root_components`: ``alpha`` names ``commands/deploy.md`` and ``extras/ship.md``;
``beta`` loads the default ``commands/`` folder (``deploy.md`` and ``clean.md``) and names
its agent; both load ``skills/pdf``, ``hooks/hooks.json`` and ``agents/reviewer.md``. The
index files ``deploy`` under the first entry, alpha: ``install beta`` wrote
``.claude/commands/alpha/deploy.md``, though Claude Code names a plugin's commands by the
plugin installed (https://code.claude.com/docs/en/slash-commands#plugin-commands); and
``uninstall alpha`` took back what beta, still installed, had brought too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from shared_root_market import shared_root_components

#: What each plugin writes, as installed alone (the hook: its Stop group in settings.json).
ALPHA = {".claude/commands/alpha/deploy.md", ".claude/commands/alpha/ship.md", ".claude/agents/reviewer.md",
         ".claude/agents/tester.md", ".claude/skills/pdf/SKILL.md"}
BETA = {".claude/commands/beta/deploy.md", ".claude/commands/beta/clean.md", ".claude/agents/reviewer.md",
        ".claude/skills/pdf/SKILL.md"}


@pytest.fixture
def index_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    ix = tmp_path / "ix"
    code, out, err = run(capsys, "index", shared_root_components(tmp_path / "repo"), "--index-dir", ix)
    assert code == 0 and "0 problems" in out, out + err
    return ix


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
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", "beta", "--target", target, "--index-dir", index_dir)
    assert code == 0, out + err
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
    target = tmp_path / "proj"
    target.mkdir()
    for plugin in (first, second):
        code, out, err = run(capsys, "install", plugin, "--target", target, "--index-dir", index_dir)
        assert code == 0, out + err
    both = _files(target)
    # one copy of deploy.md, where the first install put it: Claude Code calls it /deploy in either folder
    assert both == {*ALPHA, *BETA} - {f".claude/commands/{second}/deploy.md"}, both
    for going, staying in ((first, second), (second, None)):
        code, out, err = run(capsys, "uninstall", going, "--target", target)
        assert code == 0, out + err
        if staying is None:
            assert not (target / ".claude").exists()
            continue
        expected = ALPHA if staying == "alpha" else BETA
        kept = expected - {f".claude/commands/{staying}/deploy.md"} | {f".claude/commands/{first}/deploy.md"}
        assert _files(target) == kept, out
        assert _stop_hooks(target) == ["echo stop"], out
        assert f"plugin '{staying}'" in out, out  # says why what it holds stayed


def test_two_plugins_installed_in_one_run_each_uninstall_leaves_the_other(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", "beta", "alpha", "--target", target, "--index-dir", index_dir)
    assert code == 0, out + err
    assert ".claude/commands/beta/deploy.md" in _files(target), out  # the first plugin named
    code, out, err = run(capsys, "uninstall", "beta", "--target", target)
    assert code == 0, out + err
    assert _files(target) == ALPHA - {".claude/commands/alpha/deploy.md"} | {".claude/commands/beta/deploy.md"}
    code, out, err = run(capsys, "uninstall", "alpha", "--target", target)
    assert code == 0, out + err
    assert not (target / ".claude").exists()
