"""Lines of the report that said less, or other, than they meant (found by a walkthrough):
each retrieval section's ``reranker: X`` note beside a latency line saying ``reranker
none`` (X is the "+rerank" rows' only), the start-up section's made-by line with ``? s``
for its duration, and ``--help`` wrapping the section list as ``battery\\n,incidents``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from startup_fakes import fake_startup_timings

from skill_retriever.bench import startup
from skill_retriever.bench.cli import NAMES
from skill_retriever.bench.common import BenchOptions, BenchRun
from skill_retriever.bench.report import section_lines, write_report
from skill_retriever.cli import main


def retrieval(methods: list[str]) -> dict[str, Any]:
    scores = {"family": "pipeline", "scores": {"R@5": 0.5}, "by_group": {"all": {"R@5": 0.5, "n": 4}},
              "ms_p50": 3.0, "routes": {"ppr": 4}}
    return {"section": "multihop", "family": "multihop", "name": "tiny", "queries": 4, "metrics": ["R@5"],
            "notes": [], "build": {}, "reranker": "embedding:bundled:all-MiniLM-L6-v2",
            "methods": {m: scores for m in methods},
            "latency": {"queries": 4, "default_p50_ms": 40.0, "default_p95_ms": 50.0, "dense_p50_ms": 20.0,
                        "x_dense": 2.0, "routes": {"ppr": 4}, "reranker": "none", "default_timed": 4}}


def test_the_reranker_note_names_the_rows_that_rerank_and_the_latency_line_its_own() -> None:
    text = "\n".join(section_lines(retrieval(["full", "full+rerank", "route ppr"]), md=True))
    assert ("- 'full+rerank' reranks with embedding:bundled:all-MiniLM-L6-v2; every other row ranks without "
            "a reranker") in text
    assert "- latency, default search as a user gets it (its reranker: none): p50 40 ms (p95 50), 2.0x" in text
    assert "reranker: embedding" not in text
    assert "- no row reranks" in "\n".join(section_lines(retrieval(["full"]), md=True))


def test_startup_records_its_duration_and_the_made_by_line_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_startup_timings(monkeypatch)  # no process is started: the duration and its line are the test
    opts = BenchOptions(out=tmp_path, data=None, cache=tmp_path / "cache", command="skill-retriever benchmark",
                        log=lambda _: None)
    startup.run_startup(BenchRun(opts, "threads"))
    saved = json.loads((tmp_path / "results" / "startup.json").read_text())
    assert isinstance(saved["seconds"], float) and saved["seconds"] >= 0
    md = write_report(tmp_path).read_text()
    assert f"_made by `skill-retriever benchmark` (full), {saved['finished_at']}, {saved['seconds']} s" in md
    assert "? s" not in md


def test_help_wraps_the_section_list_between_names(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    with pytest.raises(SystemExit):
        main(["benchmark", "--help"])
    out = capsys.readouterr().out
    assert not [line for line in out.splitlines() if line.strip().startswith(",")], out
    assert ", ".join(NAMES) in " ".join(out.split())


def test_the_incidents_section_names_its_reranker_and_its_latency() -> None:
    """The incidents section measured the default search's latency and recorded the
    "+rerank" row's reranker, but its lines showed neither: the legend's "the benchmark's
    reranker" named none, and the latency the README quotes for it was in the JSON only."""
    s = retrieval(["fusion", "fusion+rerank"])
    by_shape = {"recent": {"MRR": 0.5, "R@10": 0.5, "n": 4}}
    s.update(section="incidents", family="incidents", name="world", metrics=["MRR", "R@10"],
             world={"services": 6, "deploys": 20, "incidents": 9, "seed": 7},
             notes=["every method ranks only the kind the answer has"],
             methods={m: {"family": "pipeline", "scores": {"MRR": 0.5, "R@10": 0.5}, "by_group": by_shape}
                      for m in ("fusion", "fusion+rerank")})
    for md in (True, False):
        text = "\n".join(section_lines(s, md=md))
        assert "'fusion+rerank' reranks with embedding:bundled:all-MiniLM-L6-v2" in text
        assert "latency, default search as a user gets it (its reranker: none): p50 40 ms (p95 50), 2.0x" in text
        assert "every method ranks only the kind the answer has" in text
