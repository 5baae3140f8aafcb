"""A marketplace-only plugin whose files the user indexed from a clone, as its skip advises.

Found in a walkthrough on wshobson's marketplace (``pensyve``, kept in another repository):
with a clone of it indexed, installing the clone's plugin and the marketplace's entry in
one call (``query`` lists both) wrote the plugin and still skipped the entry with "its files
kept at ..., which this index does not hold; install it in Claude Code (/plugin install
pensyve@...)", exit 1. The entry adds nothing to the plugin the same install writes: it is
left out of the plan. Asked for alone, its skip names the plugin of its name the index
holds. And a member's note on its plugin's namespace says that installing the plugin here
does not give it, where it read as if doing so were the way on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run

HASHING = ("--embedder", "hashing-64")
MARKETPLACE = {
    "name": "team-market",
    "owner": {"name": "Team"},
    "plugins": [{
        "name": "far-memory",
        "description": "Memory kept in another repository.",
        "source": {"source": "git-subdir", "url": "https://example.com/far.git", "path": "cc"},
    }],
}
ENTRY = "market/.claude-plugin/marketplace.json#far-memory"
CLONE = "far/cc"
AGENT = (
    "---\nname: recaller\ndescription: Recalls memories kept far away.\n---\n"
    'Hand the search to subagent_type: "far-memory:searcher".\n'
)


@pytest.fixture
def index_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    market = tmp_path / "market"
    (market / ".claude-plugin").mkdir(parents=True)
    (market / ".claude-plugin/marketplace.json").write_text(json.dumps(MARKETPLACE))
    clone = tmp_path / "far/cc"  # the clone, indexed as the skip advises
    (clone / ".claude-plugin").mkdir(parents=True)
    (clone / ".claude-plugin/plugin.json").write_text(json.dumps({"name": "far-memory", "version": "1.0.0"}))
    (clone / "agents").mkdir()
    (clone / "agents/recaller.md").write_text(AGENT)
    ix = tmp_path / "ix"
    assert run(capsys, "index", market, tmp_path / "far", "--index-dir", ix, *HASHING)[0] == 0
    return ix


def test_the_entry_of_a_plugin_the_same_install_writes_is_left_out(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", CLONE, ENTRY, "--target", target, "--index-dir", index_dir)
    assert code == 0, out + err
    assert (target / ".claude/agents/recaller.md").read_text() == AGENT
    assert ENTRY not in out and "does not hold" not in out and "skipped" not in out
    note = next(line for line in out.splitlines() if "namespace" in line)
    assert "this install writes the plugin's components, not the plugin, so they are named without it" in note
    assert "install the plugin in Claude Code with /plugin install" in note
    code, out, err = run(capsys, "install", CLONE, ENTRY, "--target", target, "--index-dir", index_dir, "--json")
    assert code == 0, out + err
    assert [c["id"] for c in json.loads(out)["components"]] == [f"{CLONE}/agents/recaller.md"]


def test_the_entry_alone_names_the_plugin_the_index_holds(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    code, out, err = run(capsys, "install", ENTRY, "--target", target, "--index-dir", index_dir)
    assert code == 1, out + err
    line = next(x for x in out.splitlines() if x.startswith("[plugin] far-memory"))
    assert f"the index holds a plugin of that name with components, {CLONE}: install that one by its id" in line
    assert "does not hold" not in line and "/plugin install" not in line
    assert not (target / ".claude").exists()
