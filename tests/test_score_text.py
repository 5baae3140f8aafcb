"""Scores are written with the digits that tell them apart: under the multihop profile
(a walk's probabilities) the results of a small index read "score 0.0000" past the second,
though none was zero."""

from __future__ import annotations

import re
from pathlib import Path

from tiny_graph import build_tiny_index

from skill_retriever.config import config_for
from skill_retriever.retriever import Retriever
from skill_retriever.score_text import score_text


def test_small_scores_keep_three_significant_digits() -> None:
    assert score_text(2.33304) == "2.3330" and score_text(0.0255) == "0.0255" and score_text(0.001) == "0.0010"
    assert score_text(0.000912345) == "0.000912" and score_text(3.2e-05) == "3.2e-05"
    assert score_text(0.0) == "0.0000"  # score fusion's real zero: the weakest listed item


def test_a_multihop_answer_prints_no_nonzero_score_as_zero(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "ix")
    try:
        response = Retriever(index, config_for("multihop")).search("deploy the service", k=8)
    finally:
        index.close()
    assert response.results
    printed = re.findall(r"score (\S+),", str(response))
    assert len(printed) == len(response.results)
    for r, text in zip(response.results, printed, strict=True):
        assert text == score_text(r.score)
        assert (float(text) == 0) == (r.score == 0), (text, r.score)
