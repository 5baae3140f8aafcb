"""The LangChain retriever's documents and the agent tool's answer say when an item
happened, as ``query`` (a ``dated:`` line), ``--json`` and MCP (``created`` / ``updated``)
do: an incident or a postmortem found for "the outage in October" is judged by its date,
and neither face showed one. Only an item that has dates gets them."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.cli import main
from skill_retriever.stores.index import Index

QUERY = "checkout outage postmortem"
DATED = "dated: created 2026-10-03 14:20 UTC, updated 2026-10-05 09:00 UTC"


@pytest.fixture(scope="module")
def dated_docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of documents indexed as a user would: one with both dates in its
    frontmatter (one of them in another zone), one with neither."""
    root = tmp_path_factory.mktemp("dated")
    docs = root / "docs"
    docs.mkdir()
    (docs / "postmortem.md").write_text(
        "---\ntitle: Checkout outage postmortem\ncreated: 2026-10-03T16:20:00+02:00\nupdated: 2026-10-05T09:00:00Z\n---\n"
        "# Checkout outage postmortem\n\nThe checkout outage: a bad deploy exhausted the database pool.\n",
        encoding="utf-8",
    )
    (docs / "guide.md").write_text(
        "# Checkout style guide\n\nHow checkout pages are written; nothing about an outage or a postmortem.\n",
        encoding="utf-8",
    )
    assert main(["index", str(docs), "--kind", "docs", "--index-dir", str(root / "ix"), "--embedder", "hashing-64"]) == 0
    return root / "ix"


def test_a_documents_metadata_carries_the_dates_it_has(dated_docs: Path) -> None:
    with Index.open(dated_docs) as index:
        docs = SkillRetriever(index=index, k=5, reranker=None).invoke(QUERY)
    by_name = {d.metadata["name"]: d.metadata for d in docs}
    dated, undated = by_name["Checkout outage postmortem"], by_name["Checkout style guide"]
    assert dated["created"] == "2026-10-03T16:20:00+02:00"  # as the file gives it, its zone kept
    assert dated["updated"] == "2026-10-05T09:00:00+00:00"
    assert "created" not in undated and "updated" not in undated


def test_the_agent_tool_gives_a_dated_line_for_a_dated_item_only(dated_docs: Path) -> None:
    with Index.open(dated_docs) as index:
        tool = make_search_skills_tool(index, rerank=False)
        msg = tool.invoke({"type": "tool_call", "id": "c1", "name": tool.name, "args": {"query": QUERY}})
    assert isinstance(msg, ToolMessage)
    lines = str(msg.content).splitlines()
    heads = [i for i, line in enumerate(lines) if line[:1].isdigit() and ". [document] " in line]
    blocks = {lines[i].split("] ", 1)[1].split(" (id:")[0]: lines[i: j] for i, j in zip(heads, [*heads[1:], len(lines)])}
    assert f"   {DATED}" in blocks["Checkout outage postmortem"]
    assert not any("dated:" in line for line in blocks["Checkout style guide"])
    artifact = {a["name"]: a for a in msg.artifact}
    assert artifact["Checkout outage postmortem"]["created"] == "2026-10-03T16:20:00+02:00"
    assert "created" not in artifact["Checkout style guide"]
