"""report.md says what its rows ran, which commit the last run measured, the incident
section's notes, and where the README's figures come from (found by a walkthrough: the
tables named rows such as "only graph" or "fusion, no kinds filter" and nothing said what
they were without opening the JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skill_retriever.bench.report import write_report


def incidents(methods: dict[str, str]) -> dict[str, Any]:
    row = {"family": "pipeline", "scores": {"R@10": 0.5, "MRR": 0.4},
           "by_group": {"exact": {"R@10": 0.5, "MRR": 0.4, "n": 2}}}
    return {"section": "incidents", "family": "incidents", "name": "world", "queries": 2, "metrics": ["R@10", "MRR"],
            "world": {"services": 3, "deploys": 4, "incidents": 5, "seed": 7},
            "notes": ["every method ranks only the kind the answer has but 'fusion, no kinds filter'"],
            "methods": {name: {**row, "description": what} for name, what in methods.items()},
            "command": "skill-retriever benchmark --only incidents", "quick": False, "finished_at": "2026-12-06T00:00:01+00:00"}


def write(out: Path, name: str, data: dict[str, Any]) -> None:
    (out / "results").mkdir(parents=True, exist_ok=True)
    (out / "results" / name).write_text(json.dumps(data))


def test_the_report_says_what_each_row_ran_the_commit_and_the_readme_source(tmp_path: Path) -> None:
    write(tmp_path, "incidents.json", incidents({"BM25": "our BM25 index alone",
                                                 "fusion, no kinds filter": "the default search, no kinds filter"}))
    write(tmp_path, "_run.json", {"command": "skill-retriever benchmark --only incidents", "quick": False,
                                  "machine": {"cores": 2}, "code": {"commit": "abc1234", "local_changes": True},
                                  "started_at": "2026-12-06T00:00:00+00:00", "state": "finished"})
    md = write_report(tmp_path).read_text()
    assert "## What the rows mean" in md
    assert "- **BM25**: our BM25 index alone" in md
    assert "- **fusion, no kinds filter**: the default search, no kinds filter" in md
    assert "Code: commit abc1234 with local changes." in md
    assert "- every method ranks only the kind the answer has but 'fusion, no kinds filter'" in md
    assert "docs/bench/" in md and "no --quick" in md
    assert md.index("## What the rows mean") < md.index("## Sections")


def test_a_row_described_differently_in_two_sets_lists_both(tmp_path: Path) -> None:
    write(tmp_path, "a.json", {**incidents({"dense": "exact cosine, model A"}), "name": "a"})
    write(tmp_path, "b.json", {**incidents({"dense": "exact cosine, model B"}), "name": "b"})
    md = write_report(tmp_path).read_text()
    assert "- **dense**: exact cosine, model A / exact cosine, model B" in md
    assert "Code: commit" not in md  # no run file: no commit claimed


def test_the_report_defines_its_metrics(tmp_path: Path) -> None:
    """Found by a walkthrough: the toolret tables and "Against the goals" headed a column
    C@10 (the project's Completeness@10), and nothing in report.md said what it, or R@k,
    MRR and nDCG@10 here, measure."""
    write(tmp_path, "incidents.json", incidents({"fusion": "the default search"}))
    md = write_report(tmp_path).read_text()
    line = next(line for line in md.splitlines() if line.startswith("Metrics, per query then averaged"))
    for says in ("R@k: the share of its relevant items in the top k", "MRR: 1 / the rank of its first relevant item",
                 "nDCG@10: graded", "C@10 (Completeness@10): 1 when every relevant item is in the top 10, else 0",
                 "a query with no relevant item is left out"):
        assert says in line
