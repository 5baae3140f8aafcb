"""report.md and the results say which data folder they measured.

Found by a walkthrough: a run without --data (the folder from $SKILL_RETRIEVER_DATA or
../shared/data) stamped its results and report with the command as typed, which names no
folder, and nothing else in report.md, report.json or results/*.json said which data the
figures came from.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.bench.figures import made_by
from skill_retriever.bench.report_header import header_lines
from skill_retriever.cli import main


def test_the_header_names_the_data_folder_or_says_there_was_none() -> None:
    run = {"command": "skill-retriever benchmark", "state": "finished", "machine": {}, "data": "/d/shared/data"}
    assert "Data: /d/shared/data." in header_lines(run, [])
    assert "Data: none (only the sections that need no data ran)." in header_lines({**run, "data": None}, [])
    assert not [line for line in header_lines({k: v for k, v in run.items() if k != "data"}, [])
                if line.startswith("Data")]  # a run file older than the key: nothing claimed


def test_a_data_section_names_its_data_folder_under_its_table() -> None:
    section = {"section": "toolret", "command": "skill-retriever benchmark --only toolret", "quick": False,
               "finished_at": "2026-12-06T10:00:00+00:00", "data": "/d/shared/data"}
    assert made_by(section) == ("_made by `skill-retriever benchmark --only toolret` (full), data /d/shared/data, "
                                "2026-12-06T10:00:00+00:00_")
    assert "data" not in made_by({**section, "section": "battery"})
    # speed grows its graph from a multi-hop set of the data folder when there is one
    assert ", data /d/shared/data, " in made_by({**section, "section": "speed"})
    assert "data" not in made_by({**section, "section": "speed", "data": None})


@pytest.mark.slow
def test_a_run_without_data_option_records_the_folder_it_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data" / "toolret" / "mini"
    folder.mkdir(parents=True)
    (folder / "tools.jsonl").write_text(json.dumps({"id": "a", "name": "a", "description": "search flights"}) + "\n"
                                        + json.dumps({"id": "b", "name": "b", "description": "book a hotel"}))
    (folder / "queries.jsonl").write_text(json.dumps({"id": "1", "query": "find a flight", "relevant": ["a"]}))
    monkeypatch.setenv("SKILL_RETRIEVER_DATA", str(tmp_path / "data"))
    out = tmp_path / "out"
    assert main(["benchmark", "--only", "toolret", "--out", str(out)]) == 0
    data = str((tmp_path / "data").absolute())
    assert json.loads((out / "results" / "_run.json").read_text())["data"] == data
    assert json.loads((out / "results" / "toolret__mini.json").read_text())["data"] == data
    md = (out / "report.md").read_text()
    assert f"\nData: {data}." in md and f"(full), data {data}, " in md


def test_the_report_knows_every_section_that_reads_data() -> None:
    from skill_retriever.bench.figures import DATA_SECTIONS
    from skill_retriever.bench.sections import SECTIONS

    assert set(DATA_SECTIONS) == {s.name for s in SECTIONS if s.needs_data} | {"speed"}
