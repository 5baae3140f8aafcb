""""Nothing fits" in the words of what the search could answer, on every surface.

Found in a walkthrough: a folder of runbooks (``index --kind docs``, or a folder with no
component) answered "Nothing in the catalogue fits this well": the words came from the
calibration's class of the index, which counts documents with catalogues. Now documents
are "these documents", a mix of sorts is "the index", and a kind filter narrows it (the
skills of a mixed index are a catalogue). The machine-readable flag is unchanged.

Real indexes (hashing embedder, calibrated), the real CLI, MCP server, LangChain tool and
coding agent.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from files import write_file

from skill_retriever.adapters.langchain import make_search_skills_tool
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.cli import main
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.fit_words import searched
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.responses import (
    NOTHING_FITS,
    is_nothing_fits,
    nothing_fits_phrase,
    nothing_fits_phrase_in,
)
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

OFF_TOPIC = "a recipe for sourdough bread with a crisp crust"
DOCS = "nothing in these documents fits this well"
MIXED = "nothing in the index fits this well"
RUNBOOKS = ("restore-db", "rotate-certs", "scale-workers", "drain-node", "failover-region", "purge-cache")


def _runbooks(root: Path) -> Path:
    for name in RUNBOOKS:
        words = name.replace("-", " ")
        write_file(root, f"{name}.md", f"# {words}\n\nHow to {words} in production: steps, checks and "
                                       f"rollback for the {name} runbook. Page the on-call before.\n")
    return root


@pytest.fixture(scope="module")
def docs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of runbooks indexed by the CLI, as a user does."""
    base = tmp_path_factory.mktemp("docs-words")
    ix = base / "ix"
    assert main(["index", str(_runbooks(base / "runbooks")), "--kind", "docs", "--index-dir", str(ix),
                 "--embedder", "hashing-64"]) == 0
    return ix


@pytest.fixture
def docs_index(docs_dir: Path) -> Iterator[Index]:
    with Index.open(docs_dir, embedder=HashingEmbedder(64), create=False) as index:
        yield index


def test_the_words_follow_the_kinds_the_search_could_answer() -> None:
    skills = {"skill": 5, "agent": 2, "other": 1}  # OTHER: a skills repository's Markdown
    assert searched(skills, None) == "catalogue" and searched({"tool": 9}, None) == "catalogue"
    assert searched({"document": 6}, None) == "documents"
    assert searched({"passage": 9, "entity": 30, "fact": 12}, None) == "passages"  # scaffold is no answer
    mixed = {"skill": 5, "document": 6, "incident": 0}
    assert searched(mixed, None) == "index"
    assert searched(mixed, frozenset({"skill", "agent"})) == "catalogue"
    assert searched(mixed, frozenset({"document"})) == "documents"
    assert searched(mixed, frozenset({"incident"})) == "index"  # none held: no word for it
    assert searched({"skill": 5, "incident": 3}, None) == searched({"other": 4}, None) == "index"
    assert nothing_fits_phrase("catalogue") == NOTHING_FITS == "nothing in the catalogue fits this well"
    assert nothing_fits_phrase("documents") == DOCS
    assert nothing_fits_phrase("passages") == "no passage in the index fits this well"
    assert nothing_fits_phrase("index") == MIXED
    for holding in ("catalogue", "documents", "passages", "index"):
        warning = f"{nothing_fits_phrase(holding)}; the closest: x"
        assert is_nothing_fits(warning) and nothing_fits_phrase_in(["other note", warning]) == nothing_fits_phrase(holding)


def test_a_folder_of_runbooks_is_no_catalogue_in_the_cli(docs_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["query", OFF_TOPIC, "--no-rerank", "-k", "3", "--index-dir", str(docs_dir)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("Nothing in these documents fits this well; the closest: ")
    assert "catalogue" not in out
    assert main(["query", OFF_TOPIC, "--no-rerank", "-k", "3", "--json", "--index-dir", str(docs_dir)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["fit"]["nothing_fits"] is True  # the flag as before
    assert next(w for w in answer["warnings"] if is_nothing_fits(w)).startswith(f"{DOCS}; the closest: ")
    assert "catalogue" not in json.dumps(answer["warnings"])


def test_a_folder_of_runbooks_is_no_catalogue_to_an_agent(docs_index: Index, coding_agent: ModuleType) -> None:
    server = build_server(docs_index, retriever=Retriever(docs_index, reranker=None))
    result = asyncio.run(server.call_tool("search", {"query": OFF_TOPIC, "k": 3}))
    assert not result.is_error, result.content
    answer: dict[str, Any] = result.structured_content
    assert answer["nothing_fits"] is True and answer["note"].startswith(f"{DOCS}; the closest: ")
    text = make_search_skills_tool(docs_index, rerank=False).invoke({"query": OFF_TOPIC, "k": 3})
    assert text.splitlines()[0].startswith(f"Note: {DOCS}; the closest: ") and "catalogue" not in text
    ctx = RetrievalContext(index=docs_index, config=RetrievalConfig(rerank=False))
    agent = coding_agent.build_agent_with_wrapper_node(retrieval=ctx)
    out = agent.invoke({"task": OFF_TOPIC, "k": 2, "kinds": ["document"]}, context=ctx)
    assert out["fit"]["nothing_fits"] is True
    assert "Nothing in these documents fits this task well. The 2 closest items" in out["prompt"]
    assert "catalogue" not in out["prompt"]


def test_a_mixed_index_says_index_and_a_kind_filter_narrows_it(docs_dir: Path, tmp_path: Path) -> None:
    with Index.open(tmp_path / "mix", embedder=HashingEmbedder(64), create=True) as index:
        index_sources(index, [sample_catalogue_path()])
        index_sources(index, [_runbooks(tmp_path / "runbooks")], kind="docs")
        retriever = Retriever(index, reranker=None)

        def said(kinds: list[str] | None) -> str:
            found = retriever.search(OFF_TOPIC, k=3, kinds=kinds)
            assert found.nothing_fits
            return next(w for w in found.warnings if is_nothing_fits(w))

        assert said(None).startswith(f"{MIXED}; the closest: ")
        assert said(["skill", "agent", "command"]).startswith(f"{NOTHING_FITS}; the closest: ")
        assert said(["document"]).startswith(f"{DOCS}; the closest: ")
