"""Ranking metrics against values computed by hand."""

from __future__ import annotations

import math

import pytest

from skill_retriever.bench import metrics as M
from skill_retriever.bench.evaluate import score


def test_recall_is_hipporag_share_of_gold_in_top_k() -> None:
    ranked = ["p3", "p9", "p1", "p7", "p2"]
    gold = ["p1", "p2"]
    assert M.recall_at_k(ranked, gold, 2) == 0.0  # neither in [p3, p9]
    assert M.recall_at_k(ranked, gold, 3) == 0.5  # p1 at rank 3
    assert M.recall_at_k(ranked, gold, 5) == 1.0
    assert M.recall_at_k(ranked, ["p1", "p1", "p2"], 3) == 0.5  # gold duplicates count once
    assert M.recall_at_k(["p1", "p1", "p2"], gold, 2) == 1.0  # a repeated id takes no slot


def test_mrr_first_relevant_with_grade_at_least_one() -> None:
    assert M.mrr(["a", "b", "c"], {"c": 1, "b": 2}) == 0.5
    assert M.mrr(["a", "b", "c"], {"a": 0, "c": 1}) == pytest.approx(1 / 3)  # grade 0 is not relevant
    assert M.mrr(["a", "b"], {"z": 2}) == 0.0


def test_ndcg_graded_linear_gain_by_hand() -> None:
    # ranked a(2) b(0) c(1); judged a=2, c=1, d=2.
    # DCG  = 2/log2(2) + 0/log2(3) + 1/log2(4) = 2 + 0 + 0.5 = 2.5
    # IDCG = 2/log2(2) + 2/log2(3) + 1/log2(4) = 2 + 1.2618595071429148 + 0.5 = 3.761859507142915
    value = M.ndcg_at_k(["a", "b", "c"], {"a": 2, "c": 1, "d": 2}, 10)
    assert value == pytest.approx(2.5 / 3.761859507142915, rel=1e-12)
    assert value == pytest.approx(0.6645649566, rel=1e-9)
    # cut at k=1: DCG = 2, IDCG = 2 -> 1.0
    assert M.ndcg_at_k(["a", "b", "c"], {"a": 2, "c": 1, "d": 2}, 1) == 1.0
    # binary: one of two relevant at rank 2 -> (1/log2 3) / (1 + 1/log2 3)
    assert M.ndcg_at_k(["x", "r1"], ["r1", "r2"], 10) == pytest.approx(
        (1 / math.log2(3)) / (1 + 1 / math.log2(3)), rel=1e-12)


def test_completeness_all_or_nothing() -> None:
    assert M.completeness_at_k(["t1", "t2", "t3"], ["t1", "t3"], 3) == 1.0
    assert M.completeness_at_k(["t1", "t2", "t3"], ["t1", "t3"], 2) == 0.0


def test_no_judgment_is_undefined_and_mean_skips_it() -> None:
    assert M.recall_at_k(["a"], [], 5) is None
    assert M.mrr(["a"], {}) is None
    assert M.ndcg_at_k(["a"], {"a": 0}, 5) is None
    assert M.completeness_at_k(["a"], [], 5) is None
    assert M.mean([1.0, None, 0.0]) == 0.5
    assert M.mean([None]) is None


def test_score_by_table_name() -> None:
    ranked, gold = ["a", "b", "c"], {"c": 1}
    assert score("R@2", ranked, gold) == 0.0
    assert score("R@5", ranked, gold) == 1.0
    assert score("MRR", ranked, gold) == pytest.approx(1 / 3)
    assert score("C@10", ranked, gold) == 1.0
    assert score("nDCG@10", ranked, gold) == pytest.approx(0.5)  # (1/log2 4) / 1
    with pytest.raises(ValueError):
        score("P@5", ranked, gold)
