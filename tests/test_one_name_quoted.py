"""The source name a refusal tells to pass is quoted for the shell, as every command it
advises is (README: "its words quoted for the shell, so it runs as printed").

Found in a CLI audit: a JSON graph indexed as ``--source-name 'ops team'``, indexed again
without it, was told "index it as 'ops team' (--source-name ops team, ...)", which the
shell splits into the name ``ops`` and a second path ``team``.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from cli_calls import run

GRAPH = {"nodes": [{"id": "svc:a", "kind": "service", "name": "a", "text": "Service a takes payments."}]}


def test_the_held_name_is_given_quoted_and_runs_as_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ops").mkdir()
    graph = tmp_path / "ops" / "graph.json"
    graph.write_text(json.dumps(GRAPH), encoding="utf-8")
    ix = str(tmp_path / "ix")
    assert run(capsys, "index", graph, "--source-name", "ops team", "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    code, _, err = run(capsys, "index", graph, "--index-dir", ix)
    assert code == 2
    assert "(--source-name 'ops team', or none when that is the folder's name)" in err, err
    name = shlex.split(err.split("(--source-name ", 1)[1].split(",", 1)[0])
    assert name == ["ops team"]
    code, _, _ = run(capsys, "index", graph, "--source-name", *name, "--index-dir", ix)
    assert code == 0
