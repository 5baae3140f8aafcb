"""Tools a toolret set's ``tools.jsonl`` loses at ingestion (a malformed line, a tool with
no id, a duplicate id) are said in the set's result and report.md, with why; a set that
loses more than `dropped_tools.MAX_DROPPED_SHARE` of its lines fails.

Found by a walkthrough: such lines became ingest problems shown only in the build log (the
first three), and the set was measured on the rest and reported as if whole; a run that
reused the cached index said nothing at all. A set whose tools.jsonl had a third of its
lines broken published figures like any other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.bench import dropped_tools
from skill_retriever.cli import main
from skill_retriever.exceptions import IngestError

WORDS = ["flight", "hotel", "car", "weather", "music", "album", "playlist", "invoice", "email", "calendar",
         "map", "route", "stock", "news", "recipe", "movie", "ticket", "translate", "photo", "file"]


def toolset(root: Path, name: str, bad: list[str]) -> Path:
    """A set of 40 tools (two per word) with ``bad`` lines among them, and 3 queries."""
    folder = root / "toolret" / name
    folder.mkdir(parents=True)
    lines = [json.dumps({"id": f"{w}-{i}", "name": f"{w} {i}", "description": f"{'search' if i else 'book'} a {w}"})
             for w in WORDS for i in range(2)]
    lines[5:5] = bad
    (folder / "tools.jsonl").write_text("\n".join(lines) + "\n\n")  # a blank line is no tool
    queries = [{"id": str(n), "query": f"book a {w}", "relevant": [f"{w}-0"]} for n, w in enumerate(WORDS[:3])]
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    return folder


def test_every_line_a_tool_drops_nothing(tmp_path: Path) -> None:
    folder = toolset(tmp_path, "s", [])
    assert dropped_tools.dropped_tools(folder / "tools.jsonl", 40, []) is None


def test_a_few_dropped_lines_are_counted_with_their_reasons(tmp_path: Path) -> None:
    tools = toolset(tmp_path, "s", ['{"id": broken']).absolute() / "tools.jsonl"
    found = dropped_tools.dropped_tools(tools, 40, [f"{tools}: line 6: not JSON (x)", f"{tools.parent}/edges.jsonl: y"])
    assert found == {"file": str(tools), "lines": 41, "dropped": 1, "share": 0.0244, "reasons": ["line 6: not JSON (x)"]}
    note = dropped_tools.dropped_note(found)
    assert note == ("1 of 41 lines of tools.jsonl dropped (2.4%), measured on the rest (a judged tool among them "
                    "counts as a miss; a set fails past 5%): line 6: not JSON (x)")


def test_more_than_the_share_fails_the_set_with_the_reasons(tmp_path: Path) -> None:
    tools = toolset(tmp_path, "s", ["x"] * 3).absolute() / "tools.jsonl"
    with pytest.raises(IngestError, match=r"3 of 43 lines .* dropped \(7\.0%\), more than the 5%.*line 6: not JSON"):
        dropped_tools.dropped_tools(tools, 40, [f"{tools}: line 6: not JSON", f"{tools}: line 7: not JSON"])


@pytest.mark.slow
def test_the_result_and_report_say_the_dropped_tools_and_a_set_over_the_share_fails(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "out"
    toolset(data, "few", ['{"id": broken'])  # 1 of 41: measured, said
    toolset(data, "many", ['{"id": broken', "not json", '{"name": "no id"}'])  # 3 of 43: failed
    command = ["benchmark", "--only", "toolret", "--data", str(data), "--out", str(out)]
    assert main(command) == 1
    result = json.loads((out / "results" / "toolret__few.json").read_text())
    assert result["dropped_tools"]["dropped"] == 1 and result["dropped_tools"]["lines"] == 41
    assert result["dropped_tools"]["reasons"][0].startswith("line 6: ")
    md = (out / "report.md").read_text()
    assert "1 of 41 lines of tools.jsonl dropped (2.4%)" in md and "line 6: " in md
    assert not (out / "results" / "toolret__many.json").exists()
    run = json.loads((out / "results" / "_run.json").read_text())
    assert [f["set"] for f in run["failures"]] == ["toolret/many"]
    assert "3 of 43 lines" in run["failures"][0]["error"] and "line 6: " in run["failures"][0]["error"]
    assert not list((out / "cache").glob("toolret__many*/bench-cache.json"))  # failed before embedding

    # measured again from the cached index: the reasons are still there
    assert main([*command, "--fresh"]) == 1
    result = json.loads((out / "results" / "toolret__few.json").read_text())
    assert result["build"]["reused"] is True and result["dropped_tools"]["reasons"][0].startswith("line 6: ")
