"""`python -m skill_retriever.bench.query_windows`: the before/after check of the windows the
time rules read in the benchmark's queries (it was a scratch script, lost with its figure).
An invented data folder, read by the benchmark's own loaders; the test changes one line of
the output and the command must name it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.bench import query_windows

NOW = "2026-12-02T15:00Z"  # a Wednesday
QUERIES = [
    {"id": "q1", "query": "the flights I booked last week", "relevant": ["a"]},
    {"id": "q2", "query": "book a table on 2026-12-03", "relevant": ["b"]},
    {"id": "q2", "query": "a hotel near the station", "relevant": ["b"]},  # a repeated id: its place
]


def _tool_set(root: Path, name: str, created: str | None = None) -> None:
    folder = root / "toolret" / name
    folder.mkdir(parents=True)
    tools = [{"id": "a", "name": "a", "description": "search flights"},
             {"id": "b", "name": "b", "description": "book a table or a room"}]
    if created:
        tools[0]["created"] = created
    (folder / "tools.jsonl").write_text("\n".join(json.dumps(t) for t in tools), encoding="utf-8")
    (folder / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in QUERIES), encoding="utf-8")


def _data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    _tool_set(data, "plain")
    _tool_set(data, "dated", created="2026-11-01")
    return data


def _rows(path: Path) -> dict[tuple[str, str], str]:
    return {(s, i): w for s, i, w in (line.split("\t") for line in path.read_text().splitlines())}


def test_each_query_gets_its_window_with_days_where_items_carry_dates(tmp_path: Path) -> None:
    out = tmp_path / "windows.tsv"
    query_windows.cli(["--data", str(_data(tmp_path)), "--now", NOW, "--out", str(out)])
    rows = _rows(out)
    last_week = '2026-11-23T00:00:00+00:00..2026-11-30T00:00:00+00:00 "last week"'
    assert rows["toolret/plain", "q1"] == rows["toolret/dated", "q1"] == last_week
    # A day of a month is a window only over items that carry dates (the benchmark's ``days``).
    assert rows["toolret/plain", "#1"] == "none"
    assert rows["toolret/dated", "#1"] == '2026-12-03T00:00:00+00:00..2026-12-04T00:00:00+00:00 "on 2026-12-03"'
    assert rows["toolret/plain", "#2"] == "none"
    assert sum(s == "incidents/world" for s, _ in rows) == 125  # the generated world's queries, always there


def test_all_days_reads_every_set_as_dated(tmp_path: Path) -> None:
    out = tmp_path / "windows.tsv"
    query_windows.cli(["--data", str(_data(tmp_path)), "--now", NOW, "--all-days", "--out", str(out)])
    assert _rows(out)["toolret/plain", "#1"] == '2026-12-03T00:00:00+00:00..2026-12-04T00:00:00+00:00 "on 2026-12-03"'


def test_compare_exits_0_when_the_same_and_1_naming_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _data(tmp_path)
    first, second = tmp_path / "first.tsv", tmp_path / "second.tsv"
    query_windows.cli(["--data", str(data), "--now", NOW, "--out", str(first)])
    query_windows.cli(["--data", str(data), "--now", NOW, "--out", str(second), "--compare", str(first)])
    assert first.read_text() == second.read_text()
    assert "identical to" in capsys.readouterr().err

    old = first.read_text().splitlines()
    edited = [line.replace('"last week"', '"last weak"') if line.startswith("toolret/plain\tq1\t") else line
              for line in old if not line.startswith("toolret/dated\t#2\t")]
    first.write_text("\n".join(edited) + "\n")
    with pytest.raises(SystemExit) as done:
        query_windows.cli(["--data", str(data), "--now", NOW, "--out", str(second), "--compare", str(first)])
    assert done.value.code == 1
    err = capsys.readouterr().err
    assert "added 1, removed 0, changed 1" in err
    assert 'changed: toolret/plain q1: 2026-11-23T00:00:00+00:00..2026-11-30T00:00:00+00:00 "last weak" -> ' in err
    assert "added: toolret/dated #2: none" in err


def test_a_file_of_another_command_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong = tmp_path / "hashes.tsv"
    wrong.write_text("team/skills/deploy/SKILL.md\t" + "0" * 64 + "\n")
    with pytest.raises(SystemExit) as done:
        query_windows.cli(["--data", str(_data(tmp_path)), "--compare", str(wrong)])
    assert done.value.code == 2
    assert "is no '<set>\\t<id>\\t<window>' line" in capsys.readouterr().err
