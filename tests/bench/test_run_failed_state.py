"""A run stopped by an error says so in ``_run.json`` and report.md.

Found by a walkthrough: `benchmark --only toolret` over a set whose queries.jsonl had a
malformed line stopped with a clear one-line error, but left ``_run.json`` at
``"state": "running"`` and no report.md; a run into an --out with earlier results left
their report headed "not finished: still running, or stopped without a word". The runs
here are the real command with the bundled model; only the list of sections is replaced.
A bad data file no longer stops a run (tests/bench/test_data_failures.py): the error here
is a fault of ours, which still does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.bench import runner
from skill_retriever.bench.common import BenchRun
from skill_retriever.bench.sections import Section
from skill_retriever.cli import main
from skill_retriever.exceptions import SkillRetrieverError


def publishes(run: BenchRun) -> None:
    r = {"section": "battery", "family": "battery", "name": "first", "key": "first", "passed": 1, "failed": 0,
         "checks": [{"name": "first check", "ok": True, "detail": "fine"}], "seconds": 0.1, **run.stamp()}
    (run.results / "first.json").write_text(json.dumps(r))
    run.publish(r)


def breaks(run: BenchRun) -> None:
    raise SkillRetrieverError("/data/toolret/s/queries.jsonl:4: not JSON at column 56")


@pytest.mark.slow
def test_an_error_in_a_section_leaves_a_report_headed_failed_with_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runner, "SECTIONS", (Section("battery", publishes), Section("incidents", breaks)))
    out = tmp_path / "out"
    code = main(["benchmark", "--only", "battery,incidents", "--out", str(out), "--data", str(tmp_path / "none")])
    assert code == 2 and "queries.jsonl:4: not JSON at column 56" in capsys.readouterr().err
    run = json.loads((out / "results" / "_run.json").read_text())
    assert run["state"] == "failed"
    assert run["failed"]["during"] == "incidents" and run["failed"]["error"] == (
        "SkillRetrieverError: /data/toolret/s/queries.jsonl:4: not JSON at column 56")
    md = (out / "report.md").read_text()
    assert md.startswith("# skill-retriever benchmark\n\n**Failed.** Last run: `skill-retriever benchmark ")
    assert ("stopped by an error during the incidents section after " in md
            and "SkillRetrieverError: /data/toolret/s/queries.jsonl:4: not JSON at column 56" in md)
    assert "still running" not in md and "first check: fine" in md


@pytest.mark.slow
@pytest.mark.parametrize(("stop", "state", "words"), [
    (KeyboardInterrupt, "interrupted", "stopped (Ctrl-C) during the toolret section (set toolret/stops) after "),
    (SkillRetrieverError("toolret__stops: bad"), "failed", "stopped by an error during the toolret section (set toolret/stops) after "),
])
def test_the_header_names_the_set_the_run_stopped_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    stop: BaseException, state: str, words: str,
) -> None:
    """A section runs several sets (toolret seven): the header named only the section."""
    from skill_retriever.bench.datasets import Dataset, EvalQuery
    from skill_retriever.bench.retrieval_sets import _run_sets

    def ingest(work: Path) -> None:
        raise stop

    ds = Dataset("toolret", "stops", [EvalQuery("1", "q", {"a": 1})], ingest, {"v": 1}, ("R@5",))  # type: ignore[arg-type]
    monkeypatch.setattr(runner, "SECTIONS", (Section("toolret", lambda run: _run_sets(run, [ds], [])),))
    out = tmp_path / "out"
    (tmp_path / "data").mkdir()
    main(["benchmark", "--only", "toolret", "--out", str(out), "--data", str(tmp_path / "data")])
    run = json.loads((out / "results" / "_run.json").read_text())
    assert run["state"] == state and run[state]["set"] == "toolret/stops"
    assert words in (out / "report.md").read_text()
