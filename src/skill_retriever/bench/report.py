"""report.md, report.json and the plots, rebuilt from the results folder.

Everything here reads ``<out>/results/*.json``, so the report can be rebuilt at any time
(``skill-retriever benchmark --report-only --out DIR``) and sections run separately merge.
Rows and tables are :mod:`~skill_retriever.bench.tables`, the cross-set summary and
goals :mod:`~skill_retriever.bench.summary`, how one figure reads (FAILED, n/a)
:mod:`~skill_retriever.bench.figures`; plots :mod:`~skill_retriever.bench.plots`; the
report's header (the last run, stopped or not, and what earlier runs left)
:mod:`~skill_retriever.bench.report_header`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skill_retriever.bench.data_failures import failures_lines
from skill_retriever.bench.figures import fit_note, latency_note, made_by, score_cell
from skill_retriever.bench.plots import write_plots
from skill_retriever.bench.report_header import failed_note, header_lines, section_name
from skill_retriever.bench.row_legend import METRICS, README_SOURCE, legend_lines
from skill_retriever.bench.summary import (
    goal_rows,
    goals_lines,
    subset_of,
    subsets_note,
    summary_lines,
)
from skill_retriever.bench.tables import group_rows, retrieval_rows, table
from skill_retriever.fsutil import write_atomic

# Where the tests and the sections have always found them (now in figures and summary).
__all__ = ["FAMILY_ORDER", "fit_note", "goals_lines", "latency_note", "load_results", "load_run", "section_lines",
           "section_text", "subset_of", "subsets_note", "summary_lines", "write_report"]

#: Sections in report order.
FAMILY_ORDER = ("battery", "incidents", "multihop", "skills", "toolret", "speed", "startup", "scale")


def load_results(out: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The section results in report order, and ``_run.json`` (empty when missing); a
    file that is not a JSON object (a run stopped mid-write, an edit) is left out."""
    folder = out / "results"
    sections: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        if path.name.endswith(".queries.json") or path.name.startswith("_"):
            continue
        if (section := _read_object(path)) is not None:
            sections.append(section)
    run = load_run(out) or {}
    order = {f: i for i, f in enumerate(FAMILY_ORDER)}
    sections.sort(key=lambda s: (order.get(s.get("family", s.get("section", "")), 99), s.get("name", "")))
    return sections, run


def load_run(out: Path) -> dict[str, Any] | None:
    """``<out>/results/_run.json``: empty when missing, None when damaged (the next run
    rewrites it)."""
    path = out / "results" / "_run.json"
    return _read_object(path) if path.is_file() else {}


def _read_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``; None when it cannot be read or is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def section_lines(section: dict[str, Any], md: bool) -> list[str]:
    kind = section.get("section", section.get("family"))
    if kind in ("multihop", "skills", "toolret"):
        return _retrieval_lines(section, md)
    if kind == "incidents":
        return _incident_lines(section, md)
    if kind == "battery":
        return _battery_lines(section, md)
    if kind in ("speed", "scale"):
        return _speed_lines(section, md)
    if kind == "startup":
        return _startup_lines(section, md)
    return []


def _startup_lines(s: dict[str, Any], md: bool) -> list[str]:
    out = ["### startup" if md else "\nstartup"]
    rows = [[name, f"{ms:.0f}", f"{s['commands_over_python'][name]:.1f}x"] for name, ms in s["commands_ms"].items()]
    rows.insert(0, ["python -c pass", f"{s['python_c_pass_ms']:.0f}", "1.0x"])
    out += table(["command", "ms (median)", "x python -c pass"], rows, md)
    split = s["cold_query_split_ms"]
    out.append("")
    item = "- " if md else ""  # Markdown runs lines with no blank between them into one paragraph
    out.append(f"{item}cold `query` (wall {s['cold_query_wall_ms']:.0f} ms): "
               + ", ".join(f"{k} {v:.0f} ms" for k, v in split.items()))
    m = s["mcp"]
    out.append(f"{item}MCP server: connected {m['connected_s']} s, ready {m['ready_s']} s; first call "
               f"{m['first_call_ms']:.0f} ms, later calls {m['later_calls_ms_median']:.0f} ms (median)")
    if s.get("langgraph_server"):
        g = s["langgraph_server"]
        out.append(f"{item}LangGraph server graph: imported {g['imported_s']} s, warmed {g['ready_s']} s; first run "
                   f"{g['first_call_ms']:.0f} ms, later runs {g['later_calls_ms_median']:.0f} ms (median)")
    return out


