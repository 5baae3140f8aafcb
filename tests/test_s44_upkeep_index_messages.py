"""What `index` says when a source changed, moved or vanished since it was indexed: the
source's real name and the commands that work, what --keep-missing kept, and every
relation a run removed (text and --json alike). Through the real CLI, hashing embedder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_calls import run

HASHING = ("--embedder", "hashing-64")


def skill(repo: Path, name: str, requires: list[str] | None = None) -> Path:
    path = repo / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    needs = f"requires: [{', '.join(requires)}]\n" if requires else ""
    path.write_text(f"---\nname: {name}\ndescription: {name} for tests\n{needs}---\n\n{name} body\n", encoding="utf-8")
    return path


def stats(capsys: pytest.CaptureFixture[str], ix: Path) -> dict[str, object]:
    code, out, _ = run(capsys, "stats", "--index-dir", ix, "--json")
    assert code == 0
    data: dict[str, object] = json.loads(out)
    return data


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    for name in ("alpha", "beta", "gamma"):
        skill(folder, name)
    return folder


def test_a_moved_source_is_named_with_the_commands_that_take_it_in_again(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said only "does not exist; give a skills folder, ...", though the index holds
    the source read from that very path and `stats` knew it was gone."""
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    moved = repo.rename(tmp_path / "moved")
    code, _, err = run(capsys, "index", repo, "--index-dir", ix)
    assert code == 2
    assert f"{repo} does not exist; the index holds the source 'repo' (3 item(s)) read from it" in err
    assert f"`skill-retriever remove-source repo --index-dir {ix}` takes it out" in err
    assert f"if it was moved, `skill-retriever index NEWPATH --source-name repo --index-dir {ix}` takes it in" in err
    assert "give a skills folder" not in err
    # the advice works as printed: the source, under its name, now read from the new folder,
    # with no remove-source first (which deleted the vectors: every text embedded again)
    code, out, _ = run(capsys, "index", moved, "--source-name", "repo", "--index-dir", ix)
    assert code == 0 and "embedded 0 texts;" in out
    sources = stats(capsys, ix)["sources"]
    assert isinstance(sources, dict)
    assert [(s["name"], s["root"], s["items"], s["gone"]) for s in sources["named"]] == [
        ("repo", str(moved), 3, False)
    ]


def test_a_gone_folder_that_held_sources_names_them(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A parent folder deleted with the source in it: the source is named, with its root."""
    box = tmp_path / "box"
    box.mkdir()
    inner = repo.rename(box / "repo")
    ix = tmp_path / "ix"
    assert run(capsys, "index", inner, "--index-dir", ix, *HASHING)[0] == 0
    inner.rename(tmp_path / "elsewhere")
    box.rmdir()
    code, _, err = run(capsys, "index", box, "--index-dir", ix)
    assert code == 2 and f"the index holds the source 'repo' (3 item(s), from {inner}) read from it" in err
    assert "remove-source repo" in err


def test_an_emptied_folder_names_the_source_the_index_holds_from_it(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It advised `remove-source NAME`, a placeholder, although the name is known."""
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--source-name", "mine", "--index-dir", ix, *HASHING)[0] == 0
    for name in ("alpha", "beta", "gamma"):
        (repo / "skills" / name / "SKILL.md").unlink()
    code, _, err = run(capsys, "index", repo, "--source-name", "mine", "--index-dir", ix)
    assert code == 1 and f"no items read from {repo}" in err
    assert f"`skill-retriever remove-source mine --index-dir {ix}`" in err and "NAME" not in err
    code, out, _ = run(capsys, "index", repo, "--source-name", "mine", "--index-dir", ix, "--json")
    assert code == 1 and f"remove-source mine --index-dir {ix}" in json.loads(out)["error"]
    # a folder the index never held has nothing to take out: no remove-source at all
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, "index", empty, "--index-dir", ix)
    assert code == 1 and f"no items read from {empty}" in err and "remove-source" not in err


def test_keep_missing_says_what_it_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It kept the items of deleted files without a word: the counts read as if nothing
    was gone."""
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    for n in range(8):
        skill(repo, f"s{n}")
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    for n in range(1, 8):
        (repo / "skills" / f"s{n}" / "SKILL.md").unlink()
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix, "--keep-missing")
    assert code == 0
    first = ", ".join(f"repo/skills/s{n}/SKILL.md" for n in range(1, 6))
    assert (f"  kept 7 item(s) whose file is gone (--keep-missing; indexing without it removes them): "
            f"{first} and 2 more") in out.splitlines()
    assert "removed" not in out and "holds 8 nodes" in out
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix, "--keep-missing", "--json")
    report = json.loads(out)["run"]
    assert code == 0 and report["nodes_kept"] == {str(repo): 7} and report["nodes_removed"] == {}
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix)  # without it: removed, nothing kept
    assert code == 0 and "removed 7 item(s)" in out and "kept" not in out and "holds 1 nodes" in out


def requiring(repo: Path) -> Path:
    """alpha requires beta, gamma alpha, delta gamma."""
    skill(repo, "alpha", ["beta"])
    skill(repo, "beta")
    skill(repo, "gamma", ["alpha"])
    skill(repo, "delta", ["gamma"])
    return repo


def change(repo: Path) -> None:
    (repo / "skills" / "beta" / "SKILL.md").unlink()  # alpha's DEPENDS_ON beta goes with it
    skill(repo, "gamma")  # gamma no longer requires alpha: a relation between items that stay


def test_every_relation_removed_is_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Deleting an item took its relations with it uncounted: the report said fewer
    relations removed than the index lost. Now the relations of items that stay and
    those that went with the removed items add up to the drop, in text and in --json."""
    repo, ix = requiring(tmp_path / "repo"), tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    before = stats(capsys, ix)["edges"]
    change(repo)
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix)
    after = stats(capsys, ix)["edges"]
    assert code == 0 and isinstance(before, int) and isinstance(after, int)
    lines = out.splitlines()
    between = [line for line in lines if line.endswith("relation(s) its items no longer have")]
    assert between == ["  removed 1 relation(s) its items no longer have"]
    with_items = before - after - 1
    assert with_items >= 1
    assert ("  removed 1 item(s) the source no longer has: repo/skills/beta/SKILL.md; "
            f"and the {with_items} relation(s) touching them") in lines

    # --json says the same, on a fresh copy of the same change
    again, ix2 = requiring(tmp_path / "again" / "repo"), tmp_path / "ix2"
    assert run(capsys, "index", again, "--index-dir", ix2, *HASHING)[0] == 0
    change(again)
    code, out, _ = run(capsys, "index", again, "--index-dir", ix2, "--json")
    data = json.loads(out)
    assert code == 0 and data["index"]["edges"] == after
    assert data["run"]["edges_removed"] == {str(again): 1}
    assert data["run"]["edges_removed_with_items"] == {str(again): with_items}
    assert data["run"]["nodes_removed"] == {str(again): 1}
