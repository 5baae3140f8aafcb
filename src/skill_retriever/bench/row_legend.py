"""What the rows of report.md mean, and where the README's figures come from.

Each method's results carry a ``description``; the tables show only its name ("only graph",
"fusion, no kinds filter"), so a reader comparing libraries could not tell what a row ran
without opening the JSON.
"""

from __future__ import annotations

from typing import Any

__all__ = ["METRICS", "README_SOURCE", "legend_lines"]

#: Where the README's Results come from, so a reader does not take a --quick table for them.
README_SOURCE = ("The README's Results quote full runs (no --quick) at the commits and commands they name; "
                 "their JSON is in docs/bench/ of the repository. A run on another machine or commit, or "
                 "with --quick, --max-queries or --embedder, is not expected to give the same figures.")

#: What each metric column measures (`bench.metrics`): C@10 is the project's own.
METRICS = ("Metrics, per query then averaged over the queries (a query with no relevant item is left out): "
           "R@k: the share of its relevant items in the top k; MRR: 1 / the rank of its first relevant item "
           "(0 when none is in the list, cut at 10); nDCG@10: graded, linear gain, against the ideal order of "
           "its judged items; C@10 (Completeness@10): 1 when every relevant item is in the top 10, else 0.")


def legend_lines(sections: list[dict[str, Any]]) -> list[str]:
    """One markdown bullet per row name of the retrieval and incident tables, in first-seen
    order, with what it ran; a name whose description differs between sets lists each."""
    seen: dict[str, list[str]] = {}
    for s in sections:
        methods = s.get("methods")
        if not isinstance(methods, dict):  # battery, speed, startup: no method rows
            continue
        for name, m in methods.items():
            what = str(m.get("description") or "") if isinstance(m, dict) else ""
            kept = seen.setdefault(name, [])
            if what and what not in kept:
                kept.append(what)
    return [f"- **{name}**: {' / '.join(whats) or 'no description recorded'}" for name, whats in seen.items()]
