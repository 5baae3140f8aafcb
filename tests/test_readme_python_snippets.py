"""README.md's Python snippets, run as a reader copies them: each in a folder of its own that
holds what the text says to build first (the sample catalogue indexed as ``.idx`` and as
``.skill-retriever``, a ``skills-repo`` of two skills), with the names a snippet leaves to
the reader (``model``, ``llm``, ``tool_registry``) given. A snippet added to the README must
be run here, or named in ``NOT_RUN`` with the reason, so none goes stale unseen. Its JSON
graph example is read here too, as ``index`` reads a file."""

from __future__ import annotations

import re
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from bigtool_support import ScriptedChatModel, convert_currency, weather_forecast
from files import write_file
from langchain_core.messages import AIMessage

README = Path(__file__).resolve().parents[1] / "README.md"

# the first line of each snippet, and how it runs
SEARCH = "from skill_retriever.stores.index import Index\nfrom skill_retriever.retriever import Retriever"
CLOSE = 'with Index.open(".idx") as index, Retriever(index) as retriever:'
INDEXING = "from skill_retriever.indexing import index_sources"
SUBGRAPH = "from typing_extensions import TypedDict"
RETRIEVER = "from skill_retriever.adapters.langchain import SkillRetriever"
TOOLS = "from skill_retriever.adapters.langchain import make_search_skills_tool"
NOT_RUN = {
    # needs a running `langgraph dev`; tests/adapters/test_langgraph_dev_server.py drives one
    "from langgraph_sdk import get_client": "langgraph dev",
}


def python_snippets() -> dict[str, str]:
    text = README.read_text(encoding="utf-8")
    found = {}
    for block in re.findall(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        key = next(k for k in (SEARCH, CLOSE, INDEXING, SUBGRAPH, RETRIEVER, TOOLS, *NOT_RUN) if block.startswith(k))
        found[key] = block
    return found


def run(key: str, where: Path, monkeypatch: pytest.MonkeyPatch, **given: Any) -> dict[str, Any]:
    monkeypatch.chdir(where)
    # a module of its own, as a reader's script is: LangGraph reads the state's annotations
    # through sys.modules[MyState.__module__]
    module = types.ModuleType("readme_snippet")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    module.__dict__.update(given)
    exec(compile(python_snippets()[key], f"README.md ({key.splitlines()[0]})", "exec"), module.__dict__)  # noqa: S102  (the README's own text)
    return module.__dict__


@pytest.fixture
def here(tmp_path: Path, sample_index_path: Path) -> Path:
    """A reader's folder: the sample catalogue indexed as ``.idx`` and ``.skill-retriever``."""
    for name in (".idx", ".skill-retriever"):
        shutil.copytree(sample_index_path, tmp_path / name)
    return tmp_path


def test_every_python_snippet_of_the_readme_is_run_here_or_said_why_not() -> None:
    found = python_snippets()  # a snippet no key starts fails inside, with StopIteration
    assert set(found) == {SEARCH, CLOSE, INDEXING, SUBGRAPH, RETRIEVER, TOOLS, *NOT_RUN}


def test_the_search_snippets_run(here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    first = run(SEARCH, here, monkeypatch)
    assert first["hits"].results and all(r.kind in ("skill", "agent") for r in first["hits"].results)
    assert capsys.readouterr().out
    first["index"].close()
    second = run(CLOSE, here, monkeypatch, Index=first["Index"], Retriever=first["Retriever"])
    assert second["hits"].results


def test_the_indexing_snippet_prints_what_its_comments_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b"):
        write_file(tmp_path / "skills-repo", f"{name}/SKILL.md", f"---\nname: {name}\ndescription: does {name}\n---\nBody.\n")
    run(INDEXING, tmp_path, monkeypatch)
    said = re.findall(r"^\s*print\(.*\)\s+# (.*)$", python_snippets()[INDEXING], re.MULTILINE)
    assert len(said) == 2  # each print's comment says what it prints
    assert capsys.readouterr().out.splitlines() == said


def test_the_subgraph_snippet_builds_a_parent_graph_that_runs(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from langgraph.graph import END, START

    names = run(SUBGRAPH, here, monkeypatch)
    builder, ctx = names["builder"], names["ctx"]
    builder.add_node("wrapper", names["retrieve_skills"])
    builder.add_edge(START, "skill_retriever")
    builder.add_edge("skill_retriever", "wrapper")
    builder.add_edge("wrapper", END)
    out = builder.compile().invoke({"query": "add tracing", "k": 3, "task": "write a migration"}, context=ctx)
    assert len(out["results"]) == 3 and out["skills"] and "fit" in out
    ctx.index.close()


def test_the_langchain_retriever_snippet_runs(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = run(RETRIEVER, here, monkeypatch)
    assert names["docs"] and {d.metadata["kind"] for d in names["docs"]} <= {"skill", "hook"}
    names["retriever"].close()


def test_the_agent_tool_and_bigtool_snippet_runs(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = ScriptedChatModel(responses=[AIMessage(content="done")])
    registry = {"convert_currency": convert_currency, "weather_forecast": weather_forecast}
    names = run(TOOLS, here, monkeypatch, model=model, llm=model, tool_registry=registry)
    assert set(names["search_skills"].args) == {"query", "kinds", "k", "token_budget", "budget_fill"}
    out = names["agent"].invoke({"messages": [("user", "convert 5 dollars to euro")]})
    assert out["messages"][-1].content == "done"
    names["tools_index"].close()
    names["index"].close()


def test_the_json_graph_block_is_read_as_its_text_says(tmp_path: Path) -> None:
    """The README's one ```json graph, copied to a file and read as ``index`` reads it: no
    problem, its ``severity`` in ``attrs`` (as the sentence before it says), ``access``,
    ``created`` and the tag kept, the ``AFFECTS`` edge read."""
    from skill_retriever.indexing import ingest

    blocks = re.findall(r"^```json\n(\{\"nodes\".*?)^```", README.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE)
    assert len(blocks) == 1
    graph = write_file(tmp_path, "graph.json", blocks[0])
    read = ingest(graph)
    nodes = {node.id: node for node in read.nodes}
    assert not read.problems and set(nodes) == {"svc:checkout", "inc:4812"}
    incident = nodes["inc:4812"]
    assert incident.attrs["severity"] == "high" and incident.access == ("oncall",)
    assert incident.created is not None and incident.created.isoformat() == "2026-11-01T12:00:00+00:00"
    assert nodes["svc:checkout"].tags == ("payments",)
    assert [(e.source, e.target, e.kind) for e in read.edges] == [("inc:4812", "svc:checkout", "AFFECTS")]
