"""Rows and tables (plain text or markdown) built from result dicts; used by the report
and the plots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skill_retriever.bench.figures import NA, failed_all, pct, score_cell

__all__ = ["HEADLINE", "group_rows", "pct", "retrieval_rows", "table"]

#: The metric a family's summary table and bar chart show.
HEADLINE = {"multihop": "R@5", "skills": "nDCG@10", "toolret": "nDCG@10", "incidents": "R@10"}


def table(header: Sequence[str], rows: Sequence[Sequence[str]], md: bool) -> list[str]:
    if md:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
        return out
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]

    def line(r: Sequence[str]) -> str:
        return "  ".join(str(x).ljust(w) if i == 0 else str(x).rjust(w) for i, (x, w) in enumerate(zip(r, widths)))

    return [line(header), line(["-" * w for w in widths]), *[line(r) for r in rows]]


def retrieval_rows(section: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    metrics = section["metrics"]
    header = ["method", *metrics, "ms/q p50 (memo)", "routes"]
    rows = []
    for name, m in section["methods"].items():
        routes = ", ".join(f"{r} {n}" for r, n in sorted(m.get("routes", {}).items(), key=lambda p: -p[1]))
        if m.get("degraded"):
            routes += f" ({m['degraded']} degraded!)"
        if m.get("failed"):
            routes += (f" FAILED on all {m['failed']} queries" if failed_all(section, name)
                       else f" ({m['failed']} FAILED)")
        routes = routes.strip()
        ms = NA if failed_all(section, name) else f"{m['ms_p50']:.0f}"  # a refused query took no time
        rows.append([name, *[score_cell(section, name, x) for x in metrics], ms, routes])
    return header, rows


def group_rows(section: dict[str, Any], metric: str) -> tuple[list[str], list[list[str]]]:
    groups: list[str] = []
    for m in section["methods"].values():
        for g in m["by_group"]:
            if g not in groups:
                groups.append(g)
    counts = {g: next(iter(section["methods"].values()))["by_group"].get(g, {}).get("n", 0) for g in groups}
    header = ["method", *[f"{g} ({counts[g]})" for g in groups]]
    rows = [[name, *[score_cell(section, name, metric, group=g) for g in groups]] for name in section["methods"]]
    return header, rows
