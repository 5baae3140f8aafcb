"""``query --kinds`` in any case (``SKILL``, ``Agent,Skill``), as a JSON graph's ``kind``
may be written; a plural or a near miss (``skills``, ``incidents``, ``mcp-server``) is
refused with the kind it most likely means, not a bare "unknown kind(s)"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import indexed_graph

from skill_retriever.cli import main

GRAPH = {"nodes": [
    {"id": "inc:1", "kind": "Incident", "name": "checkout outage", "text": "checkout outage"},
    {"id": "svc:checkout", "kind": "service", "name": "checkout", "text": "checkout takes payment"},
    {"id": "dep:1", "kind": "DEPLOY", "name": "checkout v2", "text": "checkout deploy v2"},
]}  # fmt: skip


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return indexed_graph(tmp_path_factory.mktemp("kinds"), GRAPH)


@pytest.mark.parametrize(("kinds", "ids"), [
    ("INCIDENT", {"inc:1"}),
    ("Incident,Service", {"inc:1", "svc:checkout"}),
    ("deploy,Deploy", {"dep:1"}),
])  # fmt: skip
def test_a_kind_in_any_case_filters(
    index_dir: Path, capsys: pytest.CaptureFixture[str], kinds: str, ids: set[str]
) -> None:
    capsys.readouterr()
    assert main(["query", "checkout", "--index-dir", str(index_dir), "--json", "--kinds", kinds]) == 0
    assert {r["id"] for r in json.loads(capsys.readouterr().out)["results"]} == ids


@pytest.mark.parametrize(("kinds", "said"), [
    ("skills", "unknown kind(s) skills (did you mean skill?)"),
    ("Incidents", "unknown kind(s) Incidents (did you mean incident?)"),
    ("agent,mcp-server", "unknown kind(s) mcp-server (did you mean mcp_server?)"),
    ("docs", "unknown kind(s) docs (did you mean document?)"),
    ("widget", "unknown kind(s) widget; give one or more of: agent, command,"),
])  # fmt: skip
def test_a_plural_or_near_miss_is_refused_with_the_likely_kind(
    index_dir: Path, capsys: pytest.CaptureFixture[str], kinds: str, said: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["query", "checkout", "--index-dir", str(index_dir), "--kinds", kinds])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert f"argument --kinds: {said}" in err
