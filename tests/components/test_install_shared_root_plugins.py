"""Several plugins at one marketplace root (anthropics/skills' layout), end to end: indexed,
found by a query, and installed each with the skills its entry lists, no other.

Each entry whose source is the marketplace root is a plugin that loads the skills its
``skills`` paths name (https://code.claude.com/docs/en/plugins-reference#path-behavior-rules):
only the first entry was indexed, so ``install example-skills`` found no plugin and
``install document-skills`` brought every skill of the repository.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from cli_calls import run
from shared_root_market import GROUPS, MARKET, shared_root, shared_root_components


@pytest.fixture
def index_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    repo = shared_root(tmp_path / "repo", GROUPS)
    ix = tmp_path / "ix"
    code, out, err = run(capsys, "index", repo, "--index-dir", ix)
    assert code == 0 and "0 problems" in out, out + err
    return ix


def test_a_query_finds_each_plugin(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in GROUPS:
        code, out, err = run(capsys, "query", f"the {name} collection", "--index-dir", index_dir,
                             "--kinds", "plugin", "--json")
        assert code == 0, err
        assert json.loads(out)["results"][0]["id"] == f"repo/{MARKET}#{name}"


@pytest.mark.parametrize("plugin", ["example-skills", "claude-api"])
def test_installing_one_plugin_installs_its_skills_only(
    plugin: str, index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", plugin, "--target", target, "--index-dir", index_dir)
    assert code == 0, out + err
    assert sorted(p.name for p in (target / ".claude/skills").iterdir()) == sorted(GROUPS[plugin])
    code, out, err = run(capsys, "uninstall", plugin, "--target", target)
    assert code == 0, out + err
    assert not (target / ".claude/skills").exists() or not any((target / ".claude/skills").iterdir())


def test_entries_at_a_root_with_a_plugin_json_install_each_by_its_entry_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plugin.json at the marketplace root named all three plugins 'acme': ``install
    alpha`` found no component, ``install acme`` was ambiguous among three."""
    repo = shared_root_components(tmp_path / "repo")
    (repo / ".claude-plugin/plugin.json").write_text(json.dumps({"name": "acme", "description": "The acme toolkit."}))
    ix, target = tmp_path / "ix", tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "index", repo, "--index-dir", ix)
    assert code == 0 and "0 problems" in out, out + err
    code, out, err = run(capsys, "install", "alpha", "--target", target, "--index-dir", ix)
    assert code == 0, out + err
    assert f"plugin alpha  repo/{MARKET}#alpha: 6 component(s)" in out
    assert sorted(p.name for p in (target / ".claude/commands/alpha").iterdir()) == ["deploy.md", "ship.md"]
    assert sorted(p.name for p in (target / ".claude/agents").iterdir()) == ["reviewer.md", "tester.md"]
    code, out, err = run(capsys, "install", "acme", "--target", target, "--index-dir", ix)
    assert code == 2 and "no component 'acme'" in err, out + err
    code, out, err = run(capsys, "uninstall", "alpha", "--target", target)
    assert code == 0, out + err
    assert not (target / ".claude/commands/alpha").exists() and not (target / ".claude/agents").exists()


def test_two_entries_inline_hooks_are_found_installed_and_taken_back_each_by_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = shared_root_components(tmp_path / "repo")
    data = json.loads((repo / MARKET).read_text())
    for entry in data["plugins"][:2]:
        entry["hooks"] = {"PostToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": f"echo {entry['name']} wrote a file"}]}]}
    (repo / MARKET).write_text(json.dumps(data))
    ix, target = tmp_path / "ix", tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "index", repo, "--index-dir", ix)
    assert code == 0 and "0 problems" in out, out + err
    code, out, err = run(capsys, "query", "echo when a file is written", "--kinds", "hook", "--index-dir", ix, "--json")
    assert code == 0, err
    ids = [r["id"] for r in json.loads(out)["results"]]
    assert {f"repo/{MARKET}#alpha#hooks", f"repo/{MARKET}#beta#hooks"} <= set(ids)  # neither folded into the other
    code, out, err = run(capsys, "install", "alpha-entry-hooks", "beta-entry-hooks", "--target", target, "--index-dir", ix)
    assert code == 0, out + err
    code, out, err = run(capsys, "uninstall", "beta-entry-hooks", "--target", target)
    assert code == 0, out + err
    (group,) = json.loads((target / ".claude/settings.json").read_text())["hooks"]["PostToolUse"]
    assert [h["command"] for h in group["hooks"]] == ["echo alpha wrote a file"]


