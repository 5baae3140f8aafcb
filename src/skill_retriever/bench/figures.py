"""How one figure of the report reads: a number, or ``FAILED`` / ``n/a`` where nothing
was measured.

A method that failed on every query of a set scores 0 in its result file (`evaluate`
counts a refused query as a miss), and a search that refused every query times nothing
(p50 0 ms). Printed as numbers those read as a real, terrible score and a real, excellent
latency; every table, note and plot of the report reads them through here instead.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FAILED", "NA", "failed_all", "fit_note", "latency_note", "made_by", "pct", "score", "score_cell"]

#: What a failed method's figures read.
FAILED = "FAILED"
#: What a figure reads that nothing measured (a best peer when every peer failed).
NA = "n/a"


def pct(v: float | None, digits: int = 1) -> str:
    """A score as a percentage; ``-`` for one not defined (no judged query, say)."""
    return "-" if v is None else f"{100 * v:.{digits}f}"


def failed_all(section: dict[str, Any], name: str) -> bool:
    """Whether method ``name`` of ``section`` failed on every one of the set's queries."""
    m = section.get("methods", {}).get(name, {})
    queries = section.get("queries") or m.get("judged") or 0
    return bool(queries) and m.get("failed", 0) >= queries


def score(section: dict[str, Any], name: str, metric: str) -> float | None:
    """The method's score; None when it is missing, not defined, or the method failed."""
    if failed_all(section, name):
        return None
    value = section.get("methods", {}).get(name, {}).get("scores", {}).get(metric)
    return float(value) if value is not None else None


def score_cell(section: dict[str, Any], name: str, metric: str, group: str | None = None) -> str:
    """A table cell: the score as a percentage, ``FAILED``, or ``-`` (no such method or
    metric); with ``group``, the score of that query group."""
    m = section.get("methods", {}).get(name)
    if m is None:
        return "-"
    if failed_all(section, name):
        return FAILED
    if group is not None:
        return pct(m.get("by_group", {}).get(group, {}).get(metric))
    return pct(m.get("scores", {}).get(metric))


def fit_note(fit: dict[str, Any]) -> str:
    """'nothing fits' flag counts of the default search, one group after another; a group
    whose queries the search refused (it failed) or could not judge (no calibration) says
    so instead of a count out of queries it never flagged."""
    names = {"answerable": "answerable", "none": "no right answer", "out_of_catalogue": "out of catalogue"}
    parts = [f"{label} {_fit_count(fit[key])}" + (_first_right(fit[key]) if key == "answerable" else "")
             for key, label in names.items() if key in fit]
    unread = (f" (out-of-catalogue questions of a file that could not be read left out: {'; '.join(fit['unread'])})"
              if fit.get("unread") else "")
    return "'nothing fits' flagged: " + ", ".join(parts) + unread


def _first_right(group: dict[str, Any]) -> str:
    """' (first result right: 19 of 86 flagged, 266 of 414 not)', where some answerable
    queries were flagged (results written before these counts were kept: '')."""
    flagged, refused = group["flagged"], group.get("refused", 0)
    if "first_right_flagged" not in group or group.get("rate") is None or not flagged:
        return ""
    return (f" (first result right: {group['first_right_flagged']} of {flagged} flagged, "
            f"{group['first_right_unflagged']} of {group['queries'] - refused - flagged} not)")


def _fit_count(group: dict[str, Any]) -> str:
    queries, refused = group["queries"], group.get("refused", 0)
    if refused >= queries:
        return f"{NA} (the default search {FAILED} on all {queries})"
    if group.get("rate") is None:
        return f"{NA} (the index is not calibrated)"
    return f"{group['flagged']}/{queries - refused}" + (f" ({refused} refused)" if refused else "")


def _default_timed(lat: dict[str, Any]) -> bool:
    """Whether the default search timed any query. Results written before the count was
    kept say it through the routes it chose (none when it refused every query)."""
    return bool(lat["default_timed"]) if "default_timed" in lat else bool(lat.get("routes"))


def _forced_timed(forced: dict[str, Any]) -> bool:
    """Whether a forced route timed any query (older results: a p50 of exactly 0 ms)."""
    return bool(forced["timed"]) if "timed" in forced else forced["p50_ms"] > 0


def latency_note(lat: dict[str, Any]) -> str:
    """The default search against the dense search, as :func:`default_latency` timed them.

    The default search is ``Retriever(index)`` as a user gets it, with its own reranker
    (a cross-encoder only when one loads offline, else none): not the bench rows'.
    """
    head = f"latency, default search as a user gets it (its reranker: {lat.get('reranker', '?')}): "
    if not lat["queries"]:  # no query past the warm-up: nothing was timed, and nothing failed
        warm = f"the first {lat['warmup']} queries" if lat.get("warmup") else "the first queries"
        return (head + f"not timed: {warm} warm the searches up untimed and this set has no more "
                "(give it more queries to time it)")
    dense = f"the dense search's {lat['dense_p50_ms']:.0f} ms ({lat['queries']} queries in turn)"
    if _default_timed(lat):
        text = (head + f"p50 {lat['default_p50_ms']:.0f} ms (p95 {lat['default_p95_ms']:.0f}), "
                f"{lat['x_dense']}x " + dense)
    else:
        text = head + f"{NA} ({FAILED}: it refused every query timed); " + dense
    for route, f in lat.get("forced", {}).items():
        text += (f"; route {route} forced: p50 {f['p50_ms']:.0f} ms, {f['x_dense']}x" if _forced_timed(f)
                 else f"; route {route} forced: {NA} ({FAILED} on every query)")
    return text


#: The sections that read the data folder when the run has one: those that need it
#: (`bench.sections`: needs_data), and speed, whose base graph is a multi-hop set there.
DATA_SECTIONS = ("skills", "toolret", "multihop", "speed")


def made_by(section: dict[str, Any]) -> str:
    """The line under a section that names the run that made it (its command, profile,
    data folder for a set, time, duration when recorded, and code version)."""
    code = section.get("code") or {}
    version = (f", code {code['commit']}{' + local changes' if code.get('local_changes') else ''}"
               if code.get("commit") else "")
    took = f", {section['seconds']} s" if section.get("seconds") is not None else ""
    # The sets' folder: the command names it only when --data was typed.
    data = f"data {section['data']}, " if section.get("data") and section.get("section") in DATA_SECTIONS else ""
    return (f"_made by `{section.get('command')}` ({'quick' if section.get('quick') else 'full'}), "
            f"{data}{section.get('finished_at')}{took}{version}_")
