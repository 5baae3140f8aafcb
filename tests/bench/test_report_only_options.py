"""``benchmark --report-only`` with options that pick what a run measures: ``--only`` now
filters the rebuilt report to the sections named; the others, which decide what is
measured and not what the report shows, are refused with the reason. All were ignored
without a word (``--report-only --only skills`` rebuilt the report of every section)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.cli import main


def _set(family: str, name: str) -> dict[str, Any]:
    method = {"scores": {"nDCG@10": 0.5, "C@10": 0.5, "MRR": 0.5, "R@10": 0.5}, "judged": 40, "ms_p50": 1.0,
              "by_group": {}}
    return {"section": family, "family": family, "name": name, "key": f"{family}__{name}", "queries": 40,
            "metrics": ["nDCG@10"], "methods": {"dense": {**method, "family": "peer"},
                                                "full": {**method, "family": "pipeline"}}}


def _results(out: Path) -> None:
    (out / "results").mkdir(parents=True)
    for family, name in (("toolret", "metatool"), ("skills", "dev")):
        (out / "results" / f"{family}__{name}.json").write_text(json.dumps(_set(family, name)))


def test_only_filters_the_rebuilt_report(tmp_path: Path) -> None:
    _results(tmp_path)
    assert main(["benchmark", "--report-only", "--out", str(tmp_path), "--only", "toolret"]) == 0
    md = (tmp_path / "report.md").read_text()
    assert "toolret / metatool" in md and "skills / dev" not in md and "skills/dev" not in md
    assert "--only toolret" in md  # the report says it is filtered
    report = json.loads((tmp_path / "report.json").read_text())
    assert [s["key"] for s in report["sections"]] == ["toolret__metatool"] and report["only"] == ["toolret"]
    assert main(["benchmark", "--report-only", "--out", str(tmp_path)]) == 0  # whole again
    assert "skills / dev" in (tmp_path / "report.md").read_text()


def test_only_naming_no_result_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _results(tmp_path)
    assert main(["benchmark", "--report-only", "--out", str(tmp_path), "--only", "multihop"]) == 2
    assert "no results of multihop" in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--quick"], ["--data", "somewhere"], ["--max-queries", "5"],
                                    ["--embedder", "some-model"], ["--world-seed", "3"], ["--cache", "c"],
                                    ["--fresh"]])
def test_options_that_decide_what_is_measured_are_refused(
    option: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _results(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["benchmark", "--report-only", "--out", str(tmp_path), *option]) == 2
    err = capsys.readouterr().err
    assert f"--report-only does not take {option[0]}" in err and "rebuilds the report from the results" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written