def test_a_plugin_is_installed_by_the_name_claude_code_gives_it(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``/plugin install claude-api@anthropic-agent-skills`` is how Claude Code names a plugin
    of a marketplace: here it was 'no component ... in the index' (with no close name)."""
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", "claude-api@anthropic-agent-skills", "--target", target,
                         "--index-dir", index_dir)
    assert code == 0, out + err
    assert f"plugin claude-api  repo/{MARKET}#claude-api" in out
    assert [p.name for p in (target / ".claude/skills").iterdir()] == ["claude-api"]
    code, out, err = run(capsys, "install", "claude-api@another-market", "--target", target, "--index-dir", index_dir)
    assert code == 2 and "no component 'claude-api@another-market'" in err, out + err
    # which marketplace it is of, and the name that installs it (was: close names 'claude-api' only)
    assert ("plugin 'claude-api' is of marketplace 'anthropic-agent-skills', not 'another-market'; "
            "close names: claude-api@anthropic-agent-skills;") in err, err


def test_a_plugin_installed_by_the_name_claude_code_gives_it_is_uninstalled_by_it(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``uninstall claude-api@anthropic-agent-skills`` was 'no component ... installed',
    though install took that name: the two take the same names. Another marketplace's name
    is refused, saying which marketplace the installed plugin is of."""
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", "claude-api@anthropic-agent-skills", "--target", target,
                         "--index-dir", index_dir)
    assert code == 0, out + err
    code, out, err = run(capsys, "uninstall", "claude-api@another-market", "--target", target)
    assert code == 2, out + err
    assert ("plugin 'claude-api' installed in" in err and "is of marketplace 'anthropic-agent-skills', "
            "not 'another-market'" in err), err
    record = target / ".claude/.skill-retriever/installed.json"
    data = json.loads(record.read_text())
    assert data["plugins"][f"repo/{MARKET}#claude-api"]["marketplace"] == "anthropic-agent-skills"
    older = json.loads(record.read_text())
    del older["plugins"][f"repo/{MARKET}#claude-api"]["marketplace"]  # as an older version wrote it
    record.write_text(json.dumps(older))
    code, out, err = run(capsys, "uninstall", "claude-api@anthropic-agent-skills", "--target", target)
    assert code == 2 and "recorded without its marketplace (by an older version): uninstall 'claude-api'" in err, err
    record.write_text(json.dumps(data))
    code, out, err = run(capsys, "uninstall", "claude-api@anthropic-agent-skills", "--target", target, "--dry-run")
    assert code == 0 and "skills/claude-api" in out, out + err
    code, out, err = run(capsys, "uninstall", "claude-api@anthropic-agent-skills", "--target", target)
    assert code == 0, out + err
    assert not (target / ".claude").exists()  # the record too: nothing is left installed


def test_the_advice_after_an_unknown_name_finds_plugins_too(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The query advised to find ids left plugins out (``--kinds skill,agent,command,hook,mcp_server``),
    though a plugin is installed by its name: the user who mistyped one was sent to a search
    that never shows it."""
    code, out, err = run(capsys, "install", "claude-apl@anthropic-agent-skills", "--target", tmp_path,
                         "--index-dir", index_dir)
    assert code == 2, out + err
    advised = re.search(r"find ids with `skill-retriever (query .*?)`", err)
    assert advised is not None, err
    code, out, err = run(capsys, *shlex.split(advised[1].replace('"<the task>"', '"the claude api collection"')), "--json")
    assert code == 0, err
    assert f"repo/{MARKET}#claude-api" in [r["id"] for r in json.loads(out)["results"]]


@pytest.mark.parametrize(("given", "taken_back"), [
    ("claude-api@Anthropic-Agent-Skills", "CLAUDE-API@anthropic-agent-skills"),
    ("Claude-API@anthropic-agent-skills", "claude-api@ANTHROPIC-AGENT-SKILLS"),
])
def test_a_marketplace_name_is_compared_case_aside_as_the_plugin_name_is(
    given: str, taken_back: str, index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``install claude-api@Anthropic-Agent-Skills`` was 'no component' ("is of marketplace
    'anthropic-agent-skills', not 'Anthropic-Agent-Skills'"), though the plugin's name was
    already compared case aside: marketplace names are kebab-case identifiers, one whatever
    the case it is typed in. Install and uninstall take either part in any case."""
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", given, "--target", target, "--index-dir", index_dir)
    assert code == 0, out + err
    assert [p.name for p in (target / ".claude/skills").iterdir()] == ["claude-api"]
    code, out, err = run(capsys, "uninstall", taken_back, "--target", target)
    assert code == 0, out + err
    assert not (target / ".claude").exists()
