"""`skill-retriever benchmark` given odd options or damaged files: a one-line error or a
note, never a traceback, and never hours of work nobody asked for."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from startup_fakes import fake_startup_timings
from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench import startup
from skill_retriever.bench.cli import NAMES, _not_ours
from skill_retriever.bench.common import BenchOptions, BenchRun
from skill_retriever.bench.datasets import cached_index
from skill_retriever.bench.index_cache import entry_dir
from skill_retriever.bench.limits import DATA_LAYOUT_HELP
from skill_retriever.bench.report import load_results, write_report
from skill_retriever.cli import main
from skill_retriever.ingest.result import IngestResult, Problem
from skill_retriever.stores.embedder import HashingEmbedder


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith("skill-retriever: error: ") and "\n" not in err, err
    return err


def _results(out: Path) -> Path:
    """An --out of an earlier run: one section result (an unknown kind the report skips)."""
    (out / "results").mkdir(parents=True)
    (out / "results" / "extra.json").write_text(json.dumps({"section": "extra", "name": "x"}))
    return out


# -- --report-only ----------------------------------------------------------------------
def test_report_only_into_a_file_is_the_same_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    assert main(["benchmark", "--report-only", "--out", str(afile)]) == 2
    assert f"--out {afile} is a file; give a folder" in _one_line_error(capsys)
    assert afile.read_text() == "keep me"


def test_report_only_without_results_is_an_error_and_makes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nonexistent"
    assert main(["benchmark", "--report-only", "--out", str(out)]) == 2
    assert "no results in" in _one_line_error(capsys)
    assert not out.exists()


def test_report_only_from_results_still_rebuilds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _results(tmp_path / "out")
    assert main(["benchmark", "--report-only", "--out", str(out)]) == 0
    assert "report rebuilt" in capsys.readouterr().out and (out / "report.md").is_file()


# -- a damaged results/_run.json --------------------------------------------------------
@pytest.mark.parametrize("text", ['{"command": "x", "finis', "[1, 2]", "\xff\xfe"])
def test_a_damaged_run_file_is_left_out_of_the_report_with_a_note(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _results(tmp_path / "out")
    (out / "results" / "_run.json").write_bytes(text.encode("latin-1"))
    sections, run = load_results(out)
    assert run == {} and [s["name"] for s in sections] == ["x"]
    write_report(out)  # what every section's publish does: no JSONDecodeError
    assert main(["benchmark", "--report-only", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "_run.json is damaged" in captured.err and "report rebuilt" in captured.out


# -- --only -----------------------------------------------------------------------------
@pytest.mark.parametrize("only", ["", ",", " , "])
def test_an_empty_only_is_an_error_not_every_section(
    only: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from skill_retriever.bench import runner

    def every_section(opts: BenchOptions) -> int:  # the bug: hours of work, scale included
        raise AssertionError(f"ran sections {opts.only or 'all'}")

    monkeypatch.setattr(runner, "run", every_section)
    out = tmp_path / "out"
    assert main(["benchmark", "--only", only, "--out", str(out)]) == 2
    err = _one_line_error(capsys)
    assert "--only is empty" in err and ",".join(NAMES) in err
    assert not out.exists()


def test_a_data_section_asked_for_without_data_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["benchmark", "--only", "battery,skills", "--data", str(tmp_path / "nope"), "--out", str(out)]) == 2
    err = _one_line_error(capsys)
    assert "--only skills needs the benchmark data" in err and "does not exist" in err and "give --data" in err
    assert DATA_LAYOUT_HELP in err  # where to learn the layout, not only that it is missing
    assert not out.exists()


def test_a_data_section_without_any_data_folder_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("SKILL_RETRIEVER_DATA", raising=False)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")  # no ../shared/data
    assert main(["benchmark", "--only", "toolret,multihop", "--out", "out"]) == 2
    assert "--only toolret,multihop needs the benchmark data: no data folder" in _one_line_error(capsys)


def test_a_data_section_whose_sets_are_missing_from_the_data_folder_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The folder exists but holds no skills/: it skipped with a note and exited 0."""
    (tmp_path / "data" / "toolret").mkdir(parents=True)
    assert main(["benchmark", "--only", "skills", "--data", str(tmp_path / "data"), "--out", str(tmp_path / "o")]) == 2
    out = capsys.readouterr().out
    assert "skills: no " in out and "error: --only skills found no set to run under" in out
    assert DATA_LAYOUT_HELP in out


def test_the_readme_section_the_data_errors_name_exists_and_lists_each_data_section() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "### Running the benchmark" in readme
    part = readme.split("### Running the benchmark", 1)[1].split("\n### ", 1)[0]
    for needed in ("multihop/<set>/corpus.json", "skills/queries/dev.jsonl", "toolret/<set>/tools.jsonl"):
        assert needed in part


