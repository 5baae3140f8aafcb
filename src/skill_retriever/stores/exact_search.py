"""Exact nearest-neighbour search over a matrix of normalised vectors (cosine = dot
product): what a reader searches without a Chroma server, or while its server is out of
step with the index."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["top_k"]


def top_k(
    matrix: NDArray[np.float32], queries: NDArray[np.float32], k: int, mask: NDArray[np.bool_] | None = None
) -> list[list[tuple[int, float]]]:
    """Exact nearest rows of ``matrix`` for each row of ``queries`` (cosine = dot product
    of normalised vectors): ``(row, score)`` pairs, best first; ``mask`` False rows never
    appear. Ties are broken by row for a stable order."""
    if k <= 0 or matrix.shape[0] == 0 or queries.shape[0] == 0:
        return [[] for _ in range(queries.shape[0])]
    scores = queries @ matrix.T
    if mask is not None:
        scores[:, ~mask] = -np.inf
    out: list[list[tuple[int, float]]] = []
    for row in scores:
        kk = min(k, int(np.count_nonzero(np.isfinite(row))))
        if kk <= 0:
            out.append([])
            continue
        part = np.argpartition(-row, kk - 1)[:kk]
        order = sorted(part.tolist(), key=lambda r: (-round(float(row[r]), 6), r))
        out.append([(r, float(row[r])) for r in order])
    return out