def section_text(section: dict[str, Any]) -> str:
    return "\n".join(section_lines(section, md=False))


def _retrieval_lines(s: dict[str, Any], md: bool) -> list[str]:
    b = s.get("build", {})
    head = f"{s['family']} / {s['name']}: {s['queries']} queries, {b.get('nodes')} nodes, {b.get('edges')} edges"
    out = [f"### {head}" if md else f"\n{head}"]
    notes = list(s.get("notes", [])) + [reranker_note(s)]
    if b.get("index_s"):
        notes.append(f"index built in {b['index_s']:.0f} s ({b.get('items_per_s') or 0:.0f} items/s)"
                     + (" (reused from cache this run)" if b.get("reused") else ""))
    if s.get("fit"):
        notes.append(fit_note(s["fit"]))
    if s.get("latency"):
        notes.append(latency_note(s["latency"]))
    notes.append("ms/q (memo): query embeddings memoised across methods; not a latency")
    out += [f"- {n}" for n in notes] if md else [f"  ({'; '.join(notes)})"]
    if md:
        out.append("")
    header, rows = retrieval_rows(s)
    out += table(header, rows, md)
    groups = {g for m in s["methods"].values() for g in m["by_group"]}
    if len(groups) > 1:
        metric = {"skills": "nDCG@10", "toolret": "nDCG@10"}.get(s["family"], s["metrics"][0])
        out.append("")
        out.append(f"{metric} by query group:" if not md else f"{metric} by query group:\n")
        header, rows = group_rows(s, metric)
        out += table(header, rows, md)
    return out


def reranker_note(s: dict[str, Any]) -> str:
    """Which rows rerank, and with what: the bench's reranker serves the "+rerank" rows
    only; every other row ranks without one, and the latency line's default search uses
    its own (named there)."""
    reranked = [f"'{name}'" for name in s.get("methods", {}) if name.endswith("+rerank")]
    if not reranked:
        return "no row reranks"
    return (f"{', '.join(reranked)} rerank{'s' if len(reranked) == 1 else ''} with {s.get('reranker')}; "
            "every other row ranks without a reranker")


def _incident_lines(s: dict[str, Any], md: bool) -> list[str]:
    w = s.get("world", {})
    head = (f"incidents: {s['queries']} queries over a generated DevOps world "
            f"({w.get('services')} services, {w.get('deploys')} deploys, {w.get('incidents')} incidents; seed {w.get('seed')})")
    out = [f"### {head}" if md else f"\n{head}"]
    # which kinds each row ranks (the rows differ there), the "+rerank" row's reranker and
    # the default search's latency, as a retrieval section says them: both were measured
    # and recorded here, and shown nowhere but the JSON
    notes = [*s.get("notes", []), reranker_note(s)]
    if s.get("latency"):
        notes.append(latency_note(s["latency"]))
    out += ([""] + [f"- {n}" for n in notes]) if md else [f"  ({'; '.join(notes)})"]
    for metric in ("R@10", "MRR"):
        out.append("")
        out.append(f"{metric} by query shape{' (each channel alone, then the fusion)' if metric == 'R@10' else ''}:")
        if md:
            out.append("")
        header, rows = group_rows(s, metric)
        header.append("all")
        for r, name in zip(rows, s["methods"]):
            r.append(score_cell(s, name, metric))
        out += table(header, rows, md)
    return out


def _battery_lines(s: dict[str, Any], md: bool) -> list[str]:
    head = f"seed battery: {s['passed']} PASS, {s['failed']} FAIL"
    out = [f"### {head}" if md else f"\n{head}"]
    if md:
        out.append("")
        out.append("```")
    out += [f"{'PASS' if c['ok'] else 'FAIL'}  {c['name']}: {c['detail']}" for c in s["checks"]]
    if md:
        out.append("```")
    return out


