"""A source given as ``../repo`` records its files without the ``..``.

From a sibling folder, `skill-retriever index ../K-Dense-AI__claude-scientific-skills`
recorded every item's file as `/tmp/scale/kd-default/../K-Dense.../SKILL.md`: `query`
showed that path, it stops naming a file once the sibling folder is deleted, and
indexing the same folder from its parent (`index K-Dense...`) found all 129 items
"changed" (each written again) where nothing on disk had."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

HASHING = ("--embedder", "hashing-64")


def test_a_folder_given_through_dotdot_is_the_same_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    for name in ("alpha", "beta", "gamma"):
        write_file(repo / "skills" / name, "SKILL.md", f"---\nname: {name}\ndescription: do {name}\n---\nUse it for {name}.\n")
    (tmp_path / "sibling").mkdir()
    monkeypatch.chdir(tmp_path / "sibling")
    assert run(capsys, "index", "../repo", "--index-dir", ix, *HASHING)[0] == 0
    code, out, _ = run(capsys, "query", "do alpha", "--index-dir", ix, "-k", "1", "--json")
    assert code == 0
    source = json.loads(out)["results"][0]["source"]
    assert ".." not in Path(source).parts and source == str(repo / "skills" / "alpha" / "SKILL.md")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "index", "repo", "--index-dir", ix)
    assert code == 0 and out.splitlines()[1] == "  0 new, 0 changed, 3 unchanged"


def test_dotdot_after_a_link_is_left_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``link/..`` is the link target's parent, not the link's folder: dropping the ``..``
    would name another folder, so such a path is read as written."""
    from skill_retriever.stores.api_args import source_paths

    (tmp_path / "deep" / "inner").mkdir(parents=True)
    (tmp_path / "top").mkdir()
    os.symlink(tmp_path / "deep" / "inner", tmp_path / "top" / "link")
    through = tmp_path / "top" / "link" / ".."
    assert source_paths([through]) == [through]
    assert source_paths([tmp_path / "top" / ".." / "deep"]) == [tmp_path / "deep"]
