"""A result's score as `query` and ``print(response)`` write it.

Four decimals read well for the default fusion (scores from about 0.01 to a few units),
but a walk's probabilities are far smaller: under ``config_for("multihop")`` on a
14-skill index every result past the second read 0.0009 to 0.0000, nonzero scores
looking like zero and equal. Below 0.001 three significant digits are kept instead. An
exact 0 stays 0.0000: score fusion puts a channel's weakest listed item there.
"""

from __future__ import annotations

__all__ = ["score_text"]

#: Below this (and above 0) four decimals would show too few digits of the score.
SMALL = 1e-3


def score_text(score: float) -> str:
    """``score`` with four decimals, or three significant digits when it is smaller than that shows."""
    if score == 0 or abs(score) >= SMALL:
        return f"{score:.4f}"
    return f"{score:.3g}"
