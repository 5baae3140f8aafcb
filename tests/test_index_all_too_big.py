"""A source whose every file ``--max-file-bytes`` skipped is told to raise the limit.

Found in a CLI audit: ``index repo --max-file-bytes 100`` on a skills repository the index
held ended "Give a folder of SKILL.md / agent / command / hook / .mcp.json files ...; to
take out what the index holds of a source emptied on purpose, `skill-retriever
remove-source repo`": the folder was the right one, and the advised command would have
deleted what the index held of it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for name in ("restore-db", "rotate-keys"):
        (root / "skills" / name).mkdir(parents=True)
        (root / "skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: how to {name.replace('-', ' ')}\n---\n" + "Step by step. " * 40,
            encoding="utf-8",
        )
    return root


@pytest.mark.parametrize("held", [True, False])
def test_every_file_over_the_limit_says_to_raise_it(tmp_path: Path, held: bool, capsys: pytest.CaptureFixture[str]) -> None:
    repo, ix = _repo(tmp_path), str(tmp_path / "ix")
    if held:
        assert run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    else:  # an index of another source, so that the run opens one
        (tmp_path / "other" / "skills" / "x").mkdir(parents=True)
        (tmp_path / "other" / "skills" / "x" / "SKILL.md").write_text("---\nname: x\ndescription: x\n---\nx\n")
        assert run(capsys, "index", tmp_path / "other", "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    code, _, err = run(capsys, "index", repo, "--index-dir", ix, "--max-file-bytes", "100")
    assert code == 1
    (error,) = [line for line in err.splitlines() if line.startswith("error: ")]
    assert "2 file(s) over the --max-file-bytes limit were skipped" in error
    assert "raise the limit (index --max-file-bytes N)" in error
    assert "remove-source" not in error and "Give a folder" not in error
    assert error.endswith(", and what the index holds of it stays") is held
    code, out, _ = run(capsys, "stats", "--index-dir", ix, "--json")
    named = {s["name"]: s["items"] for s in json.loads(out)["sources"]["named"]}
    assert named.get("repo") == (2 if held else None)  # nothing it held was lost


def test_an_empty_folder_beside_one_too_big_keeps_the_general_advice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, ix = _repo(tmp_path), str(tmp_path / "ix")
    assert run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "index", repo, tmp_path / "empty", "--index-dir", ix, "--max-file-bytes", "100")
    assert code == 1
    assert "Give a folder of SKILL.md" in err  # the empty folder is not the limit's doing
