"""Several plugins at one marketplace root (anthropics/skills' layout), end to end: indexed,
found by a query, and installed each with the skills its entry lists, no other.

Each entry whose source is the marketplace root is a plugin that loads the skills its
``skills`` paths name (https://code.claude.com/docs/en/plugins-reference#path-behavior-rules):
only the first entry was indexed, so ``install example-skills`` found no plugin and
``install document-skills`` brought every skill of the repository.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from shared_root_market import GROUPS, MARKET, shared_root


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
