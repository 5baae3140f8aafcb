"""Lines of a toolret set's ``edges.jsonl`` that ingestion rejected (not JSON, a tool that
does not exist, a self edge, a repeated edge) are said in the set's result
(``dropped_edges``) and its notes in report.md, as its dropped ``tools.jsonl`` lines are.

They reached only the build log (its first three problems, nothing when the cached index
was reused): ultratool's 5 self edges of 611 lines, or an edges.jsonl naming tools of
another catalogue, left the graph channel measured on fewer relations than the file holds
with nothing in the report saying so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_dropped_tools import WORDS, toolset

from skill_retriever.bench import dropped_edges
from skill_retriever.bench.index_cache import KEPT_PROBLEMS, cached_index
from skill_retriever.cli import main
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.stores.embedder import HashingEmbedder


def _edges(folder: Path, bad: list[str]) -> Path:
    """An edges.jsonl of 10 good relations with ``bad`` lines among them."""
    good = [json.dumps({"source": f"{w}-0", "target": f"{w}-1", "type": "tool_graph"}) for w in WORDS[:10]]
    good[2:2] = bad
    path = folder.absolute() / "edges.jsonl"
    path.write_text("\n".join(good) + "\n\n")  # a blank line is no relation
    return path


def test_every_line_a_relation_drops_nothing(tmp_path: Path) -> None:
    edges = _edges(toolset(tmp_path, "s", []), [])
    assert dropped_edges.dropped_edges(edges, [], {}) is None
    assert dropped_edges.dropped_edges(edges.parent / "none.jsonl", [], {}) is None  # a set with no edges.jsonl


def test_rejected_lines_are_counted_with_their_reasons(tmp_path: Path) -> None:
    edges = _edges(toolset(tmp_path, "s", []), ["x"])
    problems = [f"{edges.parent}/tools.jsonl: line 3: not JSON", f"{edges}: line 3: not JSON (y)"]
    found = dropped_edges.dropped_edges(edges, problems, {str(edges): 1, f"{edges.parent}/tools.jsonl": 1})
    assert found == {"file": str(edges), "lines": 11, "dropped": 1, "share": 0.0909, "reasons": ["line 3: not JSON (y)"]}
    assert dropped_edges.dropped_edges_note(found) == (
        "1 of 11 lines of edges.jsonl dropped (9.1%): the graph holds the set's other relations, "
        "its tools are whole (the set is measured, only the graph channel reads relations): line 3: not JSON (y)")


def test_the_count_is_the_builds_not_the_reasons_kept(tmp_path: Path) -> None:
    edges = _edges(toolset(tmp_path, "s", []), ["x"] * 3)
    found = dropped_edges.dropped_edges(edges, [f"{edges}: line 3: not JSON"], {str(edges): 3})
    assert found is not None and found["dropped"] == 3 and found["reasons"] == ["line 3: not JSON"]
    assert dropped_edges.dropped_edges_note(found).endswith("line 3: not JSON; and 2 more")


def test_a_file_not_read_at_all_drops_every_line(tmp_path: Path) -> None:
    edges = _edges(toolset(tmp_path, "s", []), [])
    found = dropped_edges.dropped_edges(edges, [f"{edges}: is one JSON document, not one object a line"], {str(edges): 1})
    assert found is not None and (found["dropped"], found["lines"]) == (10, 10)


def test_a_cached_index_built_before_counts_were_kept_says_it_does_not_know(tmp_path: Path) -> None:
    edges = _edges(toolset(tmp_path, "s", []), [])
    found = dropped_edges.dropped_edges(edges, None, None)
    assert found is not None and found["dropped"] is None
    assert "not known" in dropped_edges.dropped_edges_note(found)


def test_the_cache_keeps_each_files_count_and_reasons(tmp_path: Path) -> None:
    """The cache kept the build's first 50 problems in all: a set whose tools.jsonl had 50
    bad lines kept no reason of its edges.jsonl, and no count of either."""
    folder = toolset(tmp_path / "data", "s", ["x"] * (KEPT_PROBLEMS + 2))
    edges = _edges(folder, ['{"source": "nope", "target": "car-0"}', "not json"])
    log: list[str] = []
    made = cached_index(tmp_path / "cache", "s", {"v": 1}, lambda _: ingest_toolret(folder), HashingEmbedder(), log.append)
    made[0].close()
    again = cached_index(tmp_path / "cache", "s", {"v": 1}, lambda _: ingest_toolret(folder), HashingEmbedder(), log.append)
    again[0].close()
    for _, info in (made, again):
        # tools.jsonl: its bad lines, and that edges.jsonl could not be read whole (`_read_edges`)
        assert info.problem_counts == {str(folder.absolute() / "tools.jsonl"): KEPT_PROBLEMS + 3, str(edges): 2}
        assert info.problems is not None and sum(p.startswith(str(edges)) for p in info.problems) == 2
    assert again[1].reused and dropped_edges.dropped_edges(edges, again[1].problems, again[1].problem_counts) == {
        "file": str(edges), "lines": 12, "dropped": 2, "share": 0.1667,
        "reasons": ["line 3: tool 'nope' does not exist (or its line was rejected); edge dropped",
                    "line 4: not JSON at column 1: Expecting value"]}


@pytest.mark.slow
def test_the_result_and_report_say_the_dropped_relations(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "out"
    _edges(toolset(data, "linked", []), ['{"source": "car-0", "target": "car-0"}'])
    assert main(["benchmark", "--only", "toolret", "--data", str(data), "--out", str(out)]) == 0
    result = json.loads((out / "results" / "toolret__linked.json").read_text())
    assert result["dropped_edges"]["dropped"] == 1 and result["dropped_edges"]["lines"] == 11
    assert result["dropped_edges"]["reasons"] == ["line 3: self edge on 'car-0' dropped"]
    md = (out / "report.md").read_text()
    assert "1 of 11 lines of edges.jsonl dropped (9.1%)" in md and "self edge on 'car-0' dropped" in md
