"""A source given twice to one index run is read once.

`skill-retriever index K-Dense K-Dense/ --json` (K-Dense's 129 skills) read the folder
twice, printed its line twice and counted `nodes_unchanged: 258` for an index of 129
items; a file removed since the last run was listed as removed under both lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")


def _repo(root: Path) -> Path:
    for name in ("alpha", "beta", "gamma"):
        write_file(root / "skills" / name, "SKILL.md", f"---\nname: {name}\ndescription: do {name}\n---\nUse it for {name}.\n")
    return root


def test_the_cli_reads_a_folder_given_twice_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, ix = _repo(tmp_path / "repo"), tmp_path / "ix"
    code, out, _ = run(capsys, "index", repo, f"{repo}/", "--index-dir", ix, *HASHING, "--json")
    assert code == 0
    first = json.loads(out)["run"]
    assert len(first["sources"]) == 1
    assert first["nodes_added"] == 3 and first["embedded"] == 3
    (repo / "skills" / "gamma" / "SKILL.md").unlink()
    code, out, _ = run(capsys, "index", repo, tmp_path / "." / "repo", "--index-dir", ix)
    assert code == 0
    lines = out.splitlines()
    assert sum(": 2 nodes, 0 edges" in line for line in lines) == 1
    assert sum("removed 1 item(s)" in line for line in lines) == 1


def test_index_sources_counts_a_path_given_twice_once(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(64), create=True) as index:
        index_sources(index, [repo])
        again = index_sources(index, [repo, str(repo), repo / "skills" / ".."])
        assert len(again.sources) == 1
        assert again.to_dict()["nodes_unchanged"] == 3 == len(index)
