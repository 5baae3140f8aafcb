"""A bad data file (a malformed line, a missing file) fails its section or set, not the run.

Found by a walkthrough: one malformed line in a skills or toolret file stopped the whole
benchmark, so the sections after it (multihop, speed, startup: hours of a full run) were
never measured. Now the failure is recorded with the file and line, the other sections
and sets run, report.md lists the failures at its end and the command exits 1. The runs
here are the real command; only the sections (or one set's measuring) are replaced.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.bench import retrieval_sets, runner
from skill_retriever.bench.common import BenchRun
from skill_retriever.bench.datasets import Dataset, EvalQuery
from skill_retriever.bench.sections import Section
from skill_retriever.cli import main
from skill_retriever.exceptions import IngestError

BAD_LINE = "/data/skills/queries/dev.jsonl:4: not JSON at column 56"


def publishes(name: str) -> Any:
    def run(bench: BenchRun) -> None:
        r = {"section": "battery", "family": "battery", "name": name, "key": name, "passed": 1, "failed": 0,
             "checks": [{"name": f"{name} check", "ok": True, "detail": "fine"}], "seconds": 0.1, **bench.stamp()}
        (bench.results / f"{name}.json").write_text(json.dumps(r))
        bench.publish(r)

    return run


def bad_line(bench: BenchRun) -> None:
    raise IngestError(BAD_LINE)


def missing_file(bench: BenchRun) -> None:
    Path("/nonexistent/toolret/x/tools.jsonl").read_text()


@pytest.mark.slow
def test_a_bad_data_file_fails_its_section_and_the_others_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runner, "SECTIONS", (
        Section("battery", publishes("first")), Section("skills", bad_line, needs_data=True),
        Section("toolret", missing_file, needs_data=True), Section("startup", publishes("after"))))
    (tmp_path / "data").mkdir()
    out = tmp_path / "out"
    code = main(["benchmark", "--only", "battery,skills,toolret,startup", "--out", str(out),
                 "--data", str(tmp_path / "data")])
    printed = capsys.readouterr().out
    assert code == 1, printed
    assert (out / "results" / "after.json").is_file()  # the section after the bad files ran
    run = json.loads((out / "results" / "_run.json").read_text())
    assert run["state"] == "finished"
    assert [(f["section"], f["error"]) for f in run["failures"]] == [
        ("skills", f"IngestError: {BAD_LINE}"),
        ("toolret", "FileNotFoundError: [Errno 2] No such file or directory: '/nonexistent/toolret/x/tools.jsonl'")]
    md = (out / "report.md").read_text()
    tail = md[md.index("## Failures"):]
    assert md.rstrip().endswith(tail.rstrip()) and BAD_LINE in tail and "/nonexistent/toolret/x/tools.jsonl" in tail
    assert "2 section(s) or set(s) failed" in md.split("## ", 1)[0]  # the header says so too
    assert "after check: fine" in md and "failed: skills" in printed


@pytest.mark.slow
def test_a_set_that_fails_leaves_the_next_set_of_its_section_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def measure(run: BenchRun, ds: Dataset) -> dict[str, Any]:
        if ds.name == "bad":
            raise IngestError(f"/data/toolret/bad/tools.jsonl:2: {ds.name} is not JSON")
        r = {"section": "battery", "family": "battery", "name": ds.name, "key": ds.key, "passed": 1, "failed": 0,
             "checks": [], **run.stamp()}
        (run.results / f"{ds.key}.json").write_text(json.dumps(r))
        return r

    sets = [Dataset("toolret", n, [EvalQuery("1", "q", {"a": 1})], lambda w: None, {}, ("R@5",))  # type: ignore[arg-type, misc]
            for n in ("bad", "good")]
    monkeypatch.setattr(retrieval_sets, "run_dataset", measure)
    monkeypatch.setattr(runner, "SECTIONS", (
        Section("toolret", lambda run: retrieval_sets._run_sets(run, sets, []), needs_data=True),))
    (tmp_path / "data").mkdir()
    out = tmp_path / "out"
    assert main(["benchmark", "--only", "toolret", "--out", str(out), "--data", str(tmp_path / "data")]) == 1
    assert (out / "results" / "toolret__good.json").is_file()
    run = json.loads((out / "results" / "_run.json").read_text())
    assert [(f["section"], f["set"]) for f in run["failures"]] == [("toolret", "toolret/bad")]
    assert "toolret/bad: IngestError: /data/toolret/bad/tools.jsonl:2:" in (out / "report.md").read_text()


@pytest.mark.parametrize("family", ["toolret", "multihop"])
def test_a_set_whose_queries_file_is_bad_is_handed_back_and_the_others_load(family: str, tmp_path: Path) -> None:
    """Loaded before any set ran, one set's malformed queries file failed every set of its
    family (toolret has seven)."""
    from skill_retriever.bench import datasets as D

    for name in ("aa", "bb"):
        folder = tmp_path / family / name
        folder.mkdir(parents=True)
        if family == "toolret":
            (folder / "tools.jsonl").write_text('{"id": "a", "name": "a", "description": "search flights"}\n')
            (folder / "queries.jsonl").write_text('{"id": "1", "query": "fly", "relevant": ["a"]}\n'
                                                  + ('{"id": "2", bad\n' if name == "aa" else ""))
        else:
            (folder / "corpus.json").write_text(json.dumps([{"title": "T", "text": "t", "idx": 0}]))
            (folder / "queries.json").write_text(
                "[{" if name == "aa" else json.dumps([{"id": "1", "question": "q?", "supporting_idx": [0]}]))
    failed: list[tuple[str, Exception]] = []
    loader = D.toolret_sets if family == "toolret" else D.multihop_sets
    sets, _ = loader(tmp_path, failed=failed)
    assert [s.name for s in sets] == ["bb"]
    assert [(name, type(exc).__name__) for name, exc in failed] == [(f"{family}/aa", "IngestError")]
    assert str(tmp_path / family / "aa" / "queries.json") in str(failed[0][1])
    with pytest.raises(IngestError):  # without the list, as before: the error stops the caller
        loader(tmp_path)
