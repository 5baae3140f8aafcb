"""Through every entry point, a plural kind (``skills``) is refused with the kind it means;
the agent tool's JSON schema lets ``kinds`` be one string; and ``SkillRetriever``'s
constructor takes counts strictly, refusing in one line as ``invoke`` does."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from cli_calls import run
from langchain_core.utils.function_calling import convert_to_openai_tool

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters
from skill_retriever.graph import graph as retrieval_graph
from skill_retriever.kind_names import meant_kind
from skill_retriever.model import NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

HINT = "(did you mean 'skill'?)"
KINDS = [k.value for k in NodeKind]


@pytest.mark.parametrize(
    ("asked", "meant"),
    [("skills", "skill"), ("Skills", "skill"), ("incidents", "incident"), ("mcp-server", "mcp_server"),
     ("doc", "document"), ("runbook", None), ("x" * 500, None)],
)
def test_the_kind_a_name_means(asked: str, meant: str | None) -> None:
    assert meant_kind(asked) == meant


def test_every_python_entry_point_says_the_kind_a_plural_means(sample_index: Index, coding_agent: ModuleType) -> None:
    ctx = RetrievalContext(index=sample_index)
    calls = {
        "Filters": lambda: Filters(kinds=["skills"]),
        "graph": lambda: retrieval_graph.invoke({"query": "fuzz", "filters": {"kinds": ["skills"]}}, context=ctx),
        "Retriever": lambda: Retriever(sample_index, reranker=None).search("fuzz", kinds=["skills"]),
        "SkillRetriever.invoke": lambda: SkillRetriever(index=sample_index, reranker=None).invoke("fuzz", kinds="skills"),
        "coding agent": lambda: coding_agent.build_agent_with_wrapper_node(retrieval=ctx).invoke(
            {"task": "fuzz", "kinds": "skills"}),
    }
    for name, call in calls.items():
        with pytest.raises(ConfigError) as caught:
            call()
        said = str(caught.value)
        assert "unknown kind(s) ['skills']; use any of" in said and said.count(HINT) == 1, (name, said)
    with pytest.raises(ConfigError, match=r"\(did you mean 'agent' for 'agents', 'skill' for 'skills'\?\)"):
        Filters(kinds=["agents", "skills", "zzz"])


def test_the_agent_tool_says_it_to_the_model(sample_index: Index) -> None:
    tool = make_search_skills_tool(sample_index, rerank=False)
    for kinds, where in (("skills", "kinds"), (["skills"], "kinds.0")):  # one string alone is no list's item 0
        answer = tool.invoke({"query": "fuzz", "kinds": kinds})
        assert answer.startswith(f"Error: invalid arguments: {where}: unknown kind 'skills'; use one of: skill,")
        assert answer.count(HINT) == 1 and answer.count("'skills'") == 1, answer  # what it got, said once
    with pytest.raises(ConfigError, match=r"^make_search_skills_tool: bad default\(s\): kinds: unknown kind 'skills'"):
        make_search_skills_tool(sample_index, rerank=False, kinds="skills")


def test_the_cli_says_it_once(sample_index_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:  # argparse refuses the option, before any search
        run(capsys, "query", "fuzz", "--index-dir", sample_index_path, "--kinds", "skills")
    err = capsys.readouterr().err
    assert caught.value.code == 2
    assert err.count("did you mean skill?") == 1 and "did you mean 'skill'" not in err


@pytest.mark.parametrize("defaults", [{}, {"kinds": "skill"}, {"kinds": ["skill", "agent"], "k": 3}])
def test_the_tool_schema_takes_one_kind_as_a_string_or_a_list(sample_index: Index, defaults: dict[str, Any]) -> None:
    tool = make_search_skills_tool(sample_index, rerank=False, **defaults)
    for strict in (False, True):
        kinds = convert_to_openai_tool(tool, strict=strict)["function"]["parameters"]["properties"]["kinds"]
        one = {"type": "string", "enum": KINDS}
        assert one in kinds["anyOf"] and {"type": "array", "items": one} in kinds["anyOf"], json.dumps(kinds)
        assert {"type": "null"} in kinds["anyOf"]
    # what the schema offers, the tool takes: one string searches that kind
    answer = tool.invoke({"query": "database migration", "kinds": "skill", "k": 3})
    assert not answer.startswith("Error") and "[skill]" in answer


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"k": "5"}, "SkillRetriever: k must be a whole number such as 5, got '5' (str)"),
        ({"k": True}, "SkillRetriever: k must be a whole number such as 5, got True (bool)"),
        ({"k": 5.0}, "SkillRetriever: k must be a whole number such as 5, got 5.0 (float)"),
        ({"k": 0}, "SkillRetriever: k must be > 0, got 0"),
        ({"token_budget": "4000"}, "SkillRetriever: token_budget must be a whole number such as 5, got '4000' (str)"),
        ({"token_budget": -1}, "SkillRetriever: token_budget must be >= 0, got -1"),
        ({"route": "fast"}, "SkillRetriever: route must be one of 'smart', 'ppr' or 'quick', got 'fast'"),
        ({"top_k": 3}, "SkillRetriever: unknown argument 'top_k' (did you mean 'k'?); it takes "),
        ({"principals": ["ops"]}, "SkillRetriever: unknown argument 'principals' (a filter: filters={'principals': ...})"),
        ({"filters": {"kind": ["skill"]}}, "SkillRetriever: filters: unknown filter(s) ['kind'] (did you mean 'kinds'?); use kinds, tags"),
        ({"filters": {"kinds": ["skills"]}}, "SkillRetriever: filters.kinds: unknown kind(s) ['skills']; use any of"),
        ({"kinds": ["skills"]}, "SkillRetriever: kinds.0: unknown kind 'skills'; use one of: skill, agent"),
    ],
)
def test_the_retriever_constructor_refuses_in_one_line(sample_index: Index, given: dict[str, Any], said: str) -> None:
    with pytest.raises(ConfigError) as caught:
        SkillRetriever(index=sample_index, **given)
    message = str(caught.value)
    assert message.startswith(said) and "\n" not in message and "pydantic" not in message


def test_the_constructor_names_a_missing_or_wrong_index() -> None:
    with pytest.raises(ConfigError, match=r"^SkillRetriever: index is required \(index=Index.open\(path\)\)$"):
        SkillRetriever()
    with pytest.raises(ConfigError, match=r"^SkillRetriever: index must be Index, got str"):
        SkillRetriever(index=".skill-retriever")


def test_what_the_constructor_takes_still_searches(sample_index: Index) -> None:
    retriever = SkillRetriever(index=sample_index, k=2, token_budget=None, kinds="skill", reranker=None,
                               filters={"tags": ["database"]})
    docs = retriever.invoke("database migration")
    assert 0 < len(docs) <= 2 and {d.metadata["kind"] for d in docs} == {"skill"}
