"""An incident export written one JSON node a line (``incidents.jsonl``) is told how to become
a JSON graph, not to become a tool set.

Found walking the incident path: ``skill-retriever index incidents.jsonl`` (nodes with
``"kind": "incident"``, as ``jq -c '.nodes[]'`` or an export writes them) said only "a tool
set is a folder holding tools.jsonl ...; name the file tools.jsonl": followed, every
incident would be indexed as a tool, its ``kind`` and times lost to ``attrs``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main

NODES = [{"id": "inc:1", "kind": "incident", "name": "checkout 500s", "text": "Checkout failed.",
          "created_at": "2026-11-03T14:05:00Z"},
         {"id": "svc:checkout", "kind": "service", "name": "checkout", "text": "Takes payment."}]


def test_a_jsonl_of_nodes_is_told_the_jq_command_that_makes_a_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ops exports" / "incidents.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps(n) + "\n" for n in NODES), encoding="utf-8")
    assert main(["index", str(path), "--index-dir", str(tmp_path / "ix")]) == 2
    err = capsys.readouterr().err
    assert "holds graph nodes one a line (the first: kind 'incident')" in err
    assert f"""jq -s '{{nodes: .}}' '{path}' > '{path.with_suffix(".json")}'""" in err
    assert "name the file tools.jsonl" not in err


def test_a_jsonl_of_tools_keeps_the_tool_set_advice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "my_tools.jsonl"
    path.write_text(json.dumps({"id": "send_sms", "name": "send_sms", "description": "Send an SMS."}) + "\n",
                    encoding="utf-8")
    assert main(["index", str(path), "--index-dir", str(tmp_path / "ix")]) == 2
    err = capsys.readouterr().err
    assert "name the file tools.jsonl" in err and "jq -s" not in err
