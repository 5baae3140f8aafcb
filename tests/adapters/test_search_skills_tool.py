"""The search_skills tool: typed arguments, compact model-readable output, artifact."""

from __future__ import annotations

import re

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from tool_calls import tool_node_answer

from skill_retriever.adapters.langchain import format_results, make_search_skills_tool
from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever, SearchResponse, SearchResult
from skill_retriever.stores.index import Index


@pytest.fixture(scope="module")
def tool(sample_index: Index):  # type: ignore[no-untyped-def]
    return make_search_skills_tool(Retriever(sample_index, reranker=None))


def test_schema_is_typed(tool) -> None:  # type: ignore[no-untyped-def]
    spec = convert_to_openai_tool(tool)["function"]
    assert spec["name"] == "search_skills"
    props = spec["parameters"]["properties"]
    assert set(props) == {"query", "kinds", "k", "token_budget", "budget_fill"}
    assert spec["parameters"]["required"] == ["query"]
    assert props["query"]["type"] == "string"
    assert props["k"]["type"] == "integer" and props["k"]["minimum"] == 1
    assert "skill" in str(props["kinds"])  # the allowed kinds are listed for the model


def test_output_is_compact_and_readable(tool, sample_index: Index) -> None:  # type: ignore[no-untyped-def]
    text = tool.invoke({"query": "write a safe alembic migration", "kinds": ["skill"], "k": 3})
    lines = text.splitlines()
    assert re.match(r"^3 items \(route \w+; confidence [01]\.\d\d; \d+ tokens in all\):$", lines[0])
    ranked = [line for line in lines if re.match(r"^\d+\. \[", line)]
    assert len(ranked) == 3
    for line in ranked:
        assert line.split("] ")[0].endswith("[skill")
        item_id = re.search(r"\(id: ([^)]+)\)", line).group(1)  # type: ignore[union-attr]
        assert item_id in sample_index.nodes
        assert re.search(r"\) \d+ tokens, via \w+ #\d+", line) and "score" not in line
    assert "migrations-alembic" in text
    assert len(text) < 2000  # a summary, not the items' full text
    assert all(len(line) < 400 for line in lines)


def test_token_budget_and_artifact(tool) -> None:  # type: ignore[no-untyped-def]
    call = {"type": "tool_call", "id": "call-1", "name": "search_skills",
            "args": {"query": "postgres migration before a deploy", "k": 8, "token_budget": 800}}  # fmt: skip
    msg = tool.invoke(call)
    assert isinstance(msg, ToolMessage) and msg.tool_call_id == "call-1"
    assert msg.artifact and sum(r["token_count"] for r in msg.artifact) <= 800
    assert {
        "id",
        "kind",
        "name",
        "fusion_score",
        "rerank_score",
        "token_count",
        "channels",
        "path",
    } <= set(msg.artifact[0])
    assert msg.artifact[0]["id"] in msg.content


def test_bad_arguments_are_rejected_before_retrieval(tool) -> None:  # type: ignore[no-untyped-def]
    # answered with an error message the model can read (test_walkthrough_langgraph.py)
    assert "unknown kind 'not-a-kind'" in tool.invoke({"query": "x", "kinds": ["not-a-kind"]})
    assert tool.invoke({"query": "x", "k": 0}).startswith("Error: invalid arguments: k: ")


@pytest.mark.parametrize(("args", "said"), [
    ({"k": "5"}, "k: k must be a whole number (a valid integer such as 5), not the text '5'."),
    ({"k": True}, "k: k must be a whole number (a valid integer such as 5), got true."),
    ({"k": 2.5}, "k: k must be a whole number (a valid integer such as 5), got 2.5."),
    ({"token_budget": "lots"}, "token_budget: token_budget must be a whole number (a valid integer such as 5), not the text 'lots'."),
    ({"budget_fill": "false"}, "budget_fill: Input should be a valid boolean (got 'false')."),
    ({"budget_fill": 1}, "budget_fill: Input should be a valid boolean (got 1)."),
])  # fmt: skip
def test_counts_and_switches_are_strict_as_over_mcp(tool, args: dict[str, object], said: str) -> None:  # type: ignore[no-untyped-def]
    """k="5" ran as 5, k=True as 1 and budget_fill="false" as false (pydantic's lax
    reading), where the MCP tools refuse each: a client sending them has a bug (the MCP
    tools' "false" once turned a dry run into a real install)."""
    answer = tool.invoke({"query": "add tracing", **args})
    assert answer == f"Error: invalid arguments: {said} Fix the arguments and call the tool again."


