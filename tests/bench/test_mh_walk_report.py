"""What a walkthrough of ``benchmark --quick --only multihop`` found, fixed: the quick
subset (30 questions over 180 passages) stood in "Against the goals" with a verdict
("met") and HippoRAG's published R@5 (1,000 questions over 6,119 passages) beside it.
A subset is now labelled so, with no verdict and no published figure; and the note
``--max-queries`` prints for multihop says how to measure its sets whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.bench.datasets import multihop_sets
from skill_retriever.bench.report import goals_lines, summary_lines
from skill_retriever.cli import main

QUICK_NOTE = "quick: first 30 questions; corpus = their gold passages + 150 seeded distractors"


def multihop(quick: bool) -> dict[str, Any]:
    """A multihop section as the runner stamps it: peers and ours, R@5."""
    return {"section": "multihop", "family": "multihop", "name": "2wikimultihopqa", "queries": 30 if quick else 101,
            "quick": quick, "notes": [QUICK_NOTE] if quick else ["full corpus, all 101 questions"],
            "methods": {"BM25": {"family": "peer", "scores": {"R@5": 0.767}},
                        "full": {"family": "pipeline", "scores": {"R@5": 0.992}}}}


def goal_row(section: dict[str, Any]) -> str:
    rows = [x for x in goals_lines([section], md=True) if x.startswith("| multihop/")]
    assert len(rows) == 1
    return rows[0]


def test_a_quick_subset_gets_no_verdict_and_no_published_figure() -> None:
    row = goal_row(multihop(quick=True))
    assert row.startswith("| multihop/2wikimultihopqa (quick subset) | R@5 | 76.7 (BM25) | 99.2 |")
    assert "met" not in row.replace("measure", "") and "HippoRAG" not in row and "89.1" not in row
    assert "not comparable" in row and "first 30 questions" in row and "without --quick" in row


def test_a_whole_set_keeps_its_verdict_and_the_reference() -> None:
    row = goal_row(multihop(quick=False))
    assert "| multihop/2wikimultihopqa | R@5 |" in row and ">= +5: met" in row
    assert "HippoRAG R@5 89.1 (its 1,000 questions: a reference, not like-for-like)" in row


def test_the_summary_names_a_subset_as_one() -> None:
    assert "| method | 2wikimultihopqa (quick subset) |" in summary_lines([multihop(quick=True)], md=True)
    assert "| method | 2wikimultihopqa |" in summary_lines([multihop(quick=False)], md=True)


def test_max_queries_with_multihop_says_how_to_measure_it_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["benchmark", "--quick", "--only", "multihop", "--max-queries", "10",
                 "--data", str(tmp_path / "missing"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code != 0  # no data: it stops before any work, after the note
    note = next(x for x in err.splitlines() if x.startswith("note: --max-queries"))
    assert "a subset, not comparable with published figures" in note
    assert "run `--only multihop` without --quick" in note and "no option picks one set" in note


def test_a_data_folder_holding_one_multihop_set_measures_it_alone(tmp_path: Path) -> None:
    """What the note advises for one set: ``--data`` whose multihop/ links to that set only."""
    for name in ("one", "other"):
        folder = tmp_path / "all" / "multihop" / name
        folder.mkdir(parents=True)
        (folder / "corpus.json").write_text(json.dumps([{"title": "T", "text": "A passage."}]), encoding="utf-8")
        (folder / "queries.json").write_text(json.dumps([{"question": "Q?", "supporting_idx": [0]}]), encoding="utf-8")
    alone = tmp_path / "alone" / "multihop"
    alone.mkdir(parents=True)
    (alone / "one").symlink_to(tmp_path / "all" / "multihop" / "one")
    sets, skipped = multihop_sets(tmp_path / "alone")
    assert [s.name for s in sets] == ["one"] and not skipped
    assert sets[0].notes == ["full corpus, all 1 questions"]


def test_the_subsets_named_are_sets_and_a_section_of_none_is_no_crash() -> None:
    """The start-up section has no set name: the quick profile's report (CI's) crashed on it."""
    from skill_retriever.bench.report import subsets_note

    startup = {"section": "startup", "quick": True, "notes": []}
    battery = {"section": "battery", "family": "battery", "name": "seed battery", "quick": True}
    assert subsets_note([startup, battery, multihop(True)])[0].startswith("Subsets (multihop/2wikimultihopqa): ")
    assert subsets_note([startup, battery, multihop(False)]) == []
