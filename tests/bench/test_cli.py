"""`skill-retriever benchmark --quick --only battery,incidents` end to end (real model)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from skill_retriever.cli import main


@pytest.mark.slow
def test_quick_battery_and_incidents_write_json_markdown_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    rc = main(["benchmark", "--quick", "--only", "battery,incidents", "--out", str(out),
               "--data", str(tmp_path / "no-data")])
    printed = capsys.readouterr().out
    assert rc == 0, printed
    assert not [ln for ln in printed.splitlines() if ln.startswith("FAIL")]
    assert "seed battery: 9 PASS, 0 FAIL" in printed
    assert "queries over a generated world: seed 7, 30 services" in printed and "{'seed'" not in printed
    battery = json.loads((out / "results" / "battery.json").read_text())
    assert battery["failed"] == 0 and battery["passed"] == len(battery["checks"])
    incidents = json.loads((out / "results" / "incidents.json").read_text())
    assert {"only semantic", "only keyword", "only graph", "only temporal", "fusion"} <= set(incidents["methods"])
    report = json.loads((out / "report.json").read_text())
    assert {s["key"] for s in report["sections"]} == {"battery", "incidents"}
    md = (out / "report.md").read_text()
    assert "seed battery" in md and "R@10 by query shape" in md
    png = out / "plots" / "incidents.png"
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the report can be rebuilt from the results alone
    assert main(["benchmark", "--report-only", "--out", str(out)]) == 0


def test_unknown_section_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["benchmark", "--only", "bogus", "--out", str(tmp_path)]) == 2
    assert "unknown section" in capsys.readouterr().err


@pytest.mark.parametrize(("given", "meant"), [("incident", "incidents"), ("Skills", "skills"), ("batery", "battery")])
def test_a_misspelt_section_names_the_one_meant_and_nothing_runs(
    given: str, meant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["benchmark", "--only", f"speed,{given}", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"unknown section(s) '{given}' (did you mean {meant}?)" in err and "speed" in err
    assert not out.exists()  # stopped before anything was made


def test_a_name_like_no_section_gets_no_guess(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["benchmark", "--only", "everything", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "'everything'; choose from battery," in err and "did you mean" not in err


@pytest.mark.parametrize("missing", ["psutil", "matplotlib"])
def test_without_the_bench_extra_the_command_says_what_to_install(
    missing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # `import psutil` now raises ImportError
    assert main(["benchmark", "--quick", "--only", "battery", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and missing in err and "pip install 'skill-retriever[bench]'" in err
    assert not (tmp_path / "results").exists()  # stopped before any work


def test_report_only_without_matplotlib_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    (tmp_path / "results").mkdir()  # an earlier run's results to build the report from
    (tmp_path / "results" / "_run.json").write_text("{}")
    assert main(["benchmark", "--report-only", "--out", str(tmp_path)]) == 2
    assert "pip install 'skill-retriever[bench]'" in capsys.readouterr().err


@pytest.mark.slow
def test_another_embedding_model_is_used_and_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skill_retriever.stores.embedder import bundled_model_path

    model = str(bundled_model_path())  # the same weights, named by their folder
    out = tmp_path / "out"
    rc = main(["benchmark", "--quick", "--only", "battery", "--out", str(out), "--embedder", model,
               "--data", str(tmp_path / "no-data")])
    assert rc == 0, capsys.readouterr().out
    run = json.loads((out / "results" / "_run.json").read_text())
    assert run["embedder"] == model and "--embedder" in run["command"]
    assert json.loads((out / "results" / "battery.json").read_text())["embedder"] == model
    assert f"Embedding model: {model}." in (out / "report.md").read_text()


@pytest.mark.parametrize(("model", "says"), [("/no/such/model", "cannot load embedding model")])
def test_an_embedding_model_that_cannot_be_used_stops_the_run_first(
    model: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["benchmark", "--only", "battery", "--out", str(tmp_path / "out"), "--embedder", model]) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing made
