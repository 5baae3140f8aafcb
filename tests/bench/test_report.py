"""The benchmark report says how often the default search flagged 'nothing fits'."""

from __future__ import annotations

from skill_retriever.bench.report import fit_note


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
