"""Ctrl-C, the index cache and a reused --out, as a walkthrough found them.

Ctrl-C rewrote report.md without its header and with no word of the stop; a half-built
cache entry stayed behind and the next run rebuilt it silently; a reused cache entry
printed nothing; and a run into an --out holding earlier results merged them silently.
The runs here are the real `skill-retriever benchmark` command with the bundled model;
only the list of sections is replaced by two small ones (one publishes, one is stopped).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench import runner
from skill_retriever.bench.common import BenchRun
from skill_retriever.bench.index_cache import cached_index, entry_dir
from skill_retriever.bench.sections import Section
from skill_retriever.cli import main
from skill_retriever.ingest.result import IngestResult
from skill_retriever.stores.embedder import HashingEmbedder


def tiny(work: Path) -> IngestResult:
    return IngestResult(source="tiny", nodes=tiny_nodes(), edges=tiny_edges())


class StopsEmbedding(HashingEmbedder):
    """Ctrl-C while the index is being embedded."""

    def embed(self, texts):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt


# -- the index cache --------------------------------------------------------------------
def test_a_build_stopped_by_ctrl_c_takes_its_entry_back(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    lines: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        cached_index(tmp_path, "tiny", {"v": 1}, tiny, StopsEmbedding(), log=lines.append)
    home = entry_dir(tmp_path, "tiny", StopsEmbedding().name)
    assert home.parent == tmp_path and not home.exists() and (tmp_path / "other").is_dir()
    assert "stopped while building the cached index tiny; removed the half-built entry" in lines[-1]
    index, info = cached_index(tmp_path, "tiny", {"v": 1}, tiny, HashingEmbedder(), log=lines.append)
    assert not info.reused and len(index) == len(tiny_nodes())
    index.close()


def test_a_half_built_or_changed_entry_is_rebuilt_with_a_word_and_a_reused_one_is_named(tmp_path: Path) -> None:
    index, _ = cached_index(tmp_path, "tiny", {"v": 1}, tiny, HashingEmbedder(), log=lambda _: None)
    index.close()
    lines: list[str] = []
    index, info = cached_index(tmp_path, "tiny", {"v": 1}, tiny, HashingEmbedder(), log=lines.append)
    index.close()
    assert info.reused and lines[0].startswith("  reusing the cached index tiny (built in ")
    home = entry_dir(tmp_path, "tiny", HashingEmbedder().name)  # the hashing model's entry of "tiny"
    assert f"delete {home} to rebuild it" in lines[0]
    index, info = cached_index(tmp_path, "tiny", {"v": 2}, tiny, HashingEmbedder(), log=lines.append)
    index.close()
    assert not info.reused and "  cached index tiny was built from other inputs" in "\n".join(lines)
    stamp = home / "bench-cache.json"
    stamp.write_text(json.dumps({**json.loads(stamp.read_text()), "complete": False}))  # as a killed run leaves it
    lines.clear()
    index, info = cached_index(tmp_path, "tiny", {"v": 2}, tiny, HashingEmbedder(), log=lines.append)
    index.close()
    assert not info.reused
    assert lines[0] == "  cached index tiny is half-built (a run stopped while building it); rebuilding it"


# -- the run ---------------------------------------------------------------------------
def result(run: BenchRun, key: str) -> dict[str, Any]:
    return {"section": "battery", "family": "battery", "name": key, "key": key, "passed": 1, "failed": 0,
            "checks": [{"name": f"{key} check", "ok": True, "detail": "fine"}], "seconds": 0.1, **run.stamp()}


def publishes(run: BenchRun) -> None:
    r = result(run, "first")
    (run.results / "first.json").write_text(json.dumps(r))
    run.publish(r)
    # mid-run, the report already names the run (it had no header until the run ended)
    assert "not finished: still running" in (run.opts.out / "report.md").read_text()


def stopped(run: BenchRun) -> None:
    raise KeyboardInterrupt


def bench(out: Path, monkeypatch: pytest.MonkeyPatch, *sections: Section) -> tuple[int, str]:
    # A data section, not asked for: the run notes it skips it (no data), as a real run does.
    monkeypatch.setattr(runner, "SECTIONS", (*sections, Section("skills", stopped, needs_data=True)))
    code = main(["benchmark", "--only", ",".join(s.name for s in sections), "--out", str(out),
                 "--data", str(out.parent / "no-data")])
    return code, (out / "report.md").read_text()


@pytest.mark.slow
def test_ctrl_c_leaves_a_report_that_says_so_with_its_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, md = bench(tmp_path / "out", monkeypatch, Section("battery", publishes), Section("incidents", stopped))
    assert code == 130 and "skill-retriever: interrupted" in capsys.readouterr().err
    assert md.startswith("# skill-retriever benchmark\n\n**Interrupted.** Last run: `skill-retriever benchmark --data ")
    assert "stopped (Ctrl-C) during the incidents section after " in md
    assert "\nMachine: " in md and "Embedding model: " in md and "first check: fine" in md
    run = json.loads((tmp_path / "out" / "results" / "_run.json").read_text())
    assert run["state"] == "interrupted" and run["interrupted"]["during"] == "incidents"


@pytest.mark.slow
def test_a_run_into_an_out_with_earlier_results_names_the_sections_it_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    (out / "results").mkdir(parents=True)
    earlier = {"section": "startup", "python_c_pass_ms": 10.0, "commands_ms": {"--help": 90.0},
               "commands_over_python": {"--help": 9.0}, "cold_query_wall_ms": 1800.0,
               "cold_query_split_ms": {"imports": 1000.0},
               "mcp": {"connected_s": 2.0, "ready_s": 2.1, "first_call_ms": 59.0, "later_calls_ms_median": 41.0},
               "command": "skill-retriever benchmark --only startup", "quick": False,
               "finished_at": "2026-12-05T10:30:45+00:00"}
    (out / "results" / "startup.json").write_text(json.dumps(earlier))
    code, md = bench(out, monkeypatch, Section("battery", publishes))
    printed = capsys.readouterr().out
    assert code == 0
    assert "holds 1 section result(s) of earlier runs (startup)" in printed
    assert "kept 1 section(s) from earlier runs in this folder: startup (2026-12-05T10:30:45+00:00)" in printed
    assert "Kept 1 section(s) from earlier runs in this folder: startup (2026-12-05T10:30:45+00:00)" in md
    assert md.count("_made by `") == 2 and "_made by `skill-retriever benchmark --only startup` (full), " \
        "2026-12-05T10:30:45+00:00_" in md  # no duration recorded: none printed, not "? s"
