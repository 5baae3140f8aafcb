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
