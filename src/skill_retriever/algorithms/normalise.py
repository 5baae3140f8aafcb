"""Scores put on a common [0, 1] scale, two ways.

- Min-max (:func:`minmax`): the passages' cosines in a walk's restart vector
  (`algorithms.restart`) and each channel's list in score fusion
  (`algorithms.score_fusion`), where a list's weakest item should count as little as one
  the channel did not list.
- Division by the best (:func:`by_max`): xQuAD's relevances (`algorithms.diversify`),
  where 0 must stay 0 (an item a sub-query did not find answers it not at all) and the
  best item answers its sub-query fully.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["by_max", "minmax"]


def minmax(values: npt.ArrayLike, flat: float = 0.0) -> npt.NDArray[np.float64]:
    """``(v - min) / (max - min)``; every value ``flat`` when they are all the same (0: a
    list that cannot tell its items apart says nothing; 1: each of its items counts fully,
    as a channel's lone hit should)."""
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        return v
    low, span = float(v.min()), float(v.max() - v.min())
    return (v - low) / span if span > 0 else np.full_like(v, flat)


def by_max(values: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """``v / max(v)`` for non-negative ``values``; all 0 when none is positive."""
    v = np.asarray(values, dtype=np.float64)
    top = float(v.max(initial=0.0))
    return v / top if top > 0 else np.zeros_like(v)
