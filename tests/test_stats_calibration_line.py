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


def test_the_line_says_how_many_probes_the_catalogue_answers() -> None:
    summary = {**_summary(1), "nothing_fits_probes_answered": 14}
    assert calibration_line(summary).endswith("0.15, 14 probes the catalogue answers left out (computed 1 write ago)")
    assert calibration_line({**summary, "nothing_fits_probes_answered": 1}).endswith("0.15, 1 probe the catalogue "
                                                                                   "answers left out (computed 1 write ago)")
    assert calibration_line({**summary, "nothing_fits_probes_answered": 0}).endswith("0.15 (computed 1 write ago)")


def test_a_stale_line_says_what_draws_it_again() -> None:
    advice = "run `skill-retriever calibrate`"
    assert calibration_line(_summary(0), advice).endswith("0.15")
    assert calibration_line(_summary(1), advice).endswith(f"0.15 (computed 1 write ago, not on the items as they are now: {advice})")



def test_calibrate_help_promises_only_what_the_calibration_learns(shared_tiny_index, capsys) -> None:  # type: ignore[no-untyped-def]
    """`calibrate --help` said "Learn the index's channel weights and where 'nothing fits'
    starts", and its line then printed "weights all channels x1": read as weights learned
    equal, while `calibration.channels` learns none (its docstring says why). Seen running
    `calibrate` on a 5-item catalogue in a walkthrough."""
    import pytest

    from skill_retriever.calibration.channels import channel_calibration
    from skill_retriever.cli import main

    weights, _, _ = channel_calibration(shared_tiny_index.snapshot())
    words = ""
    for argv in (["calibrate", "--help"], ["--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        words += " " + " ".join(capsys.readouterr().out.split())
    assert "'nothing fits'" in words
    if not weights:
        assert "learn its channel weights" not in words and "Learn the index's channel weights" not in words, words
        assert "no channel weights yet" in words, words
