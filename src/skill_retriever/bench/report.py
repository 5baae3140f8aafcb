"""report.md, report.json and the plots, rebuilt from the results folder.

Everything here reads ``<out>/results/*.json``, so the report can be rebuilt at any time
(``skill-retriever benchmark --report-only --out DIR``) and sections run separately merge.
Rows and tables are :mod:`~skill_retriever.bench.tables`; plots
:mod:`~skill_retriever.bench.plots`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skill_retriever.bench.plots import write_plots
from skill_retriever.bench.tables import HEADLINE, group_rows, pct, retrieval_rows, table
from skill_retriever.fsutil import write_atomic

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
    out.append(f"cold `query` (wall {s['cold_query_wall_ms']:.0f} ms): " + ", ".join(f"{k} {v:.0f} ms" for k, v in split.items()))
    m = s["mcp"]
    out.append(f"MCP server: connected {m['connected_s']} s, ready {m['ready_s']} s; first call "
               f"{m['first_call_ms']:.0f} ms, later calls {m['later_calls_ms_median']:.0f} ms (median)")
    if s.get("langgraph_server"):
        g = s["langgraph_server"]
        out.append(f"LangGraph server graph: imported {g['imported_s']} s, warmed {g['ready_s']} s; first run "
                   f"{g['first_call_ms']:.0f} ms, later runs {g['later_calls_ms_median']:.0f} ms (median)")
    return out


def section_text(section: dict[str, Any]) -> str:
    return "\n".join(section_lines(section, md=False))


def fit_note(fit: dict[str, Any]) -> str:
    """'nothing fits' flag counts of the default search, one group after another."""
    names = {"answerable": "answerable", "none": "no right answer", "out_of_catalogue": "out of catalogue"}
    parts = [f"{label} {fit[key]['flagged']}/{fit[key]['queries']}" for key, label in names.items() if key in fit]
    return "'nothing fits' flagged: " + ", ".join(parts)


def latency_note(lat: dict[str, Any]) -> str:
    """The default search against the dense search, as :func:`default_latency` timed them."""
    return (f"latency, default search (reranker {lat.get('reranker', '?')}): p50 {lat['default_p50_ms']:.0f} ms "
            f"(p95 {lat['default_p95_ms']:.0f}), "
            f"{lat['x_dense']}x the dense search's {lat['dense_p50_ms']:.0f} ms ({lat['queries']} queries in turn)"
            + "".join(f"; route {r} forced: p50 {f['p50_ms']:.0f} ms, {f['x_dense']}x"
                      for r, f in lat.get("forced", {}).items()))


def _retrieval_lines(s: dict[str, Any], md: bool) -> list[str]:
    b = s.get("build", {})
    head = f"{s['family']} / {s['name']}: {s['queries']} queries, {b.get('nodes')} nodes, {b.get('edges')} edges"
    out = [f"### {head}" if md else f"\n{head}"]
    notes = list(s.get("notes", [])) + [f"reranker: {s.get('reranker')}"]
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


def _incident_lines(s: dict[str, Any], md: bool) -> list[str]:
    w = s.get("world", {})
    head = (f"incidents: {s['queries']} queries over a generated DevOps world "
            f"({w.get('services')} services, {w.get('deploys')} deploys, {w.get('incidents')} incidents; seed {w.get('seed')})")
    out = [f"### {head}" if md else f"\n{head}"]
    for metric in ("R@10", "MRR"):
        out.append("")
        out.append(f"{metric} by query shape{' (each channel alone, then the fusion)' if metric == 'R@10' else ''}:")
        if md:
            out.append("")
        header, rows = group_rows(s, metric)
        header.append("all")
        for r, (name, m) in zip(rows, s["methods"].items()):
            r.append(pct(m["scores"][metric]))
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


# -- cross-set summaries ------------------------------------------------------------------
def summary_lines(sections: list[dict[str, Any]], md: bool) -> list[str]:
    out: list[str] = []
    for family in ("multihop", "skills", "toolret"):
        secs = [s for s in sections if s.get("family") == family]
        if not secs:
            continue
        metric = HEADLINE[family]
        methods: list[str] = []
        for s in secs:
            for m in s["methods"]:
                if m not in methods:
                    methods.append(m)
        header = ["method", *[s["name"] + (" (quick subset)" if subset_of(s) is not None else "") for s in secs]]
        rows = [[m, *[pct(s["methods"].get(m, {}).get("scores", {}).get(metric)) for s in secs]] for m in methods]
        best_peer = ["best peer", *[pct(max((v["scores"][metric] or 0) for v in s["methods"].values()
                                            if v["family"] == "peer")) for s in secs]]
        rows.append(best_peer)
        out.append(f"{'#### ' if md else ''}{family}: {metric}")
        if md:
            out.append("")
        out += table(header, rows, md)
        out.append("")
    return out


#: HippoRAG (ColBERTv2) single-step R@5, Table 2 of arXiv 2405.14831 (1,000-question
#: subsets; see data/multihop/PUBLISHED.md). Our 2wiki set shares its corpus; the others
#: differ in questions and corpus, so these are reference points, not like-for-like.
HIPPORAG_R5 = {"2wikimultihopqa": 89.1, "musique_hipporag_train100": 51.9, "hotpotqa": 77.7,
               "hotpotqa_hipporag_train100": 77.7}


def _best(section: dict[str, Any], metric: str, families: Sequence[str]) -> tuple[str, float]:
    found = [(n, m["scores"].get(metric) or 0.0) for n, m in section["methods"].items() if m["family"] in families]
    return max(found, key=lambda p: p[1]) if found else ("-", 0.0)


#: How far "full" should be over the best peer, per family (the issues' goals): multi-hop
#: R@5 +5; skills nDCG@10 +10; tool sets nDCG@10 and Completeness@10 +3 each (issue 14).
GOAL_OVER_BEST_PEER = {"multihop": 0.05, "skills": 0.10, "toolret": 0.03}


def subset_of(section: dict[str, Any]) -> str | None:
    """What part of its set a section measured, when the quick profile cut it (fewer
    questions; for multi-hop, a corpus of their gold passages and a few distractors, far
    easier than the whole): its figures then stand beside the same run's peers only, never
    against a goal or a published figure. None for a set measured whole."""
    if not section.get("quick"):
        return None
    said = next((n for n in section.get("notes", []) if isinstance(n, str) and n.startswith("quick: ")), None)
    return said.removeprefix("quick: ") if said else f"quick profile, {section.get('queries', '?')} queries"


def subsets_note(sections: list[dict[str, Any]]) -> list[str]:
    """The report's paragraph naming the sets the quick profile cut (none: no lines). The
    seed battery and the start-up section measure no set (start-up has no name)."""
    cut = [f"{s.get('family')}/{s.get('name')}" for s in sections
           if s.get("family") not in (None, "battery") and subset_of(s) is not None]
    if not cut:
        return []
    return [(f"Subsets ({', '.join(dict.fromkeys(cut))}): the quick profile measured part of these sets. Their "
             "figures compare the methods of this run with one another, not with the goals, full runs or "
             "published figures (run without --quick for those)."), ""]


def set_label(section: dict[str, Any]) -> str:
    """``family/name``, marked when the section measured a subset (`subset_of`)."""
    name = f"{section.get('family')}/{section.get('name')}"
    return f"{name} (quick subset)" if subset_of(section) is not None else name


def goals_lines(sections: list[dict[str, Any]], md: bool) -> list[str]:
    """Where we stand against the issue's goals (not pass/fail of the benchmark)."""
    header = ["set", "metric", "best peer", "full", "full+rerank", "best of ours", "full - best peer", "goal"]
    rows = []
    for s in sections:
        fam = s.get("family")
        if fam not in ("multihop", "skills", "toolret"):
            continue
        for metric in (("R@5",) if fam == "multihop" else ("nDCG@10", "C@10") if fam == "toolret" else ("nDCG@10",)):
            peer_name, peer = _best(s, metric, ("peer",))
            ours_name, ours = _best(s, metric, ("route", "pipeline", "ablation"))
            full = s["methods"].get("full", {}).get("scores", {}).get(metric)
            rr = s["methods"].get("full+rerank", {}).get("scores", {}).get(metric)
            delta = (full or 0.0) - peer
            target = GOAL_OVER_BEST_PEER[fam]
            subset = subset_of(s)
            if subset is not None:  # no verdict, no published figure: neither measured this
                goal = (f"not comparable: a subset ({subset}); no verdict on the goal (>= +{100 * target:.0f}) "
                        "nor against published figures; run without --quick to measure the whole set")
            else:
                goal = f">= +{100 * target:.0f}: {'met' if delta >= target - 1e-9 else 'not met'}"
                if fam == "multihop" and s["name"] in HIPPORAG_R5:
                    goal += f"; HippoRAG R@5 {HIPPORAG_R5[s['name']]} (its 1,000 questions: a reference, not like-for-like)"
            rows.append([set_label(s), metric, f"{pct(peer)} ({peer_name})", pct(full), pct(rr),
                         f"{pct(ours)} ({ours_name})", f"{100 * delta:+.1f}", goal])
    out: list[str] = []
    if rows:
        out += table(header, rows, md)
    for s in sections:
        if s.get("section") == "speed" and s.get("sizes"):
            big = s["sizes"][-1]
            dense = big["dense"]["e2e"]["p50"]
            parts = [f"{r} p50 {v['e2e']['p50']:.1f} ms ({v['e2e']['p50'] / max(dense, 1e-9):.1f}x)"
                     for r, v in big["routes"].items() if "rerank" not in r]
            out += ["", f"At {big['nodes']:,} nodes, dense search p50 {dense:.1f} ms (goal: no-rerank p50 within 2x): "
                    + "; ".join(parts)]
    return out