# -- folders that cannot be written -----------------------------------------------------
READ_ONLY = Path("/proc/self")  # a folder no one, root included, can make a file in


@pytest.mark.skipif(not READ_ONLY.is_dir(), reason="needs Linux /proc for a folder root cannot write")
@pytest.mark.parametrize("flag", ["--out", "--cache"])
def test_a_folder_that_cannot_be_written_is_named_before_any_work(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["--out", str(READ_ONLY)] if flag == "--out" else ["--out", str(out), "--cache", str(READ_ONLY)]
    assert main(["benchmark", "--only", "battery", *args]) == 2
    err = _one_line_error(capsys)
    assert f"{flag} {READ_ONLY}: cannot write in {READ_ONLY}" in err and "give a folder that can be written" in err
    assert not out.exists()


def test_a_read_only_out_folder_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o555)
    try:
        if os.geteuid() == 0 and os.access(out, os.W_OK):
            pytest.skip("running as root: chmod does not stop root writing (the /proc case covers it)")
        assert main(["benchmark", "--only", "battery", "--out", str(out)]) == 2
        assert f"--out {out}: cannot write in {out}" in _one_line_error(capsys)
    finally:
        out.chmod(0o755)


def test_a_file_on_the_way_to_out_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile").write_text("")
    assert main(["benchmark", "--only", "battery", "--out", str(tmp_path / "afile" / "sub")]) == 2
    assert "afile is a file; give a folder" in _one_line_error(capsys)


# -- a damaged cache entry --------------------------------------------------------------
def _damage(index: Path, how: str) -> None:
    if how == "garbage items.sqlite":
        (index / "items.sqlite").write_text("garbage")
    elif how == "truncated items.sqlite":
        (index / "items.sqlite").write_bytes(b"")
    elif how == "no items.sqlite":
        (index / "items.sqlite").unlink()
    else:
        (index / "index.json").write_text("garbage")