def test_a_whole_float_count_is_read_as_a_count(tool) -> None:  # type: ignore[no-untyped-def]
    """JSON has one number type: a client in JavaScript sends 2 as 2.0."""
    assert re.search(r"^2 items ", tool.invoke({"query": "add tracing", "k": 2.0}), re.MULTILINE)


def test_no_match_says_what_to_do(sample_index: Index) -> None:
    tool = make_search_skills_tool(sample_index, rerank=False)
    text = tool.invoke({"query": "postgres", "kinds": ["incident"]})  # the sample has no incidents
    assert text.startswith("No matching items.")


@pytest.mark.asyncio
async def test_async(tool) -> None:  # type: ignore[no-untyped-def]
    text = await tool.ainvoke({"query": "format python code", "k": 2})
    assert _list_head(text).startswith("2 items")


# -- what the model is told -------------------------------------------------------------


def _result(name: str, score: float, fusion: float) -> SearchResult:
    return SearchResult(id=f"skill:{name}", kind="skill", name=name, snippet=name,
                        fusion_score=fusion, rerank_score=None, token_count=10,
                        channels={"keyword": 1}, score=score)  # fmt: skip


def test_each_item_shows_its_rank_not_a_score() -> None:
    """The list is in its order (clause coverage reorders the fusion ranking), numbered,
    with no score: a min-max fused score is 0 for the last item of a short list, which a
    model reads as irrelevant (`format_results`; test_tool_walk_scores.py)."""
    response = SearchResponse(
        results=[_result("a", 1.63, 0.24), _result("b", 0.40, 0.40), _result("c", 0.0, 1.63)],
        route="smart",
        reranker="none",
    )
    text = format_results(response)
    assert re.findall(r"^(\d)\. \[skill\] (\w)", text, re.MULTILINE) == [("1", "a"), ("2", "b"), ("3", "c")]
    assert "score" not in text and "0.0" not in text


def test_a_budget_that_dropped_everything_says_so(tool) -> None:  # type: ignore[no-untyped-def]
    """Not "try other words": the model is told the budget dropped the matches and that
    a larger one returns them, and the budget's own warning is kept."""
    text = tool.invoke({"query": "postgres migration before a deploy", "k": 4, "token_budget": 5})
    first = _list_head(text)
    assert first.startswith("No items fit the token budget of 5 tokens: it dropped the 4 ")
    assert "larger token_budget" in first and "Try other words" not in text
    assert "note: the token budget of 5 dropped 4 of 4 results" in text


def test_a_budget_that_dropped_some_says_how_many(tool) -> None:  # type: ignore[no-untyped-def]
    text = tool.invoke({"query": "postgres migration before a deploy", "k": 8, "token_budget": 400})
    kept = len([line for line in text.splitlines() if re.match(r"^\d+\. \[", line)])
    assert 0 < kept < 8
    assert f"{8 - kept} more matching items did not fit the token budget of 400 tokens" in text
    assert "a larger token_budget would return them" in text and "note: the token budget" in text


# -- errors: the model's to fix, or a bug -----------------------------------------------




@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_query_comes_back_to_the_model_as_a_tool_error(tool, query: str) -> None:  # type: ignore[no-untyped-def]
    """As a schema violation (k=0) does: the agent's run goes on and the model reads why."""
    answer = tool_node_answer(tool, {"query": query})
    assert answer.status == "error" and answer.tool_call_id == "call-1"
    assert "the query is empty" in str(answer.content)
    assert tool_node_answer(tool, {"query": "x", "k": 0}).status == "error"