def write_report(out: Path) -> Path:
    """Rebuild report.md, report.json and plots/*.png from the results folder."""
    sections, run = load_results(out)
    merged = {"run": run, "sections": sections}
    write_atomic(out / "report.json", json.dumps(merged, indent=1, default=str))
    lines = ["# skill-retriever benchmark", ""]
    if run:
        m = run.get("machine", {})
        lines += [(f"Last run: `{run.get('command')}` ({'quick' if run.get('quick') else 'full'} profile), "
                   f"finished {run.get('finished_at')}, {run.get('seconds')} s."),
                  (f"Machine: {m.get('cpu')}, {m.get('cores')} cores, {m.get('ram_gb')} GB RAM, {m.get('platform')}, "
                   f"Python {m.get('python')}; load average at start {m.get('load_avg_at_start')}; {m.get('threads')}."),
                  f"Embedding model: {run.get('embedder') or 'the bundled all-MiniLM-L6-v2'}.",
                  ""]
        if run.get("skipped"):
            lines += ["Skipped: " + "; ".join(run["skipped"]), ""]
    lines += [("Numbers are percentages (MRR and nDCG scaled by 100). Each section names the command and "
               "profile that produced it."), ""]
    lines += subsets_note(sections)
    summ = summary_lines(sections, md=True)
    if summ:
        lines += ["## Summary (headline metric per set)", "", *summ]
    goals = goals_lines(sections, md=True)
    if goals:
        lines += ["## Against the goals", "", *goals, ""]
    plots = write_plots(out, sections)
    if plots:
        lines += ["## Plots", ""] + [f"![{p.stem}](plots/{p.name})" for p in plots] + [""]
    lines += ["## Sections", ""]
    for s in sections:
        lines += section_lines(s, md=True)
        code = s.get("code") or {}
        version = (f", code {code['commit']}{' + local changes' if code.get('local_changes') else ''}"
                   if code.get("commit") else "")
        lines += ["", (f"_made by `{s.get('command')}` ({'quick' if s.get('quick') else 'full'}), "
                       f"{s.get('finished_at')}, {s.get('seconds', '?')} s{version}_"), ""]
    path = out / "report.md"
    write_atomic(path, "\n".join(lines))
    return path
