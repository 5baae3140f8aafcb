"""``skill-retriever index`` on a tool set's files (user walkthrough): a ``tools.jsonl``
path indexes its folder's set; another ``.jsonl`` name, or a folder holding one, says
what a tool set is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.stores.index import Index

TOOLS = [{"id": "order_tracking", "name": "order_tracking", "description": "Order Tracking Tool"},
         {"id": "send_sms", "name": "send_sms", "description": "SMS notification sending tool"}]


def _write(folder: Path, name: str, rows: list[dict[str, str]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _held(index_dir: Path) -> dict[str, tuple[str, str]]:
    with Index.open(index_dir) as index:
        return {i: (str(n.attrs.get("source_name")), n.source) for i, n in index.snapshot().nodes.items()}


def test_a_tools_jsonl_path_indexes_its_folder_as_the_folder_would(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = _write(tmp_path / "reg", "tools.jsonl", TOOLS)
    _write(tmp_path / "reg", "edges.jsonl", [{"source": "order_tracking", "target": "send_sms", "type": "feeds"}])
    assert main(["index", str(tools), "--index-dir", str(index_dir)]) == 0
    by_file = _held(index_dir)
    assert by_file == {t["id"]: ("reg", str(tools.resolve())) for t in TOOLS}
    with Index.open(index_dir) as index:
        assert set(index.snapshot().edges) == {"order_tracking|FEEDS|send_sms"}
    # the folder is the same source: nothing new, nothing removed
    assert main(["index", str(tools.parent), "--index-dir", str(index_dir)]) == 0
    assert _held(index_dir) == by_file
    _write(tmp_path / "reg", "tools.jsonl", TOOLS[:1])  # and the file path mirrors the set as the folder does
    capsys.readouterr()
    assert main(["index", str(tools), "--index-dir", str(index_dir)]) == 0
    assert list(_held(index_dir)) == ["order_tracking"]
    assert "removed 1 item(s) the source no longer has: send_sms" in capsys.readouterr().out


def test_another_jsonl_name_says_what_a_tool_set_is(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = _write(tmp_path / "reg", "my_tools.jsonl", TOOLS)
    assert main(["index", str(mine), "--index-dir", str(index_dir)]) == 2
    err = capsys.readouterr().err
    assert "is not a .json file" not in err
    assert 'a tool set is a folder holding tools.jsonl (one JSON object a line: "id", "name", "description", ' \
           '"parameters") and, optionally, edges.jsonl' in err
    assert "name the file tools.jsonl" in err
    assert main(["index", str(mine), "--kind", "toolret", "--index-dir", str(index_dir)]) == 2
    assert "name the file tools.jsonl" in capsys.readouterr().err
    assert main(["index", str(mine.parent), "--index-dir", str(index_dir)]) == 1
    out = capsys.readouterr().out
    assert "JSON Lines file(s) my_tools.jsonl: a tool set is a folder holding tools.jsonl" in out
    assert _held(index_dir) == {}


def test_an_edges_file_beside_tools_names_its_folder(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "reg", "tools.jsonl", TOOLS)
    edges = _write(tmp_path / "reg", "edges.jsonl", [])
    assert main(["index", str(edges), "--index-dir", str(index_dir)]) == 2
    assert f"belongs to the tool set of its folder: index {edges.parent}" in capsys.readouterr().err