@pytest.mark.asyncio
async def test_a_bad_argument_comes_back_as_a_tool_error_in_async(sample_index: Index) -> None:
    # A bad setting is the builder's, refused when the tool is built (test_s44_agents2_tool.py):
    # every call failed with it, telling the model to fix arguments it never gave.
    with pytest.raises(ConfigError, match=r"^make_search_skills_tool: rrf_k must be > 0, got -1$"):
        make_search_skills_tool(Retriever(sample_index, reranker=None), rrf_k=-1)
    tool = make_search_skills_tool(Retriever(sample_index, reranker=None))
    call = {"type": "tool_call", "id": "call-2", "name": "search_skills", "args": {"query": "   "}}
    answer = await tool.ainvoke(call)
    assert isinstance(answer, ToolMessage) and answer.status == "error"
    assert "the query is empty" in str(answer.content)


def test_a_bug_still_raises(sample_index: Index) -> None:
    class Broken(Retriever):
        def search(self, query: str, **kwargs: object) -> SearchResponse:
            raise RuntimeError("a bug, not the model's to fix")

    with pytest.raises(RuntimeError, match="a bug"):
        tool_node_answer(make_search_skills_tool(Broken(sample_index, reranker=None)), {"query": "x"})


# -- one snapshot per answer ------------------------------------------------------------


def test_path_names_come_from_the_snapshot_the_search_read(tiny_index: Index) -> None:
    """An item on a result's path deleted while the search ran is still named by its name
    (the snapshot searched has it), not shown as a bare id."""
    deleted: list[str] = []

    class DeletingReranker:
        name = "deleting"

        def score(self, query: str, texts: list[str]) -> list[float]:
            if not deleted:
                tiny_index.delete(["command:deploy"])
                deleted.append("command:deploy")
            return [1.0] * len(texts)

    tool = make_search_skills_tool(Retriever(tiny_index, reranker=DeletingReranker()))
    text = tool.invoke({"query": "review postgres migration and deploy checkout-api safely", "k": 6})
    assert deleted and "command:deploy" not in tiny_index
    assert "   also reached via deploy" in text.splitlines()  # github: found by searches too


def _list_head(text: str) -> str:
    """The first line after a "nothing fits" note, which comes first when there is one."""
    return next(line for line in text.splitlines() if not line.startswith("Note: "))


def test_nothing_fits_comes_first_and_budget_fill_is_an_argument(sample_index: Index) -> None:
    tool = make_search_skills_tool(sample_index, rerank=False)
    text = tool.invoke({"query": "bake sourdough bread at home", "k": 3})
    assert text.splitlines()[0].startswith("Note: nothing in the catalogue fits this well; the closest: ")
    assert "nothing in the catalogue fits" not in "\n".join(text.splitlines()[1:])  # said once
    def listed(text: str) -> int:
        return len(re.findall(r"^\d+\. \[", text, re.MULTILINE))

    # The advice comes when a dropped result fits in what is left, and names an argument
    # the tool takes; when none fits, filling would add nothing, and it says that instead.
    for budget, helps in ((300, True), (400, False)):
        args = {"query": "postgres migration before a deploy", "k": 8, "token_budget": budget}
        kept = tool.invoke(args)
        filled = tool.invoke({**args, "budget_fill": True})
        assert ("budget_fill=True" in kept) is helps and ("none of the others fits" in kept) is not helps
        assert (listed(filled) > listed(kept)) is helps


def test_the_description_says_where_the_confidence_is_also_when_nothing_fits(sample_index: Index) -> None:
    """The description told the model "the first line gives the confidence"; when nothing
    fits, the first line is the note that says so, and the confidence is on the line that
    counts the items (seen walking "nothing fits" through the agent tool)."""
    tool = make_search_skills_tool(sample_index, rerank=False)
    assert "first line gives the confidence" not in tool.description
    assert "the line that counts the items gives the confidence" in tool.description
    for query in ("bake sourdough bread at home", "write a safe alembic migration"):
        counted = [line for line in tool.invoke({"query": query, "k": 3}).splitlines() if re.match(r"^\d+ items? \(", line)]
        assert len(counted) == 1 and re.search(r"; confidence [01]\.\d\d;", counted[0])
