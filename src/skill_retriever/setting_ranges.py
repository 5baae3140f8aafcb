"""The settings that are thresholds on a bounded score, and the bounds: a threshold past
them passes no item at all (``seed_node_min_similarity=5``, a cosine, or 50, a
percentage, left the semantic seeds silently empty), so it is refused by name."""

from __future__ import annotations

from typing import Any

from skill_retriever.exceptions import ConfigError

__all__ = ["check_ranges"]

_COSINE = (-1.0, 1.0, "a cosine")
_SCORE = (0.0, 1.0, "a PPR score; the walk's scores sum to 1")

#: setting -> (lowest, highest, what the value is compared with)
RANGES: dict[str, tuple[float, float, str]] = {
    "seed_node_min_similarity": _COSINE,
    "seed_edge_min_similarity": _COSINE,
    "coverage_threshold": (0.0, 1.0, "the share of the query's components the candidates cover"),
    "ppr_min_score": _SCORE,
    "flow_reliability_threshold": (0.0, 1.0, "a path's mean PPR score"),
}


def check_ranges(config: Any) -> None:
    """Refuse a threshold outside its score's range, and an ``expand_thresholds`` that is
    empty or holds one outside [-1, 1] (each level's cosine threshold).

    Raises:
        ConfigError: One line naming the setting, its range, what it is and the value.
    """
    for name, (lo, hi, what) in RANGES.items():
        value = getattr(config, name)
        if not lo <= value <= hi:
            raise ConfigError(f"{name} must lie in [{lo:g}, {hi:g}] ({what}), got {value:g}")
    if not config.expand_thresholds:
        raise ConfigError("expand_thresholds needs at least one level")
    if outside := [t for t in config.expand_thresholds if not -1.0 <= t <= 1.0]:
        raise ConfigError(f"expand_thresholds must each lie in [-1, 1] ({_COSINE[2]}), got {outside[0]:g}")
