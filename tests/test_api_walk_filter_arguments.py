"""A filter given where a setting goes, and one filter given twice, found by a walkthrough
of the Python API: ``search(q, since=...)`` said "see RetrievalConfig", where no filter
is; ``search(q, kinds=["skill"], filters={"kinds": ["agent"]})`` answered skills without a
word, and so did a `SkillRetriever` built with both. Each is now one line that says where
the name goes, or that the two differ; a retriever's own filter is still replaced by the
same filter given to one call."""

from __future__ import annotations

import pytest

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migrations"


@pytest.fixture(scope="module")
def retriever(shared_tiny_index: Index) -> Retriever:
    return Retriever(shared_tiny_index, reranker=None)


def kinds_of(docs_or_response: object) -> set[str]:
    results = getattr(docs_or_response, "results", None)
    if results is not None:
        return {r.kind for r in results}
    return {d.metadata["kind"] for d in docs_or_response}  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["since", "until", "tags"])
def test_a_filter_given_as_a_setting_says_it_is_a_filter(retriever: Retriever, name: str) -> None:
    value = ["db"] if name == "tags" else "2026-01-01"
    with pytest.raises(ConfigError, match=rf"\['{name}'\] \('{name}' is a filter, not a setting: filters=\{{'{name}': \.\.\.\}}\)"):
        retriever.search(QUERY, **{name: value})
    # where the message sends the caller, the same value is taken
    assert retriever.search(QUERY, filters={name: value}).results


@pytest.mark.parametrize(("given", "meant"), [("top_k", "k"), ("limit", "k"), ("max_tokens", "token_budget")])
def test_another_retrievers_name_for_a_setting_names_this_ones(given: str, meant: str) -> None:
    with pytest.raises(ConfigError, match=rf"\['{given}'\] \(did you mean '{meant}'\?\)"):
        RetrievalConfig().override(**{given: 3})


def test_a_mistyped_filter_is_named_with_the_one_meant(retriever: Retriever) -> None:
    with pytest.raises(ConfigError, match=r"unknown filter\(s\) \['kind'\] \(did you mean 'kinds'\?\)"):
        retriever.search(QUERY, filters={"kind": ["skill"]})


def test_kinds_given_twice_and_different_are_refused(retriever: Retriever) -> None:
    assert kinds_of(retriever.search(QUERY, kinds=["skill"])) == {"skill"}  # the shortcut alone filters
    with pytest.raises(ConfigError, match=r"kinds=\['skill'\] and filters\['kinds'\]=\['agent'\] say different things"):
        retriever.search(QUERY, kinds=["skill"], filters={"kinds": ["agent"]})
    with pytest.raises(ConfigError, match=r"principals=\['b'\] and filters\['principals'\]=\['a'\]"):
        retriever.search(QUERY, principals="b", filters={"principals": ["a"]})


def test_kinds_given_twice_alike_are_one_filter(retriever: Retriever) -> None:
    both = retriever.search(QUERY, kinds=[NodeKind.AGENT, "skill"], filters={"kinds": ["skill", "agent"]})
    assert kinds_of(both) == {"skill", "agent"}
    assert both.ids == retriever.search(QUERY, kinds=["agent", "skill"]).ids


def test_a_skill_retriever_built_with_two_kinds_is_refused(shared_tiny_index: Index) -> None:
    with pytest.raises(ConfigError, match=r"kinds=\['skill'\] and filters\['kinds'\]=\['agent'\] say different things"):
        SkillRetriever(index=shared_tiny_index, kinds="skill", filters={"kinds": ["agent"]})


def test_a_calls_kinds_replace_the_retrievers_own(shared_tiny_index: Index) -> None:
    """As a call's ``k=`` replaces the retriever's ``k``; only two kinds in one call clash."""
    by_filter = SkillRetriever(index=shared_tiny_index, filters={"kinds": ["skill"]}, reranker=None)
    assert kinds_of(by_filter.invoke(QUERY)) == {"skill"}
    assert kinds_of(by_filter.invoke(QUERY, kinds=["agent"])) == {"agent"}
    by_field = SkillRetriever(index=shared_tiny_index, kinds=["skill"], reranker=None)
    assert kinds_of(by_field.invoke(QUERY, filters={"kinds": ["agent"]})) == {"agent"}
    with pytest.raises(ConfigError, match=r"kinds=\['command'\] and filters\['kinds'\]=\['agent'\]"):
        by_field.invoke(QUERY, kinds=["command"], filters={"kinds": ["agent"]})
