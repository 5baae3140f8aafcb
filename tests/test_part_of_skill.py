"""A result that is a file of a skill says which skill: a template inside a skill's folder
with a name and a description of its own is an item (``other``), and sickn33's app-builder
keeps its ``templates/python-fastapi/TEMPLATE.md`` under a nested ``templates/SKILL.md``.
``query "Dockerfile for a FastAPI app"`` put ``python-fastapi [other]`` first with nothing
saying it was app-builder's. Every face now says "part of skill app-builder" (the outermost
skill, the one a user installs): the CLI's reason line, ``--json`` (``reason`` and
``part_of``), `SearchResult.reason`, the MCP ``search`` tool and the LangChain documents.
Only the words change: the reason is made for the results the search ranked.

Each builds a small real index (``--embedder hashing-64``: no model) in ``tmp_path`` and
runs the real CLI, or the adapters over the index it wrote.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.cli import main
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")
QUERY = "FastAPI REST API template with SQLAlchemy"
PART = "part of skill app-builder"


def md(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n{body}\n"


@pytest.fixture(scope="module")
def repo_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sickn33's layout: app-builder, its nested templates/SKILL.md and a template under
    that; a skill of its own beside them."""
    root = tmp_path_factory.mktemp("parts")
    repo = root / "repo"
    write_file(repo, "skills/app-builder/SKILL.md",
               md("app-builder", "Main application building orchestrator.", "Read templates/SKILL.md."))
    write_file(repo, "skills/app-builder/templates/SKILL.md",
               md("templates", "Project scaffolding templates for new applications.", "Pick one template."))
    write_file(repo, "skills/app-builder/templates/python-fastapi/TEMPLATE.md",
               md("python-fastapi", "FastAPI REST API template principles. SQLAlchemy, Pydantic, Alembic.",
                  "A FastAPI service with SQLAlchemy models and Alembic migrations."))
    write_file(repo, "skills/fastapi-pro/SKILL.md",
               md("fastapi-pro", "Build async APIs with FastAPI and SQLAlchemy.", "FastAPI REST API patterns."))
    assert main([str(a) for a in ("index", repo, "--index-dir", root / "ix", *HASHING)]) == 0
    return root / "ix"


def test_the_cli_line_and_json_say_the_skill_a_template_is_part_of(
    repo_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "query", QUERY, "--index-dir", repo_index, "-k", "10")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "python-fastapi [other]" in line)
    assert lines[at + 1].strip().startswith(f"{PART}; ")  # first, then what found it
    skill_line = next(i for i, line in enumerate(lines) if "fastapi-pro [skill]" in line)
    assert "part of skill" not in lines[skill_line + 1]  # a skill of its own says nothing
    code, out, _ = run(capsys, "query", QUERY, "--index-dir", repo_index, "-k", "10", "--json")
    results = {r["name"]: r for r in json.loads(out)["results"]}
    template = results["python-fastapi"]
    assert template["reason"].startswith(PART)
    assert template["part_of"] == {"id": "repo/skills/app-builder/SKILL.md", "name": "app-builder"}
    # the nested SKILL.md is a file of app-builder too (Claude Code registers none below it)
    assert results["templates"]["part_of"]["name"] == "app-builder"
    assert results["fastapi-pro"]["part_of"] is None
    assert results["app-builder"]["part_of"] is None


def test_the_python_result_the_mcp_tool_and_langchain_say_it(
    repo_index: Path,
) -> None:
    with Index.open(repo_index) as index:
        retriever = Retriever(index, reranker=None)
        response = retriever.search(QUERY, k=10)
        by_name = {r.name: r for r in response.results}
        assert by_name["python-fastapi"].reason.startswith(PART)
        assert not by_name["fastapi-pro"].reason.startswith("part of")
        server = build_server(index, retriever=retriever)
        answer = asyncio.run(server.call_tool("search", {"query": QUERY, "k": 10}))
        hits = {h["name"]: h for h in answer.structured_content["results"]}
        assert hits["python-fastapi"]["reason"].startswith(PART)
        docs = SkillRetriever(index=index, k=10, reranker=None).invoke(QUERY)
        meta = {d.metadata["name"]: d.metadata for d in docs}
        assert meta["python-fastapi"]["reason"].startswith(PART)