@pytest.mark.parametrize("how", ["garbage items.sqlite", "truncated items.sqlite", "no items.sqlite", "garbage index.json"])
def test_a_damaged_cached_index_is_rebuilt_and_nothing_else_is_touched(how: str, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    neighbour = cache / "other__entry"
    neighbour.mkdir(parents=True)
    (neighbour / "keep.txt").write_text("keep")
    (cache / "keep.txt").write_text("keep")

    def ingest(work: Path) -> IngestResult:
        return IngestResult(source="tiny", nodes=tiny_nodes(), edges=tiny_edges())

    index, info = cached_index(cache, "tiny", {"v": 1}, ingest, HashingEmbedder(), log=lambda _: None)
    built = len(index)
    index.close()
    assert not info.reused
    _damage(entry_dir(cache, "tiny", HashingEmbedder().name) / "index", how)
    lines: list[str] = []
    index, info = cached_index(cache, "tiny", {"v": 1}, ingest, HashingEmbedder(), log=lines.append)
    assert not info.reused and len(index) == built
    index.close()
    said = [line for line in lines if "damaged" in line]
    assert len(said) == 1 and "rebuilding this cache entry" in said[0] and "skill-retriever index" not in said[0]
    assert (neighbour / "keep.txt").read_text() == "keep" and (cache / "keep.txt").read_text() == "keep"
    index, info = cached_index(cache, "tiny", {"v": 1}, ingest, HashingEmbedder(), log=lines.append)
    assert info.reused  # the rebuilt entry is trusted again
    index.close()


@pytest.mark.parametrize("key", ["", ".", "..", "a/b", "../x"])
def test_a_cache_key_is_one_folder_of_the_cache(key: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="plain folder name"):
        cached_index(tmp_path, key, {}, lambda _: IngestResult(source=""), HashingEmbedder(), log=lambda _: None)


# -- what the startup section prints ----------------------------------------------------
def test_startup_prints_a_short_table_not_its_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mcp = fake_startup_timings(monkeypatch)  # no process is started: what is printed of them is the test
    lines: list[str] = []
    opts = BenchOptions(out=tmp_path, data=None, cache=tmp_path / "cache", log=lines.append)
    startup.run_startup(BenchRun(opts, "threads"))
    printed = "\n".join(lines)
    assert "command" in printed and "MCP server: connected 0.4 s" in printed
    assert '"section"' not in printed and len(printed.splitlines()) < 15, printed
    saved: dict[str, Any] = json.loads((tmp_path / "results" / "startup.json").read_text())
    assert saved["mcp"] == mcp and saved["section"] == "startup"


def test_a_cache_build_names_the_problems_it_counts(tmp_path: Path) -> None:
    """ultratool's build said "5 problems" and no more (found by a walkthrough)."""
    problems = [Problem(path=f"tools/{i}.json", message=f"bad entry {i}") for i in range(5)]
    lines: list[str] = []
    index, _ = cached_index(tmp_path, "tiny", {}, lambda _: IngestResult(source="tiny", nodes=tiny_nodes(),
                            edges=tiny_edges(), problems=problems), HashingEmbedder(), log=lines.append)
    index.close()
    said = "\n".join(lines)
    assert "5 problems" in said and "problem: tools/0.json: bad entry 0" in said and "... and 2 more" in said
    assert "tools/3.json" not in said


def test_max_queries_without_toolret_says_it_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--only multihop --max-queries 20` still ran every question, saying nothing."""
    assert main(["benchmark", "--only", "skills", "--max-queries", "20", "--data", str(tmp_path / "none"),
                 "--out", str(tmp_path / "out")]) == 2  # stops at the missing data, after the note
    err = capsys.readouterr().err
    assert "--max-queries samples the toolret sets only" in err and "--quick" in err


@pytest.mark.slow
def test_another_world_seed_is_a_held_out_incident_world(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["benchmark", "--quick", "--only", "incidents", "--world-seed", "3", "--out", str(tmp_path / "o"),
                 "--data", str(tmp_path / "none")]) == 0
    result = json.loads((tmp_path / "o" / "results" / "incidents.json").read_text())
    assert result["world"]["seed"] == 3 and "--world-seed 3" in result["command"]
    assert "seed 3, 30 services" in capsys.readouterr().out


def test_an_out_folder_of_other_files_named_like_a_report_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A project folder given as --out lost its own report.md: a run overwrote it. Now
    refused, nothing touched; a folder of an earlier run (results/) is written as before."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "report.md").write_text("# my quarterly report\n")
    assert main(["benchmark", "--only", "battery", "--out", str(project)]) == 2
    err = _one_line_error(capsys)
    assert f"--out {project} holds report.md but no results/ of an earlier benchmark run" in err
    assert sorted(p.name for p in project.iterdir()) == ["report.md"]
    assert (project / "report.md").read_text() == "# my quarterly report\n"
    earlier = _results(tmp_path / "earlier")  # an earlier run's folder: its report is the run's own
    (earlier / "report.md").write_text("# Benchmark\n")
    assert _not_ours(earlier) == [] and _not_ours(tmp_path / "new") == []


def test_max_queries_with_quick_says_quick_samples_30(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--quick --only toolret --max-queries 100` sampled 30 queries (the quick profile's
    size) without a word, while the report's command read --max-queries 100."""
    assert main(["benchmark", "--quick", "--only", "toolret", "--max-queries", "100", "--data", str(tmp_path / "none"),
                 "--out", str(tmp_path / "out")]) == 2  # stops at the missing data, after the note
    err = capsys.readouterr().err
    assert "note: --quick samples 30 queries of one toolret set whatever --max-queries says (100 here)" in err


def test_world_seed_without_battery_or_incidents_says_it_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--only toolret --world-seed 3` ran as without it, saying nothing, and stamped the seed
    on the toolret results' command."""
    assert main(["benchmark", "--only", "toolret", "--world-seed", "3", "--data", str(tmp_path / "none"),
                 "--out", str(tmp_path / "out")]) == 2  # stops at the missing data, after the note
    err = capsys.readouterr().err
    assert ("note: --world-seed seeds the incident world of the battery and incidents sections, which "
            "--only toolret leaves out") in err


@pytest.mark.parametrize("where", [".", "toolret", "results"])
def test_an_out_inside_the_data_folder_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """`--out ../shared/data` (meant as --data) would write results/, cache/, plots/ and
    report.md among the shared sets: refused, the data folder untouched."""
    data = tmp_path / "data"
    (data / "toolret").mkdir(parents=True)
    before = sorted(p.name for p in data.rglob("*"))
    out = data / where
    assert main(["benchmark", "--only", "battery", "--data", str(data), "--out", str(out)]) == 2
    err = _one_line_error(capsys)
    assert f"--out {out} is in the data folder {data}" in err and "give --out a folder outside it" in err
    assert sorted(p.name for p in data.rglob("*")) == before


def test_a_data_variable_naming_no_folder_is_said_not_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """$SKILL_RETRIEVER_DATA naming a folder that is not there was passed over for
    ../shared/data without a word, so a run read other data than the one asked for."""
    (tmp_path / "shared" / "data" / "toolret").mkdir(parents=True)  # ../shared/data exists
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv("SKILL_RETRIEVER_DATA", str(tmp_path / "typo"))
    assert main(["benchmark", "--only", "toolret", "--out", "out"]) == 2
    said = _one_line_error(capsys)
    assert f"$SKILL_RETRIEVER_DATA names {tmp_path / 'typo'}, which does not exist" in said
