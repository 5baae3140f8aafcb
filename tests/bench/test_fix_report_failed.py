"""A method that failed on every query reads FAILED / n/a everywhere in the report.

Found by a walkthrough: the section tables marked "(20 FAILED)", but the summary showed
``full | 0.0``, "Against the goals" ``full 0.0 ... full - best peer -75.7``, the plots empty
bars, and the notes ``'nothing fits' flagged: answerable 0/48`` and ``latency ... p50 0 ms
(p95 0), 0.0x``: a broken search read as a real, terrible score and a real, instant one.
The scores here come from the real `evaluate` over methods that fail or answer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench.datasets import EvalQuery
from skill_retriever.bench.evaluate import evaluate
from skill_retriever.bench.figures import latency_note
from skill_retriever.bench.latency import default_latency
from skill_retriever.bench.methods import Method, Ranked
from skill_retriever.bench.report import (
    fit_note,
    goals_lines,
    section_lines,
    summary_lines,
    write_report,
)
from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

METRICS = ("MRR", "nDCG@10", "R@10")
QUERIES = [EvalQuery(id=f"q{i}", text=f"question {i}", relevant={"a": 1}, group="g1" if i % 2 else "g2")
           for i in range(20)]


def answers(name: str, family: str, ids: list[str]) -> Method:
    return Method(name, family, lambda q: Ranked(ids, 1.0, route="smart"))


def fails(name: str, family: str, every: int = 1) -> Method:
    def run(q: EvalQuery) -> Ranked:
        if int(q.id[1:]) % every == 0:
            raise SkillRetrieverError("retrieve_seeds failed: AttributeError: no attribute 'fusion_depth'")
        return Ranked(["a"], 1.0, route="smart")

    return Method(name, family, run)


def skills_section(methods: list[Method], name: str = "tiny") -> dict[str, Any]:
    summary, _ = evaluate(QUERIES, methods, METRICS, log=lambda _: None)
    return {"section": "skills", "family": "skills", "name": name, "key": f"skills__{name}", "quick": False,
            "metrics": list(METRICS), "queries": len(QUERIES), "notes": [], "build": {"nodes": 3, "edges": 1},
            "reranker": "embedding:bundled:all-MiniLM-L6-v2", "methods": summary,
            "fit": {"answerable": {"queries": 48, "flagged": 0, "rate": None, "refused": 48}},
            "latency": {"queries": 17, "default_p50_ms": 0.0, "default_p95_ms": 0.0, "dense_p50_ms": 36.19,
                        "x_dense": 0.0, "routes": {}, "reranker": "none",
                        "forced": {"smart": {"p50_ms": 0.0, "x_dense": 0.0}}},
            "command": "skill-retriever benchmark --only skills", "finished_at": "2026-12-05T10:24:29+00:00",
            "seconds": 26.7}


def broken() -> dict[str, Any]:
    """Peers answer; "full" and "full+rerank" fail on every query; one ablation answers,
    one fails on a few queries only."""
    return skills_section([
        answers("BM25", "peer", ["b", "a"]), answers("dense", "peer", ["a"]),
        fails("full", "pipeline"), fails("full+rerank", "pipeline"),
        answers("full, no feedback", "ablation", ["a"]), fails("full -graph", "ablation", every=10),
    ])


def row(lines: list[str], first: str) -> str:
    return next(line for line in lines if line.startswith(f"| {first} |"))


def test_the_summary_reads_failed_and_the_best_peer_leaves_failed_peers_out() -> None:
    lines = summary_lines([broken()], md=True)
    assert row(lines, "full") == "| full | FAILED |"
    assert row(lines, "full+rerank") == "| full+rerank | FAILED |"
    assert row(lines, "best peer") == "| best peer | 100.0 |"
    assert row(lines, "full -graph") == "| full -graph | 90.0 |"  # failed on 2 of 20: a real, lower score


def test_against_the_goals_a_failed_full_gets_no_gap_and_no_verdict() -> None:
    goal = row(goals_lines([broken()], md=True), "skills/tiny")
    cells = [c.strip() for c in goal.strip("|").split("|")]
    assert cells[2:] == ["100.0 (dense)", "FAILED", "FAILED", "100.0 (full, no feedback)", "n/a",
                         "no verdict: 'full' failed on every query (see its section)"]
    assert "| 0.0 |" not in goal and "met" not in goal


def test_a_set_whose_peers_all_failed_has_no_best_peer() -> None:
    s = skills_section([fails("BM25", "peer"), answers("full", "pipeline", ["a"])])
    assert row(summary_lines([s], md=True), "best peer") == "| best peer | n/a |"
    goal = row(goals_lines([s], md=True), "skills/tiny")
    assert "| n/a | 100.0 |" in goal and "no verdict: every peer failed" in goal


def test_the_section_tables_and_notes_read_failed_not_zero() -> None:
    text = "\n".join(section_lines(broken(), md=True))
    assert row(text.splitlines(), "full") == "| full | FAILED | FAILED | FAILED | n/a | FAILED on all 20 queries |"
    assert "| full -graph | 90.0 | 90.0 | 90.0 | 1 | smart 18 (2 FAILED) |" in text
    assert row(text.splitlines()[text.splitlines().index("nDCG@10 by query group:"):], "full") == (
        "| full | FAILED | FAILED |")
    assert "'nothing fits' flagged: answerable n/a (the default search FAILED on all 48)" in text
    assert "p50 0 ms" not in text and "0.0x" not in text
    assert "n/a (FAILED: it refused every query timed); the dense search's 36 ms" in text
    assert "route smart forced: n/a (FAILED on every query)" in text


def test_the_nothing_fits_note_counts_only_the_queries_judged() -> None:
    note = fit_note({"answerable": {"queries": 48, "flagged": 1, "rate": 0.0217, "refused": 2},
                     "out_of_catalogue": {"queries": 300, "flagged": 0, "rate": None}})
    assert note == ("'nothing fits' flagged: answerable 1/46 (2 refused), "
                    "out of catalogue n/a (the index is not calibrated)")


def test_a_search_that_refuses_every_query_times_nothing(tmp_path: Path) -> None:
    """The real latency timing over a real index: blank queries are refused."""
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.upsert(tiny_nodes(), tiny_edges())
    lat = default_latency(index, Retriever(index, cache_size=0), ["   "] * 10, None, n=5, forced_routes=["smart"])
    index.close()
    assert lat["default_timed"] == 0 and lat["default_refused"] == 8
    assert lat["default_p50_ms"] is None and lat["x_dense"] is None and lat["dense_p50_ms"] > 0
    assert lat["forced"]["smart"]["p50_ms"] is None and lat["forced"]["smart"]["timed"] == 0
    note = latency_note(lat)
    assert "n/a (FAILED: it refused every query timed)" in note and "route smart forced: n/a" in note


def test_the_written_report_names_the_failed_methods_and_plots_them_as_failed(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "skills__tiny.json").write_text(json.dumps(broken()))
    incidents = {**skills_section([answers("BM25", "peer", ["a"]), fails("fusion", "pipeline")]),
                 "section": "incidents", "family": "incidents", "name": "world", "key": "incidents"}
    (results / "incidents.json").write_text(json.dumps(incidents))
    md = write_report(tmp_path).read_text()
    assert "FAILED (incidents/world: 'fusion'; skills/tiny: 'full', 'full+rerank'): each failed on every query" in md
    assert "| full | FAILED |" in md and "| fusion | FAILED | FAILED | FAILED |" in md
    assert "| full | 0.0" not in md and "-75.7" not in md
    assert (tmp_path / "plots" / "skills.png").is_file() and (tmp_path / "plots" / "incidents.png").is_file()
