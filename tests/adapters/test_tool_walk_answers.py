"""What the agent tool ``search_skills`` tells a model, as a user walkthrough found it
wanting:

- ``kinds=["incident"]`` on a skills index answered "`stats` lists its kinds": a model
  cannot run ``stats``. The tool now names the kinds the caller may see; the CLI's and
  the API's note still points at ``stats``.
- The second of two relevant documents showed "score 0.0000" (score fusion min-max
  normalises each search's list, so its last item counts 0): a model reads 0 as
  irrelevant. The tool shows the rank, the searches that found it and the answer's
  calibrated confidence instead; the scores stay in the artifact.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.config import RetrievalConfig
from skill_retriever.filters import KINDS_POINTER, Filters, kinds_named
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

#: The tiny graph's public kinds, in `NodeKind` order; its one document is team-a's.
PUBLIC_KINDS = "skill, agent, command, hook, mcp_server, service, incident"


def _note(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("note: the index holds no"))


def test_the_tool_names_the_kinds_where_the_cli_points_at_stats(sample_index: Index) -> None:
    retriever = Retriever(sample_index, reranker=None)
    text = make_search_skills_tool(retriever).invoke({"query": "roll back a deploy", "kinds": ["incident"]})
    assert text.startswith("No matching items.")
    assert _note(text) == (
        "note: the index holds no incident items you may see; "
        "the kinds you may see are skill, agent, command, hook, mcp_server, plugin"
    )
    assert "`stats`" not in text
    # The search's own warning, which the CLI and the API show, is unchanged.
    said = retriever.search("roll back a deploy", kinds=["incident"]).warnings[-1]
    assert said == f"the index holds no incident items you may see; {KINDS_POINTER}"


@pytest.mark.parametrize(("build", "document_seen"), [
    ({}, False),  # no principals: public items only
    ({"principals": ["team-a"]}, True),  # the tool's setting
    ({"filters": {"principals": ["team-a"]}}, True),  # in its filters
    ({"retriever_principals": ["team-a"]}, True),  # the Retriever's own
    ({"retriever_principals": ["team-a"], "principals": ["team-b"]}, False),  # the setting wins, as in the search
])  # fmt: skip
def test_only_kinds_the_caller_may_see_are_named(
    shared_tiny_index: Index, build: dict[str, Any], document_seen: bool
) -> None:
    """The private runbook is the tiny index's only document: its kind is named to a
    caller who may see it, and to no one else (its existence is not said)."""
    build = dict(build)
    retriever = Retriever(shared_tiny_index, reranker=None, principals=build.pop("retriever_principals", None))
    tool = make_search_skills_tool(retriever, **build)
    note = _note(tool.invoke({"query": "rotate the payments keys", "kinds": ["plugin"]}))
    assert note.startswith("note: the index holds no plugin items you may see; the kinds you may see are ")
    assert note.endswith(PUBLIC_KINDS.replace("mcp_server", "mcp_server, document" if document_seen else "mcp_server"))
    if not document_seen:  # asking for the private kind itself: "no document", and not named
        note = _note(tool.invoke({"query": "checkout runbook", "kinds": ["document"]}))
        assert note == f"note: the index holds no document items you may see; the kinds you may see are {PUBLIC_KINDS}"


def test_kinds_named_leaves_every_other_warning_as_it_is(shared_tiny_index: Index) -> None:
    nodes = shared_tiny_index.snapshot().nodes.values()
    for warning in (
        "no item you may see passes the filters (tags nope), so every query comes back empty with them",
        f"the budget note that happens to end in {KINDS_POINTER}",
    ):
        assert kinds_named(warning, Filters(), nodes) == warning


# -- scores ------------------------------------------------------------------------------


@pytest.fixture
def two_runbooks(tmp_path: Path) -> Retriever:
    """Two relevant documents, fused by their scores (the walkthrough's index)."""
    index = Index.open(tmp_path / "two", embedder=HashingEmbedder(64), create=True)
    index.add([
        Node(id="doc:rollback", kind="document", name="rollback runbook",  # type: ignore[arg-type]
             text="How to roll back a bad deploy of checkout-api: revert the release and drain the canary."),
        Node(id="doc:deploy", kind="document", name="deploy runbook",  # type: ignore[arg-type]
             text="How to deploy checkout-api: build, canary, then promote; roll back when errors rise."),
    ], [])  # fmt: skip
    return Retriever(index, RetrievalConfig(fusion="scores"), reranker=None)


def test_the_last_of_a_short_list_is_shown_by_rank_not_as_score_0(two_runbooks: Retriever) -> None:
    call = {"type": "tool_call", "id": "c1", "name": "search_skills",
            "args": {"query": "roll back a bad deploy of checkout-api"}}  # fmt: skip
    msg = make_search_skills_tool(two_runbooks).invoke(call)
    assert isinstance(msg, ToolMessage)
    # What the walkthrough saw: min-max fusion puts the last of each search's list at 0.
    assert [r["score"] for r in msg.artifact][1] == 0.0  # still there, for a program
    lines = str(msg.content).splitlines()
    assert lines[0] == "2 items (route smart; 48 tokens in all):"  # not calibrated: no confidence
    assert lines[1].startswith("1. [document] rollback runbook (id: doc:rollback) 24 tokens, via keyword #1")
    assert lines[3].startswith("2. [document] deploy runbook (id: doc:deploy) 24 tokens, via keyword #2")
    assert "score" not in str(msg.content) and "0.0" not in str(msg.content)


def test_a_calibrated_index_gives_the_answers_confidence(sample_index: Index) -> None:
    retriever = Retriever(sample_index, reranker=None)
    text = make_search_skills_tool(retriever).invoke({"query": "write a safe alembic migration", "k": 2})
    confidence = retriever.search("write a safe alembic migration", k=2).confidence
    assert confidence is not None
    assert f"2 items (route smart; confidence {confidence:.2f}; " in text


def test_the_mcp_search_names_the_kinds_too(sample_index: Index) -> None:
    """The MCP client is an agent too: it cannot run `stats` either. (search_components
    takes only component kinds, which the sample holds all of.)"""
    import asyncio

    from skill_retriever.adapters.mcp_server import build_server

    server = build_server(sample_index, retriever=Retriever(sample_index, reranker=None))
    answer = asyncio.run(server.call_tool("search", {"query": "roll back a deploy", "kinds": ["incident"]})).structured_content
    said = "the index holds no incident items you may see; the kinds you may see are "
    assert answer["warnings"] == [said + "skill, agent, command, hook, mcp_server, plugin"]
