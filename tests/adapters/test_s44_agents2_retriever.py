"""``SkillRetriever`` as a builder meets it: its constructor's messages, a field set later,
its repr, and ``budget_fill``, which the budget's warning advises ("pass budget_fill=True")
and which only ``invoke`` took (the constructor refused it as an unknown argument)."""

from __future__ import annotations

import pytest

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.index import Index

QUERY = "postgres migration before a deploy"


def test_one_kind_given_as_a_string_is_named_alone(sample_index: Index) -> None:
    with pytest.raises(ConfigError) as caught:
        SkillRetriever(index=sample_index, kinds="skills")
    said = str(caught.value)
    # not "kinds.0": an index into the string the caller gave
    assert said.startswith("SkillRetriever: kinds: unknown kind 'skills'; use one of: skill, agent")
    assert said.endswith("(did you mean 'skill'?)") and said.count("did you mean") == 1
    with pytest.raises(ConfigError, match=r"^SkillRetriever: kinds\.1: unknown kind 'agents'"):
        SkillRetriever(index=sample_index, kinds=["skill", "agents"])  # in a list, its place helps


def test_no_kinds_is_refused_by_the_constructor(sample_index: Index) -> None:
    with pytest.raises(ConfigError, match=r"^SkillRetriever: kinds is empty, so nothing could match; "
                                          r"leave it out for every kind$"):
        SkillRetriever(index=sample_index, kinds=[])


def test_a_field_set_later_is_checked_as_the_constructor_checks_it(sample_index: Index) -> None:
    retriever = SkillRetriever(index=sample_index, reranker=None, k=2)
    with pytest.raises(ConfigError, match=r"^SkillRetriever: k must be a whole number such as 5, got '7' \(str\)$"):
        retriever.k = "7"  # type: ignore[assignment]
    with pytest.raises(ConfigError, match=r"^SkillRetriever: kinds: unknown kind 'skills'"):
        retriever.kinds = "skills"
    with pytest.raises(ConfigError, match=r"^SkillRetriever: budget_fill: Input should be a valid boolean"):
        retriever.budget_fill = "yes"  # type: ignore[assignment]
    assert retriever.k == 2 and retriever.kinds is None  # a refused value is not kept
    retriever.k = 1
    assert len(retriever.invoke(QUERY)) == 1


def test_the_default_reranker_reads_as_words(sample_index: Index) -> None:
    retriever = SkillRetriever(index=sample_index)
    assert repr(retriever.reranker) == "<the default reranker>"
    assert "object object at" not in repr(retriever)
    copied = retriever.model_copy(update={"k": 2})
    assert copied.reranker is retriever.reranker  # still the default, not a copy of a marker


def test_budget_fill_is_a_field_as_it_is_an_argument(sample_index: Index) -> None:
    plain = SkillRetriever(index=sample_index, reranker=None, k=6)
    sizes = [d.metadata["token_count"] for d in plain.invoke(QUERY)]
    smallest_later = min(sizes[2:])
    assert len(sizes) == 6 and sizes[1] > smallest_later  # (what the test needs: filling skips the second)
    budget = sizes[0] + smallest_later
    cut = SkillRetriever(index=sample_index, reranker=None, k=6, token_budget=budget)
    filled = SkillRetriever(index=sample_index, reranker=None, k=6, token_budget=budget, budget_fill=True)
    kept = [d.metadata["token_count"] for d in cut.invoke(QUERY)]
    assert kept == sizes[:1]
    assert "budget_fill=True" in cut.invoke(QUERY)[0].metadata["warnings"][0]  # the advice it follows
    got = [d.metadata["token_count"] for d in filled.invoke(QUERY)]
    assert got == [sizes[0], smallest_later]
    assert got == [d.metadata["token_count"] for d in cut.invoke(QUERY, budget_fill=True)]
    assert [d.metadata["token_count"] for d in filled.invoke(QUERY, budget_fill=False)] == kept  # invoke's wins
    with pytest.raises(ConfigError, match=r"^SkillRetriever: budget_fill: Input should be a valid boolean"):
        SkillRetriever(index=sample_index, budget_fill="yes")
