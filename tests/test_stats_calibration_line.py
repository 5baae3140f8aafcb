"""The calibration line of ``stats`` and ``calibrate``: how many writes ago it was computed,
in words that agree with the count ("computed 1 writes ago" was printed after one
``Index.upsert``, seen walking a tiny index built through the Python API)."""

from __future__ import annotations

from skill_retriever.stats_lines import calibration_line


def _summary(stale_by: int) -> dict[str, object]:
    return {"version": 3, "stale_by": stale_by, "channel_weights": {}, "route": None, "nothing_fits_below": 0.15}


def test_the_line_counts_writes_in_the_singular_and_plural() -> None:
    assert calibration_line(_summary(0)).endswith("nothing fits below a best match of 0.15")
    assert calibration_line(_summary(1)).endswith("0.15 (computed 1 write ago)")
    assert calibration_line(_summary(4)).endswith("0.15 (computed 4 writes ago)")


def test_a_stale_line_says_what_draws_it_again() -> None:
    advice = "run `skill-retriever calibrate`"
    assert calibration_line(_summary(0), advice).endswith("0.15")
    assert calibration_line(_summary(1), advice).endswith(f"0.15 (computed 1 write ago, not on the items as they are now: {advice})")
