"""The problems and notes of a run quote no secret a source holds.

Found walking the secrets an index keeps out: a field that cannot be read is named with
its value (``'created': timestamp '...' is not ISO-8601``, ``access must be a list of
strings, got {...}``), and so a token, a password or a URL's credentials written in the
wrong field were printed by ``index`` (its lines and ``--json``, which land in CI logs),
in clear, while the item itself is stored redacted. Each message now goes through the
prose rules the items' text goes through (`ingest.prose_secrets`); the rest of it (the
key, what to write) still says what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file, write_skill

from skill_retriever.ingest.result import Problem

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2  # a GitHub token's form: redacted wherever prose holds it
PASSWORD = "hunter2-Qz81xv"
URL = f"https://deploy:{PASSWORD}@ci.example.com/hook"


def _sources(root: Path) -> list[Path]:
    graph = {"nodes": [
        {"id": "n1", "kind": "incident", "name": "n1", "text": "Checkout failed.", "created": TOKEN},
        {"id": "n2", "kind": "incident", "name": "n2", "text": "Payments slow.", "access": {"token": TOKEN}},
        {"id": "n3", "kind": "incident", "name": "n3", "text": "Search down.", "tags": {"hook": URL}},
    ]}
    ops = write_file(root, "ops/graph.json", json.dumps(graph))
    repo = root / "repo"
    write_skill(repo, "deploy", "Deploy the service.", access={"password": PASSWORD})
    write_skill(repo, "lint", "Lint the code.")
    tools = root / "tools"
    lines = [{"id": "t1", "name": "t1", "description": "Open a ticket.", "updated": URL},
             {"id": "t2", "name": "t2", "description": "Close a ticket."}]
    write_file(tools, "tools.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
    return [ops, repo, tools]


@pytest.mark.parametrize("as_json", [False, True])
def test_index_prints_no_secret_of_a_field_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    sources = _sources(tmp_path)
    code, out, err = run(capsys, "index", *sources, "--index-dir", tmp_path / "ix",
                         "--embedder", "hashing-64", *(["--json"] if as_json else []))
    said = out + err
    assert code == 0, said
    for secret in (TOKEN, PASSWORD):
        assert secret not in said
    # each problem is still there, naming what is wrong
    for words in ("'created'", "access must be a list of strings", "tags must be a list of strings",
                  "is not a list of labels", "'updated'"):
        assert words in said, words
    assert "[redacted]" in said


def test_a_problem_made_in_python_is_redacted_too() -> None:
    problem = Problem("ops/graph.json", f"node 'n1': 'created': timestamp {TOKEN!r} is not ISO-8601")
    assert TOKEN not in problem.message and TOKEN not in str(problem)
    assert problem.message.startswith("node 'n1': 'created': timestamp '")
    plain = Problem("a.md", "frontmatter is not valid YAML (line 3)", read_whole=True)
    assert plain.message == "frontmatter is not valid YAML (line 3)"  # nothing to take out: as written
