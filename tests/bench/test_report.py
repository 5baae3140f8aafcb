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
