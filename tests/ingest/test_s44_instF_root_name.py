"""What a source folder's own name means: a repository cloned under the name ``agents``
(the README clones wshobson/agents into ``agents/``) made every stray Markdown file with a
name and a description an agent, installed into ``.claude/agents/``, while the same tree
under any other name read it as an ``other`` item. The folders inside a repository decide
a kind; the root's own name does only for one kind's folder indexed by itself (a
``.claude/agents`` copy, claude-code-templates' ``components/hooks``). Indexed and
installed through the real CLI.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file


def _md(name: str) -> str:
    return f"---\nname: {name}\ndescription: The {name} file.\n---\n\nBody of {name}.\n"


def _kinds(capsys: pytest.CaptureFixture[str], root: Path, index_dir: Path) -> dict[str, int]:
    code, _, err = run(capsys, "index", root, "--index-dir", index_dir, "--embedder", "hashing-64")
    assert code == 0, err
    code, out, err = run(capsys, "stats", "--json", "--index-dir", index_dir)
    assert code == 0, err
    kinds: dict[str, int] = json.loads(out)["node_kinds"]
    return kinds


def test_a_repository_named_agents_reads_its_stray_files_as_under_any_other_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "a" / "agents"
    write_file(repo, "plugins/review/agents/reviewer.md", _md("reviewer"))
    write_file(repo, "loose/stray-notes.md", _md("stray-notes"))
    write_file(repo, "top-notes.md", _md("top-notes"))
    other = tmp_path / "b" / "notagents"
    shutil.copytree(repo, other)
    expected = {"agent": 1, "other": 2, "plugin": 1}
    assert _kinds(capsys, other, tmp_path / "ix-b") == expected
    assert _kinds(capsys, repo, tmp_path / "ix-a") == expected
    project = tmp_path / "proj"
    for name in ("stray-notes", "top-notes"):
        code, out, err = run(
            capsys, "install", name, "--target", project, "--index-dir", tmp_path / "ix-a", "--dry-run"
        )
        assert code == 2 and ".claude/agents" not in out + err, out + err
        assert f"{name!r} is in the index as an other item" in err and "which install has no place for" in err, err
    code, out, _ = run(capsys, "install", "reviewer", "--target", project, "--index-dir", tmp_path / "ix-a", "--dry-run")
    assert code == 0 and "create .claude/agents/reviewer.md" in out, out  # the real agent still is one


def test_a_folder_of_agents_indexed_by_itself_still_reads_them_as_agents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy of a ``.claude/agents`` folder (agents in subfolders included) holds no
    repository layout: its own name says what its files are, as for ``hooks``/``mcps``."""
    folder = tmp_path / "agents"
    write_file(folder, "reviewer.md", _md("reviewer"))
    write_file(folder, "team/planner.md", _md("planner"))
    assert _kinds(capsys, folder, tmp_path / "ix") == {"agent": 2}
