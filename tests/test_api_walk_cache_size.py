"""``Retriever(cache_size=...)`` is checked as the other whole-number arguments are (found by
a walkthrough of the Python API): ``cache_size=float("nan")`` was taken and made the
answer cache unbounded (``len > nan`` is never true, so nothing was ever dropped), a
float kept a fraction of answers, ``True`` kept one, and ``"5"`` or ``None`` failed with
a bare ``TypeError: '<' not supported`` that named no argument."""

from __future__ import annotations

import numpy as np
import pytest

from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.mark.parametrize("size", [float("nan"), 1.5, True, "5", None, -1, float("inf")],
                         ids=["nan", "float", "bool", "text", "none", "negative", "inf"])
def test_a_cache_size_that_is_not_a_whole_number_of_0_or_more_is_refused_by_name(
    shared_tiny_index: Index, size: object
) -> None:
    with pytest.raises(ConfigError, match=r"^cache_size must be a whole number of answers, 0 or more \(0 turns") as caught:
        Retriever(shared_tiny_index, reranker=None, cache_size=size)  # type: ignore[arg-type]
    assert repr(size)[:20] in str(caught.value)


def test_the_cache_keeps_at_most_cache_size_answers(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None, cache_size=np.int64(2))  # type: ignore[arg-type]
    for query in ("deploy", "logging", "database", "testing"):
        retriever.search(query, k=1)
    assert len(retriever._answers._cache) == 2
    assert retriever.search("testing", k=1).stats["cache"]["hit"] is True
    assert "cache" not in retriever.search("deploy", k=1).stats  # the oldest was dropped
