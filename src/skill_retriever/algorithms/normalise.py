"""Min-max normalisation, the one way scores are put on a common [0, 1] scale: the passages'
cosines in a walk's restart vector (`algorithms.restart`) and each channel's list in score
fusion (`algorithms.score_fusion`)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["minmax"]


def minmax(values: npt.ArrayLike, flat: float = 0.0) -> npt.NDArray[np.float64]:
    """``(v - min) / (max - min)``; every value ``flat`` when they are all the same (0: a
    list that cannot tell its items apart says nothing; 1: each of its items counts fully,
    as a channel's lone hit should)."""
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        return v
    low, span = float(v.min()), float(v.max() - v.min())
    return (v - low) / span if span > 0 else np.full_like(v, flat)
