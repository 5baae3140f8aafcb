"""The ``search_skills`` tool's plain (not strict) schema and a model that writes null.

Walkthrough: the README and the builder's docstring say a null argument means the tool's
default, as leaving it out does, but with the plain schema ``{"query": ..., "k": null}``
or ``"budget_fill": null`` came back as an error ("k: Input should be a valid integer
(got None)"); only ``kinds`` and ``token_budget`` took null. Models that write every
argument, null for the ones they leave alone, are common outside strict mode too.
"""

from __future__ import annotations

from tool_calls import tool_node_answer

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migration before a deploy"


def test_null_count_and_switch_mean_the_default_in_the_plain_schema(sample_index: Index) -> None:
    tool = make_search_skills_tool(Retriever(sample_index, reranker=None), k=2)
    left_out = tool_node_answer(tool, {"query": QUERY})
    nulls = tool_node_answer(tool, {"query": QUERY, "k": None, "kinds": None, "token_budget": None,
                                    "budget_fill": None})
    assert nulls.status == "success", nulls.content
    assert nulls.artifact == left_out.artifact
    assert len(nulls.artifact) == 2  # the builder's k, not LangChain's or the schema's 5


def test_the_plain_schema_still_says_an_integer_and_a_boolean(sample_index: Index) -> None:
    # null is taken, not offered: the schema a model reads is unchanged
    props = make_search_skills_tool(sample_index).tool_call_schema.model_json_schema()["properties"]
    assert props["k"]["type"] == "integer" and (props["k"]["minimum"], props["k"]["maximum"]) == (1, 50)
    assert props["budget_fill"]["type"] == "boolean"


def test_a_bad_count_is_still_refused(sample_index: Index) -> None:
    tool = make_search_skills_tool(Retriever(sample_index, reranker=None))
    for bad in (0, "5", True):
        answer = tool_node_answer(tool, {"query": QUERY, "k": bad})
        assert answer.status == "error" and "k:" in answer.content, bad
