"""The benchmark report: how often the default search flagged "nothing fits", and where
"full" stands against each family's goal over the best peer."""

from __future__ import annotations

from typing import Any

from skill_retriever.bench.report import fit_note, goals_lines


def test_fit_note_names_each_group_with_its_counts() -> None:
    note = fit_note(
        {
            "answerable": {"queries": 48, "flagged": 0, "rate": 0.0},
            "out_of_catalogue": {"queries": 300, "flagged": 299, "rate": 0.9967},
        }
    )
    assert note == "'nothing fits' flagged: answerable 0/48, out of catalogue 299/300"


def test_fit_note_leaves_out_groups_a_set_does_not_have() -> None:
    assert "no right answer" not in fit_note({"answerable": {"queries": 5, "flagged": 1, "rate": 0.2}})


def test_goals_use_each_familys_target() -> None:
    def section(family: str, name: str, peer: float, full: float, metric: str) -> dict[str, Any]:
        return {"family": family, "name": name, "methods": {
            "dense": {"family": "peer", "scores": {metric: peer}},
            "full": {"family": "pipeline", "scores": {metric: full}},
        }}

    lines = goals_lines([section("toolret", "t", 0.50, 0.535, "nDCG@10"), section("skills", "s", 0.50, 0.55, "nDCG@10")],
                        md=True)
    tool = next(line for line in lines if "toolret/t | nDCG@10" in line)
    skills = next(line for line in lines if "skills/s" in line)
    assert ">= +3: met" in tool and ">= +10: not met" in skills


def test_the_startup_lines_stay_apart_in_markdown() -> None:
    """Found by a walkthrough: report.md wrote the cold query, MCP server and LangGraph
    server lines one under the other with no blank line or bullet, so Markdown ran the
    three into one paragraph."""
    from skill_retriever.bench.report import section_lines

    s = {"section": "startup", "python_c_pass_ms": 13.0, "commands_ms": {"--help": 82.0},
         "commands_over_python": {"--help": 6.3}, "cold_query_wall_ms": 1799.0,
         "cold_query_split_ms": {"imports": 1183.0}, "mcp": {"connected_s": 2.01, "ready_s": 2.06,
         "first_call_ms": 46.0, "later_calls_ms_median": 28.0},
         "langgraph_server": {"imported_s": 1.47, "ready_s": 1.83, "first_call_ms": 31.0, "later_calls_ms_median": 25.0}}
    md = section_lines(s, md=True)
    assert [line.split(" ", 2)[:2] for line in md if line.startswith("- ")] == [
        ["-", "cold"], ["-", "MCP"], ["-", "LangGraph"]]
    text = section_lines(s, md=False)
    assert any(line.startswith("cold `query` (wall 1799 ms)") for line in text)  # the terminal keeps its lines


def _toolret(judged: int) -> dict[str, Any]:
    """A toolret set as ``--max-queries N`` leaves it: ``judged`` queries scored."""
    return {"family": "toolret", "name": "t", "queries": judged, "quick": False, "methods": {
        "dense": {"family": "peer", "scores": {"nDCG@10": 0.50, "C@10": 0.50}, "judged": judged, "ms_p50": 1.0,
                  "by_group": {}},
        "full": {"family": "pipeline", "scores": {"nDCG@10": 0.60, "C@10": 0.40}, "judged": judged, "ms_p50": 1.0,
                 "by_group": {}},
    }}


def test_a_verdict_on_fewer_than_30_queries_says_it_cannot_judge() -> None:
    """Found by a walkthrough: ``benchmark --only toolret --max-queries 5`` printed "met" and
    "not met" on five queries, as if they were the measured set's verdicts."""
    from skill_retriever.bench.summary import goal_rows

    lines = goals_lines([_toolret(5)], md=True)
    rows = [line for line in lines if line.startswith("| toolret/t |")]
    assert len(rows) == 2 and all("n=5, too few queries to judge" in r for r in rows)
    assert not any(": met" in r or "not met" in r for r in rows)
    assert [(g["metric"], g["verdict"], g["queries"]) for g in goal_rows([_toolret(5)])] == [
        ("nDCG@10", "too few queries", 5), ("C@10", "too few queries", 5)]
    whole = goal_rows([_toolret(30)])
    assert [g["verdict"] for g in whole] == ["met", "not met"] and whole[0]["gap"] == 0.1


def test_report_json_carries_the_goal_verdicts(tmp_path: Any) -> None:
    import json

    from skill_retriever.bench.report import write_report

    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "toolret__t.json").write_text(json.dumps(
        {**_toolret(5), "section": "toolret", "metrics": ["nDCG@10", "C@10"]}))
    write_report(tmp_path)
    goals = json.loads((tmp_path / "report.json").read_text())["goals"]
    assert [g["verdict"] for g in goals] == ["too few queries"] * 2
    assert "n=5, too few queries to judge" in (tmp_path / "report.md").read_text()