def _speed_lines(s: dict[str, Any], md: bool) -> list[str]:
    title = "speed and scale" if s.get("section") == "speed" else "a million edges"
    out = [f"### {title} ({s.get('source', '')})" if md else f"\n{title} ({s.get('source', '')})"]
    for note in s.get("notes", []):
        out.append(f"- {note}" if md else f"  ({note})")
    if md:
        out.append("")
    header = ["nodes", "edges", "route", "queries", "e2e p50 ms", "e2e p95 ms", "dense p50 ms", "ratio p50/dense",
              "slowest phases (p50 ms)"]
    rows = []
    for size in s.get("sizes", []):
        for route, r in size["routes"].items():
            phases = sorted(r["phases"].items(), key=lambda p: -p[1]["p50"])[:3]
            rows.append([
                f"{size['nodes']:,}", f"{size['edges']:,}", route, str(r["queries"]), f"{r['e2e']['p50']:.1f}",
                f"{r['e2e']['p95']:.1f}", f"{size['dense']['e2e']['p50']:.1f}",
                f"{r['e2e']['p50'] / max(size['dense']['e2e']['p50'], 1e-9):.1f}x",
                ", ".join(f"{p} {v['p50']:.1f}" for p, v in phases),
            ])
    out += table(header, rows, md)
    out.append("")
    header = ["nodes", "index items/s", "vectors", "RSS MB", "peak RSS MB", "our PPR ms", "networkx ms", "nx / ours"]
    rows = []
    for size in s.get("sizes", []):
        b, p = size["build"], size["ppr"]
        rows.append([f"{size['nodes']:,}", f"{b['items_per_s']:.0f}", b["vectors"], f"{size['rss_mb']:.0f}",
                     f"{size['peak_rss_mb']:.0f}", f"{p['ours_ms']:.2f}", f"{p['networkx_ms']:.0f}",
                     f"{p['ratio']:.0f}x"])
    out += table(header, rows, md)
    phase_header = ["nodes", "route", *s.get("phase_order", [])]
    if s.get("phase_order"):
        out.append("")
        out.append("per-phase p50 / p95 ms:" + ("\n" if md else ""))
        prow = []
        for size in s.get("sizes", []):
            for route, r in size["routes"].items():
                prow.append([f"{size['nodes']:,}", route, *[
                    f"{r['phases'][p]['p50']:.1f} / {r['phases'][p]['p95']:.1f}" if p in r["phases"] else "-"
                    for p in s["phase_order"]]])
        out += table(phase_header, prow, md)
    return out


def write_report(out: Path, only: tuple[str, ...] | None = None) -> Path:
    """Rebuild report.md, report.json and plots/*.png from the results folder; with
    ``only`` (``--report-only --only``), of those sections alone, and the report says so."""
    sections, run = load_results(out)
    if only is not None:
        sections = [s for s in sections if (s.get("section") or s.get("family")) in only]
    reused = {r.get("set"): r for r in run.get("reused") or []}
    # each result the last run reused names the run that measured it (report.json)
    sections = [{**s, "reused_from": {k: reused[n][k] for k in ("run_started_at", "finished_at")}}
                if (n := section_name(s)) in reused else s for s in sections]
    # the verdicts against the goals, as report.md words them (a tiny sample's included)
    merged = {"run": run, "sections": sections, "goals": goal_rows(sections),
              **({"only": list(only)} if only is not None else {})}
    write_atomic(out / "report.json", json.dumps(merged, indent=1, default=str))
    lines = ["# skill-retriever benchmark", "", *header_lines(run, sections)]
    if only is not None:
        lines += [(f"Filtered: the sections {', '.join(only)} only (`--report-only --only {','.join(only)}`); "
                   "`--report-only` without `--only` rebuilds the whole report."), ""]
    lines += [("Numbers are percentages (MRR and nDCG scaled by 100). Each section names the command and "
               "profile that produced it."), METRICS, README_SOURCE, ""]
    lines += failed_note(sections) + subsets_note(sections)
    summ = summary_lines(sections, md=True)
    if summ:
        lines += ["## Summary (headline metric per set)", "", *summ]
    goals = goals_lines(sections, md=True)
    if goals:
        lines += ["## Against the goals", "", *goals, ""]
    plots = write_plots(out, sections)
    if plots:
        lines += ["## Plots", ""] + [f"![{p.stem}](plots/{p.name})" for p in plots] + [""]
    if legend := legend_lines(sections):
        lines += ["## What the rows mean", "", *legend, ""]
    lines += ["## Sections", ""]
    for s in sections:
        lines += [*section_lines(s, md=True), "", made_by(s), ""]
    lines += failures_lines(run)
    path = out / "report.md"
    write_atomic(path, "\n".join(lines))
    return path
