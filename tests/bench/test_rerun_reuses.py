"""A re-run with the same options reuses the sets an earlier run (stopped or finished)
wrote in full, when their options, data files and code are unchanged.

Found by a walkthrough: a run stopped by Ctrl-C (or an error) after some sets, run again,
measured every finished set again (a full run is hours). Now each set whose result and
ranked ids were written is reused when the options that decide its figures, the data
files it reads (size and time) and the installed package's sources (a hash, not git) are
those of this run; report.md, report.json and the log say which sets and from which run.
``--fresh`` measures everything again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from fake_sections import battery_section

from skill_retriever.bench import datasets as D
from skill_retriever.bench import reuse, runner
from skill_retriever.bench.sections import Section
from skill_retriever.cli import main


def toolret(data: Path, name: str) -> Path:
    folder = data / "toolret" / name
    folder.mkdir(parents=True)
    (folder / "tools.jsonl").write_text('{"id": "a", "name": "a", "description": "search flights"}\n'
                                        '{"id": "b", "name": "b", "description": "book a hotel room"}\n')
    (folder / "queries.jsonl").write_text('{"id": "1", "query": "find a flight", "relevant": ["a"]}\n')
    return folder


def stamps(out: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (out / "results").glob("toolret__*.json")}


@pytest.mark.slow
def test_a_rerun_after_ctrl_c_measures_only_what_the_stopped_run_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out = tmp_path / "data", tmp_path / "out"
    toolret(data, "aa")
    bb = toolret(data, "bb")
    command = ["benchmark", "--only", "toolret", "--data", str(data), "--out", str(out)]
    real = D.cached_index

    def stops_in_bb(cache: Path, key: str, *rest: Any, **kw: Any) -> Any:
        if key == "toolret__bb":
            raise KeyboardInterrupt
        return real(cache, key, *rest, **kw)

    monkeypatch.setattr(D, "cached_index", stops_in_bb)
    assert main(command) == 130  # Ctrl-C while measuring toolret/bb
    monkeypatch.setattr(D, "cached_index", real)
    first = json.loads((out / "results" / "_run.json").read_text())
    assert first["state"] == "interrupted" and set(stamps(out)) == {"toolret__aa.json", "toolret__aa.queries.json"}
    assert ("Run the same command again to finish: the sets it finished are reused, not measured again"
            in (out / "report.md").read_text())
    before = stamps(out)
    capsys.readouterr()

    assert main(command) == 0  # the same command again
    printed = capsys.readouterr().out
    assert stamps(out)["toolret__aa.json"] == before["toolret__aa.json"]  # not measured again
    assert "toolret__bb.json" in stamps(out)
    assert "reusing toolret/aa" in printed and f"run started {first['started_at']}" in printed
    run = json.loads((out / "results" / "_run.json").read_text())
    assert [(r["set"], r["run_started_at"]) for r in run["reused"]] == [("toolret/aa", first["started_at"])]
    md = (out / "report.md").read_text()
    assert "Reused 1 set(s)" in md and f"toolret/aa (run started {first['started_at']}" in md
    assert "Kept " not in md  # a reused set is said as reused, not as an earlier run's kept section
    report = json.loads((out / "report.json").read_text())
    by_key = {s["key"]: s for s in report["sections"]}
    assert by_key["toolret__aa"]["reused_from"]["run_started_at"] == first["started_at"]
    assert "reused_from" not in by_key["toolret__bb"]

    # a finished run, run again: says so at the start and reuses both
    assert main(command) == 0
    printed = capsys.readouterr().out
    assert ("holds 2 section result(s) of earlier runs (toolret/aa, toolret/bb), all measured with these options"
            in printed.split("==", 1)[0] and "--fresh" in printed.split("==", 1)[0])
    assert {r["set"] for r in json.loads((out / "results" / "_run.json").read_text())["reused"]} == {
        "toolret/aa", "toolret/bb"}

    # a data file changed: that set is measured again, the other reused
    (bb / "tools.jsonl").write_text((bb / "tools.jsonl").read_text() + '{"id": "c", "name": "c", "description": "rent a car"}\n')
    before = stamps(out)
    assert main(command) == 0
    after = stamps(out)
    assert after["toolret__bb.json"] != before["toolret__bb.json"] and after["toolret__aa.json"] == before["toolret__aa.json"]

    # --fresh measures everything again
    assert main([*command, "--fresh"]) == 0
    assert all(v != after[k] for k, v in stamps(out).items())
    assert json.loads((out / "results" / "_run.json").read_text())["reused"] == []


@pytest.mark.slow
def test_a_section_is_reused_only_while_its_options_and_code_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(runner, "SECTIONS", (Section("battery", battery_section(calls)),))
    out = tmp_path / "out"
    command = ["benchmark", "--only", "battery", "--out", str(out), "--data", str(tmp_path / "none")]
    assert main(command) == 0 and main(command) == 0
    assert calls == ["battery"]  # the second run reused it
    assert main([*command, "--world-seed", "3"]) == 0  # an option that decides its figures
    assert calls == ["battery"] * 2
    monkeypatch.setattr(reuse, "code_hash", lambda: "other code")
    assert main([*command, "--world-seed", "3"]) == 0
    assert calls == ["battery"] * 3


def test_the_code_hash_reads_the_installed_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import skill_retriever

    package = tmp_path / "skill_retriever"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("x = 1\n")
    (package / "sub" / "a.py").write_text("y = 2\n")
    monkeypatch.setattr(skill_retriever, "__file__", str(package / "__init__.py"))
    reuse.code_hash.cache_clear()
    try:
        one = reuse.code_hash()
        (package / "sub" / "a.py").write_text("y = 3\n")
        reuse.code_hash.cache_clear()
        assert reuse.code_hash() != one
    finally:
        reuse.code_hash.cache_clear()


def test_the_data_stamp_follows_size_and_time_not_the_folder_path(tmp_path: Path) -> None:
    a = toolret(tmp_path / "one", "s")
    b = toolret(tmp_path / "two", "s")
    for f in ("tools.jsonl", "queries.jsonl"):
        st = os.stat(a / f)
        os.utime(b / f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert reuse.files_stamp([a]) == reuse.files_stamp([b])
    (b / "queries.jsonl").write_text("{}\n")
    assert reuse.files_stamp([a]) != reuse.files_stamp([b])
