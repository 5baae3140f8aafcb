"""A small index of three long runbooks (a JSON graph, hashing embedder) built by the CLI,
for tests of the query command's flags and words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run

__all__ = ["RUNBOOKS", "runbook_index"]

RUNBOOKS = [
    {"id": f"doc:{i}", "kind": "document", "name": f"runbook {i}", "text": f"Restore the database from backup, step {i}. " * 20}
    for i in range(3)
]


def runbook_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The index folder, built by `skill-retriever index` from a graph of `RUNBOOKS`."""
    (tmp_path / "g.json").write_text(json.dumps({"nodes": RUNBOOKS, "edges": []}), encoding="utf-8")
    out = str(tmp_path / "ix")
    assert run(capsys, "index", tmp_path / "g.json", "--index-dir", out, "--embedder", "hashing-64")[0] == 0
    return out
