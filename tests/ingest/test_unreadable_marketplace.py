"""A marketplace.json that cannot be read: nothing below its root is indexed that run.

Its entries give their plugins' ``access``. Read without them (one trailing comma), the
plugin folders became bare plugins, public with their members: `ops` and its skill `vault`
went from ``('ops',)`` to ``()``, shown to every caller. The file is now what cannot be
read of who may see them: nothing below the marketplace's root is indexed that run, a
problem says why and what to fix, and what was indexed before stays.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import deny_reading, write_file
from indexed_access import indexed_access

from skill_retriever.ingest.result import Unread
from skill_retriever.ingest.skills import ingest_skill_repo

MARKET = {"name": "m", "plugins": [{"name": "ops", "source": "./plugins/ops", "access": ["ops"]}]}
BROKEN = '{"name": "m", "plugins": [{"name": "ops", "source": "./plugins/ops", "access": ["ops"]},]}'


def _md(name: str) -> str:
    return f"---\nname: {name}\ndescription: The {name} skill rotates keys.\n---\n\nRotate the {name} keys.\n"


def test_an_unreadable_marketplace_at_the_root_indexes_nothing_rather_than_public(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    market = write_file(repo, ".claude-plugin/marketplace.json", MARKET)
    write_file(repo, "plugins/ops/skills/vault/SKILL.md", _md("vault"))
    assert {n.name: n.access for n in ingest_skill_repo(repo).nodes} == {"vault": ("ops",), "ops": ("ops",)}
    market.write_text(BROKEN, encoding="utf-8")
    result = ingest_skill_repo(repo)
    assert result.nodes == []
    said = {p.path: p for p in result.problems}
    assert said[str(market)].message.startswith("marketplace not read: not valid JSON")
    assert "mend it and index again" in said[str(market)].message
    assert said[str(repo)].keeps is Unread.FOLDER and "not indexed this run" in said[str(repo)].message


@pytest.mark.parametrize("broken", [BROKEN, '{"name": "m", "plugins": {"ops": {"access": ["ops"]}}}', "[]"])
def test_what_was_indexed_below_an_unreadable_marketplace_stays(tmp_path: Path, broken: str) -> None:
    """A marketplace in a folder of the repository: what lies outside is indexed as ever,
    what lies below it keeps its earlier labels rather than being written public or pruned."""
    repo, ix = tmp_path / "repo", tmp_path / "index"
    market = write_file(repo, "market/.claude-plugin/marketplace.json", MARKET)
    write_file(repo, "market/plugins/ops/skills/vault/SKILL.md", _md("vault"))
    write_file(repo, "skills/open/SKILL.md", _md("open"))
    assert indexed_access(repo, ix) == {"vault": ("ops",), "ops": ("ops",), "open": ()}
    market.write_text(broken, encoding="utf-8")
    assert [n.name for n in ingest_skill_repo(repo).nodes] == ["open"]
    assert indexed_access(repo, ix) == {"vault": ("ops",), "ops": ("ops",), "open": ()}


def test_the_folder_of_an_entry_skipped_is_not_indexed_public(tmp_path: Path) -> None:
    """An entry without a name (or a name listed twice) is skipped: its folder was a bare
    plugin, public with its members, where the entry gives ``access``."""
    repo = tmp_path / "repo"
    entries = [{"name": "a", "source": "./plugins/a"}, {"source": "./plugins/ops", "access": ["ops"]},
               {"name": "a", "source": "./plugins/b", "access": ["b"]}]
    write_file(repo, ".claude-plugin/marketplace.json", {"name": "m", "plugins": entries})
    for name in ("a", "ops", "b"):
        write_file(repo, f"plugins/{name}/skills/{name}-skill/SKILL.md", _md(f"{name}-skill"))
    result = ingest_skill_repo(repo)
    assert {n.name for n in result.nodes} == {"a", "a-skill"}
    kept = {p.path for p in result.problems if p.keeps is Unread.FOLDER}
    assert kept == {str(repo / "plugins/ops"), str(repo / "plugins/b")}


def test_index_says_why_exits_1_and_a_public_query_does_not_find_the_private_skill(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    market = write_file(repo, ".claude-plugin/marketplace.json", MARKET)
    write_file(repo, "plugins/ops/skills/vault/SKILL.md", _md("vault"))
    assert run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    market.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")
    assert code == 1, (out, err)
    assert f"problem: {market}: marketplace not read: not valid JSON" in out
    assert "read as documents" not in out  # its Markdown files would be public documents
    for principals, found in (("nobody", False), ("ops", True)):
        code, out, _ = run(capsys, "query", "rotate the vault keys", "--index-dir", ix, "--json",
                           "--principals", principals)
        assert code == 0
        assert ("vault" in {r["name"] for r in json.loads(out)["results"]}) is found


def test_an_unreadable_marketplace_ends_with_why_and_what_to_do_not_the_wrong_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under chmod 000 the last line said to give "a folder of SKILL.md / agent / command
    ... files", the folder given, and to `remove-source` it as if emptied on purpose."""
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    market = write_file(repo, ".claude-plugin/marketplace.json", MARKET)
    write_file(repo, "plugins/ops/skills/vault/SKILL.md", _md("vault"))
    assert run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    deny_reading(monkeypatch, market)
    code, out, err = run(capsys, "index", repo, "--index-dir", ix)
    assert code == 1 and f"problem: {market}: marketplace not read: cannot read: Permission denied" in out
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: no items read from {repo}: 2 problem(s) above say what could not be read, "
                           f"the first refused {market}: marketplace not read: cannot read: Permission denied; "
                           "make what they name readable"), last
    assert "a folder of SKILL.md" not in last and "remove-source" not in last
    assert last.endswith("what the index holds of it stays")
    assert indexed_access(repo, tmp_path / "ix")["vault"] == ("ops",)  # held as it was


def test_a_folder_whose_every_file_is_unreadable_names_them_as_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    locked = [write_file(repo, f"skills/{n}/SKILL.md", _md(n)) for n in ("alpha", "beta")]
    locked.append(write_file(repo, "agents/rev.md", "---\nname: rev\ndescription: Reviews.\n---\n\nReviews.\n"))
    for path in locked:
        deny_reading(monkeypatch, path)
    code, out, err = run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")
    assert code == 1 and out.count("cannot read: Permission denied") == 3
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: no items read from {repo}: 3 problem(s) above say what could not be read, "
                           f"the first refused {locked[2]}: cannot read: Permission denied; make what they name readable")
    assert last.endswith("nothing of it was written or removed") and "a folder of SKILL.md" not in last
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64", "--json")
    assert code == 1 and json.loads(out)["error"] == last.removeprefix("error: ")


def test_a_marketplace_unreadable_below_items_read_ends_without_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What was read is written, and the run's last line does not say nothing was."""
    repo = tmp_path / "repo"
    market = write_file(repo, "market/.claude-plugin/marketplace.json", MARKET)
    write_file(repo, "market/plugins/ops/skills/vault/SKILL.md", _md("vault"))
    write_file(repo, "skills/open/SKILL.md", _md("open"))
    deny_reading(monkeypatch, market)
    code, out, err = run(capsys, "index", repo, "--index-dir", tmp_path / "ix", "--embedder", "hashing-64")
    assert code == 0 and f"{repo}: 1 nodes" in out and "cannot read: Permission denied" in out
    assert "no items read" not in out + err and out.strip().splitlines()[-1].startswith("took ")
