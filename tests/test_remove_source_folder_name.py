"""`remove-source` given the source's folder (tab completion's `repo/`) names the source.

A source is named after its folder, so `remove-source K-Dense-AI__claude-scientific-skills/`
(the shell completes the folder with a slash) or the folder's absolute path is what a user
types; both answered only that no source has that name."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import run
from files import write_file


def test_the_folder_of_a_source_is_named_as_that_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, ix = tmp_path / "team-skills", tmp_path / "ix"
    write_file(repo / "skills" / "alpha", "SKILL.md", "---\nname: alpha\ndescription: do alpha\n---\nUse it.\n")
    assert run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    monkeypatch.chdir(tmp_path)
    for given in ("team-skills/", str(repo)):
        code, _, err = run(capsys, "remove-source", given, "--index-dir", ix)
        assert code == 2
        assert f"{given!r} is the folder the source 'team-skills' was read from: give its name" in err, err
    code, _, err = run(capsys, "remove-source", "other", "--index-dir", ix)
    assert code == 2 and "was read from" not in err
