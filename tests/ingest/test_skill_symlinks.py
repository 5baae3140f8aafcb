"""Symbolic links in a skills repository, made for real in tmp_path: none is followed out of
the repository, into a loop or (for a folder) to files read in place anyway, and each
one skipped is a note naming the link and why, so no item goes missing without a word;
a link to a file of the repository is read."""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.ingest.result import IngestResult
from skill_retriever.ingest.skills import ingest_skill_repo, ingest_skill_repos
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _md(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n---\n\nHow to {name}.\n"


def _notes(result: IngestResult, root: Path) -> dict[str, str]:
    assert not result.skips, result.skips  # a skipped link is a note, never a problem
    return {Path(p.path).relative_to(root).as_posix(): p.message for p in result.notes}


def test_a_folder_linked_in_from_another_checkout_is_named_not_followed(tmp_path: Path) -> None:
    write_file(tmp_path, "other/skills/ext/SKILL.md", _md("ext"))
    root = tmp_path / "repo"
    write_file(root, "skills/own/SKILL.md", _md("own"))
    (root / "skills" / "ext").symlink_to(tmp_path / "other" / "skills" / "ext", target_is_directory=True)
    result = ingest_skill_repos([root])
    assert [n.name for n in result.nodes] == ["own"]
    notes = _notes(result, root)
    assert set(notes) == {"skills/ext"}
    assert "folder outside the repository: not followed" in notes["skills/ext"]
    assert str((tmp_path / "other" / "skills" / "ext").resolve()) in notes["skills/ext"]
    assert "pass it as a source of its own" in notes["skills/ext"]
    assert any(line.startswith(f"note: {root / 'skills' / 'ext'}: ") for line in result.problem_lines())


def test_a_folder_link_within_the_repository_indexes_nothing_twice(tmp_path: Path) -> None:
    write_file(tmp_path, "skills/own/SKILL.md", _md("own"))
    write_file(tmp_path, "agents/helper.md", _md("helper"))
    (tmp_path / "skills" / "alias").symlink_to("own", target_is_directory=True)
    (tmp_path / "more").symlink_to("agents", target_is_directory=True)
    result = ingest_skill_repo(tmp_path)
    assert sorted(n.id.split("/", 1)[1] for n in result.nodes) == ["agents/helper.md", "skills/own/SKILL.md"]
    notes = _notes(result, tmp_path)
    assert set(notes) == {"skills/alias", "more"}
    assert "another folder within this repository: not followed (it leads to skills/own" in notes["skills/alias"]
    assert "twice" in notes["more"] and "leads to agents" in notes["more"]


def test_loops_and_broken_links_are_named(tmp_path: Path) -> None:
    write_file(tmp_path, "skills/own/SKILL.md", _md("own"))
    (tmp_path / "skills" / "own" / "back").symlink_to("..", target_is_directory=True)
    (tmp_path / "skills" / "own" / "root").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "skills" / "own" / "self.md").symlink_to("self.md")
    (tmp_path / "skills" / "own" / "gone.md").symlink_to("nowhere.md")
    result = ingest_skill_repo(tmp_path)
    assert [n.name for n in result.nodes] == ["own"]
    notes = _notes(result, tmp_path)
    assert "a loop" in notes["skills/own/back"] and "(it leads to skills," in notes["skills/own/back"]
    assert "a loop" in notes["skills/own/root"] and "(it leads to .," in notes["skills/own/root"]
    assert "cannot be resolved" in notes["skills/own/self.md"]
    assert "cannot be resolved" in notes["skills/own/gone.md"]
    assert result.nodes[0].attrs["files"] == []  # no skipped link is listed among its files


def test_a_file_link_within_the_repository_is_read_one_outside_is_named(tmp_path: Path) -> None:
    write_file(tmp_path, "outside/secret.md", _md("secret"))
    root = tmp_path / "repo"
    write_file(root, "shared/writer.txt", _md("writer"))  # not a component where it lies
    (root / "skills" / "writer").mkdir(parents=True)
    (root / "skills" / "writer" / "SKILL.md").symlink_to("../../shared/writer.txt")
    write_file(root, "agents/ok.md", _md("ok"))
    (root / "agents" / "leak.md").symlink_to(tmp_path / "outside" / "secret.md")
    result = ingest_skill_repo(root)
    assert sorted(n.name for n in result.nodes) == ["ok", "writer"]
    notes = _notes(result, root)
    assert set(notes) == {"agents/leak.md"}
    assert "file outside the repository: skipped" in notes["agents/leak.md"]


def test_a_skipped_link_holds_no_items_back_from_pruning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder replaced by a link that is not followed: its items go, and the run says why."""
    write_file(tmp_path, "other/ext/SKILL.md", _md("ext"))
    root = tmp_path / "repo"
    write_file(root, "skills/own/SKILL.md", _md("own"))
    write_file(root, "skills/ext/SKILL.md", _md("ext"))
    index_dir = tmp_path / "index"
    Index.open(index_dir, embedder=HashingEmbedder(), create=True).close()
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 0
    (root / "skills" / "ext" / "SKILL.md").unlink()
    (root / "skills" / "ext").rmdir()
    (root / "skills" / "ext").symlink_to(tmp_path / "other" / "ext", target_is_directory=True)
    capsys.readouterr()
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 0
    out = capsys.readouterr().out
    assert f"note: {root / 'skills' / 'ext'}: symbolic link to a folder outside the repository" in out
    with Index.open(index_dir) as index:
        assert set(index.snapshot().nodes) == {"repo/skills/own/SKILL.md"}


def test_a_skill_file_linked_to_another_skill_is_read_twice_with_a_note(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_file(root, "skills/original/SKILL.md", _md("original"))
    (root / "skills" / "alias").mkdir(parents=True)
    (root / "skills" / "alias" / "SKILL.md").symlink_to("../original/SKILL.md")
    result = ingest_skill_repo(root)
    assert sorted(n.id.split("/", 1)[1] for n in result.nodes) == ["skills/alias/SKILL.md", "skills/original/SKILL.md"]
    notes = _notes(result, root)
    assert set(notes) == {"skills/alias/SKILL.md"}
    assert "symbolic link to skills/original/SKILL.md, which is read in its own place too" in notes["skills/alias/SKILL.md"]
