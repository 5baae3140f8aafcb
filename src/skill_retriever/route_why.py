"""Which route a query takes, and why, in words each response carries.

Five sources can name a route; the first that does wins (``phases.plan_query``):

1. the caller: ``route=`` (``search``), ``--route`` (``query``), a profile's ``route``
   (``config_for("multihop")``). Only a caller sets ``RetrievalConfig.route``: the
   index's own defaults (``calibration.defaults``) set ``default_route``, so a forced
   route never reads as one the index chose;
2. the route the stored calibration learned (none learns one today);
3. a typed hop ("what X depends on"): the ppr route, which walks from its far end;
4. ``default_route`` when it names one route: the index's defaults (a passage corpus:
   ppr; a catalogue: by its edges) or the caller's own ``default_route``;
5. the query's complexity (simple -> quick, medium -> smart, complex -> ppr).

`choose_route` returns the route with its source (``route_by``) and a short reason
(``route_reason``), both in ``stats["plan_query"]``; `route_label` is the few words the
text output's head line shows after the route.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from skill_retriever.config import RetrievalConfig, Route

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from skill_retriever.calibration.defaults import IndexDefaults

RouteBy = Literal["caller", "calibration", "typed hop", "index defaults", "default_route", "complexity"]

#: simple queries take the quick route, multi-hop ones the PPR route, the rest smart.
ROUTE_BY_COMPLEXITY: dict[str, Route] = {"simple": "quick", "medium": "smart", "complex": "ppr"}

#: What the index's defaults were chosen for, as the reason names it.
_CORPUS_WORDS = {"passages": "passages", "catalogue": "a catalogue", "operations": "an operations graph"}

#: The head line's words for each source (`route_label`); complexity names its class.
_LABELS: dict[str, str] = {
    "caller": "forced", "calibration": "calibration", "typed hop": "typed hop",
    "index defaults": "index defaults", "default_route": "default_route",
}


@dataclass(frozen=True)
class RouteChoice:
    """The route a query takes.

    Attributes:
        route: The route.
        by: What chose it (the module docstring's sources).
        reason: Why, in a few words.
    """

    route: Route
    by: RouteBy
    reason: str


def choose_route(
    config: RetrievalConfig,
    complexity: str,
    *,
    hop: str | None = None,
    calibrated: str | None = None,
    suggested: IndexDefaults | None = None,
) -> RouteChoice:
    """The route of one query and what chose it.

    Args:
        config: The query's resolved settings (the index's defaults already applied).
        complexity: The query's class (``algorithms.query_terms.classify_complexity``).
        hop: The phrase of the query's first typed hop, None when it has none.
        calibrated: The route the stored calibration learned, None for none.
        suggested: What the index suggests for itself; a ``default_route`` equal to its
            suggestion is reported as the index's (a caller who set the same value changed
            nothing).
    """
    if config.route:
        return RouteChoice(config.route, "caller", f"{config.route}, forced by the caller (route=, --route or a profile)")
    if calibrated:
        return RouteChoice(calibrated, "calibration",  # type: ignore[arg-type]  # the calibration stores a Route
                           f"{calibrated} for every query: learned by the index's calibration")
    if hop is not None:
        return RouteChoice("ppr", "typed hop", f"ppr: the typed hop {hop!r} walks from its far end")
    setting = config.default_route
    index_says = suggested.settings.get("default_route") if suggested is not None and config.use_calibration else None
    if setting not in (None, "by-complexity"):
        every = "every question" if suggested is not None and suggested.corpus == "passages" else (
            "every query without a typed hop")
        if setting == index_says:
            assert suggested is not None
            corpus = _CORPUS_WORDS.get(suggested.corpus, "this index")
            return RouteChoice(setting, "index defaults",  # type: ignore[arg-type]  # the config checked it
                               f"{setting} for {every}: the index's defaults for {corpus} (default_route)")
        return RouteChoice(setting, "default_route",  # type: ignore[arg-type]  # the config checked it
                           f"{setting} for {every}: default_route={setting!r}, set by the caller")
    route = default_route(setting, complexity, typed_hop=False)
    over = f" (default_route='by-complexity', set by the caller; the index suggests {index_says!r})" if (
        index_says not in (None, "by-complexity")) else ""
    return RouteChoice(route, "complexity", f"by complexity: {complexity} -> {route}{over}")


def default_route(setting: str | None, complexity: str, typed_hop: bool) -> Route:
    """The route of a query no one forced and no calibration routes: a typed hop's is ppr;
    otherwise ``setting`` (``RetrievalConfig.default_route``), where "by-complexity" (or
    None) reads `ROUTE_BY_COMPLEXITY`."""
    if typed_hop:
        return "ppr"
    if setting in (None, "by-complexity"):
        return ROUTE_BY_COMPLEXITY[complexity]
    return setting  # type: ignore[return-value]  # the config checked it is a Route


def route_label(plan_stats: Mapping[str, Any] | None) -> str | None:
    """The few words after the route in a text head line (``route ppr: index defaults``),
    from ``stats["plan_query"]``; None where it records no source (an answer from before
    sources were recorded)."""
    stats = plan_stats or {}
    by = stats.get("route_by")
    if not isinstance(by, str):
        return None
    if by == "complexity":
        return f"{stats.get('complexity') or 'by complexity'} query"
    return _LABELS.get(by, by)


__all__ = ["ROUTE_BY_COMPLEXITY", "RouteBy", "RouteChoice", "choose_route", "default_route", "route_label"]
