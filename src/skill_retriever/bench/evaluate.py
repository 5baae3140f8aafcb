"""Run methods over a dataset's queries and average the metrics, overall and per group."""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from skill_retriever.bench import metrics as M
from skill_retriever.bench.datasets import EvalQuery
from skill_retriever.bench.methods import Method, Ranked
from skill_retriever.exceptions import SkillRetrieverError

_METRIC_RE = re.compile(r"^(R|nDCG|C)@(\d+)$")


def score(metric: str, ranked: Sequence[str], relevant: M.Judgments) -> float | None:
    """One metric by its table name: ``R@k``, ``nDCG@k``, ``C@k`` or ``MRR``."""
    if metric == "MRR":
        return M.mrr(ranked, relevant)
    m = _METRIC_RE.match(metric)
    if not m:
        raise ValueError(f"unknown metric {metric!r}")
    k = int(m.group(2))
    fn = {"R": M.recall_at_k, "nDCG": M.ndcg_at_k, "C": M.completeness_at_k}[m.group(1)]
    return fn(ranked, relevant, k)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def evaluate(
    queries: Sequence[EvalQuery],
    methods: Sequence[Method],
    metric_names: Sequence[str],
    log: Callable[[str], None] = print,
    fold: Callable[[Sequence[str]], list[str]] | None = None,
) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Every method on every query; ``fold`` (`Dataset.fold`), when given, maps each
    ranking to the ids judged before it is scored (and cut at any k).

    Returns:
        ``(summary, per_query)``: summary[method] = scores, per-group scores, latency
        and route counts; per_query[method] = ``[query id, top ids, route]`` rows.
    """
    summary: dict[str, Any] = {}
    per_query: dict[str, list[Any]] = {}
    for method in methods:
        started = time.perf_counter()
        values: dict[str, list[float | None]] = {m: [] for m in metric_names}
        groups: dict[str, dict[str, list[float | None]]] = {}
        ms: list[float] = []
        routes: Counter[str] = Counter()
        degraded = 0
        failed: list[dict[str, str]] = []
        rows: list[Any] = []
        for q in queries:
            try:
                ranked = method.run(q)
            except SkillRetrieverError as exc:
                # A query the method refuses (too long, empty, ...) is a failure of that
                # method on that query: it scores 0, is counted and listed, and the run goes on.
                failed.append({"query": q.id, "error": f"{type(exc).__name__}: {exc}"[:300]})
                ranked = Ranked([], 0.0)
            else:
                ms.append(ranked.ms)  # a refused query took no search time worth counting
            if fold is not None:
                ranked = replace(ranked, ids=fold(ranked.ids))
            if ranked.route:
                routes[ranked.route] += 1
            degraded += bool(ranked.extra.get("failed_phases"))
            rows.append([q.id, ranked.ids, ranked.route])
            g = groups.setdefault(q.group or "all", {m: [] for m in metric_names})
            for m in metric_names:
                v = score(m, ranked.ids, q.relevant)
                values[m].append(v)
                g[m].append(v)
        summary[method.name] = {
            "family": method.family,
            "description": method.description,
            "scores": {m: M.mean(v) for m, v in values.items()},
            "by_group": {
                name: {**{m: M.mean(v) for m, v in g.items()}, "n": len(next(iter(g.values()), []))}
                for name, g in sorted(groups.items())
            },
            "judged": sum(1 for q in queries if q.relevant),
            "ms_mean": round(statistics.fmean(ms), 2) if ms else None,
            "ms_p50": round(_pct(ms, 0.5), 2),
            "ms_p95": round(_pct(ms, 0.95), 2),
            "routes": dict(routes),
            "degraded": degraded,
            "failed": len(failed),
            "failures": failed[:20],
        }
        per_query[method.name] = rows
        shown = "  ".join(f"{m} {_fmt(summary[method.name]['scores'][m])}" for m in metric_names)
        # Both named: the table printed next shows the p50 only ("ms/q p50 (memo)").
        log(f"    {method.name:<16} {shown}   (mean {statistics.fmean(ms) if ms else 0:.0f} ms/query (memo), "
            f"p50 {summary[method.name]['ms_p50']:.0f}, {time.perf_counter() - started:.0f} s)"
            + (f"  WARNING: {degraded} queries had a failed (degraded) phase" if degraded else "")
            + (f"  FAILED on {len(failed)} queries (first: {failed[0]['error'][:120]})" if failed else ""))
    return summary, per_query


def _fmt(v: float | None) -> str:
    return "  -  " if v is None else f"{100 * v:5.1f}"


def broken_methods(summary: dict[str, Any], queries: int) -> list[str]:
    """The methods of ours (every family but peers) that failed on every one of
    ``queries``: a method that errs on all of them is broken, and scoring it 0 would only
    hide that. A query one method refuses (one too long, say) is a counted failure of that
    query, and the run goes on."""
    return [name for name, m in summary.items()
            if queries and m.get("family") != "peer" and m.get("failed", 0) >= queries]
