"""The lines ``stats`` (and ``calibrate``) print about how a default search is set up: the
stored calibration, and the route a default search takes with the reason.

Two sources of the index's own can name a route: the calibration (``calibration.model``;
none learns one today) and the defaults the index suggests for itself
(``calibration.defaults``, as ``default_route``). A search reads the caller's ``route``,
then the calibration's, then a typed hop's (ppr), then ``default_route``, then the query's
complexity (``route_why``): `route_line` says which of them decides a search that names no
route, so the calibration and defaults lines never read as two answers. Each response
says which decided it (``stats["plan_query"]["route_by"]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.advice import command
from skill_retriever.calibration.language import catalogue_note
from skill_retriever.stores.run_marks import run_state

__all__ = ["calibration_line", "no_calibration", "route_line", "stats_json"]


def calibration_line(summary: Mapping[str, Any], advice: str = "", bundled: bool = True) -> str:
    """The stored calibration in one line (``Calibration.summary``); one drawn before the
    index's last write says so, with ``advice`` (what draws it again, `redraw_advice`): a
    command stopped between its write and its calibration (`remove-source` killed) left
    only "(computed 1 write ago)", which said nothing of what to do. A catalogue that does
    not read as English is said so (``bundled``: the index embeds with the bundled model)."""
    weights = ", ".join(f"{c} x{w:g}" for c, w in sorted(summary["channel_weights"].items())) or "all channels x1"
    route = f"route {summary['route']}" if summary["route"] else "no route learned"
    fits = summary["nothing_fits_below"]  # None: calibrated while the index held no items
    fit = (f"nothing fits below a best match of {fits}" if fits is not None else
           "no 'nothing fits' threshold yet (the index held no items when calibrated; indexing some learns it)")
    if answered := summary.get("nothing_fits_probes_answered"):  # absent in summaries made before it existed
        fit += f", {answered} probe{'' if answered == 1 else 's'} the catalogue answers left out"
    writes = summary["stale_by"]
    now = f", not on the items as they are now: {advice}" if advice else ""
    stale = f" (computed {writes} write{'' if writes == 1 else 's'} ago{now})" if writes else ""
    # stored with the calibration, or measured when read for one drawn before (`calibration.stored`)
    language = catalogue_note(summary.get("english_share"), bundled)
    return f"weights {weights}; {route}; {fit}{stale}" + (f"; {language}" if language else "")


def no_calibration(status: Mapping[str, Any]) -> str:
    """What ``stats`` says of an index not calibrated yet. An index run calibrates the
    index when it ends: one under way will (and holds the lock `calibrate` would need); one
    that stopped did not get there, and only running it again completes the rest it left
    (its facts, its removals), so that is the advice, not `calibrate`."""
    marks = status.get("unfinished_runs", {})
    if any(run_state(mark) == "running" for mark in marks.values()):
        return "none yet (the index run under way calibrates it when it ends)"
    if marks:
        return ("none, because an index run did not finish (a run calibrates the index when it ends): run the "
                "same `index` command again to complete it (the warning below names the run)")
    return f"none (run `{command(['calibrate'], status['path'])}`)"


def route_line(calibration: Mapping[str, Any] | None, settings: Mapping[str, Any]) -> str:
    """The route a search that names none (no ``route=``, no ``--route``) takes on this
    index, and what decides it (``settings``: what the index's defaults suggest,
    ``IndexDefaults.settings``)."""
    if learned := (calibration or {}).get("route"):
        return f"{learned} for every query, learned by the calibration"
    chosen = settings.get("default_route")
    if chosen and chosen != "by-complexity":
        hop = "" if chosen == "ppr" else "a typed hop such as 'what X depends on': ppr; "
        # "smart" reads as the graph route; where the index leaves its ranking out, it is not
        unranked = (", its ranking left out of the fusion (multifactor_ranking=False), no graph channel joins its "
                    "answers") if chosen == "smart" and settings.get("multifactor_ranking") is False else ""
        return (f"{chosen} for every query, set by the index's defaults above{unranked} ({hop}a query's own --route "
                "goes first)")
    return "by each query's complexity (simple: quick, medium: smart, complex or a typed hop: ppr), the built-in router"


def stats_json(status: Mapping[str, Any]) -> dict[str, Any]:
    """What ``stats --json`` prints: ``status`` with ``unfinished_runs`` always present
    (``{}`` when every index run finished), so a program reads one shape and need not
    tell "no key" from "no unfinished run". ``Index.status()`` itself leaves the key out
    when it is empty (its Python callers test for it)."""
    return {**status, "unfinished_runs": dict(status.get("unfinished_runs", {}))}
