"""`SearchResult.reason`: the Python result says why it is in the answer in the line
``skill-retriever query`` prints under it, which the CLI's ``--json``, the LangChain
documents and the agent tool's artifact carry too. Before, only those three had it. One
function makes all four (`render.reason`, through `result_reasons`), so they agree: checked
on a real search (the bundled MiniLM) over the bundled sample catalogue. The line is made
when first read; it travels with ``to_dict``/``from_dict``, pickling and copies, and an
answer serialised before results had it reads back as "" rather than failing."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.cli import main
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.responses import SearchResponse, SearchResult
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

QUERY = "add structured logging and tracing to a new python service"


@pytest.fixture(scope="module")
def sample_dir(tmp_path_factory: pytest.TempPathFactory, real_embedder: SentenceTransformerEmbedder) -> Path:
    folder = tmp_path_factory.mktemp("reasons") / "ix"
    with Index.open(folder, embedder=real_embedder, create=True) as index:
        index_sources(index, [sample_catalogue_path()])
    return folder


def test_python_cli_langchain_and_the_tool_give_one_reason(sample_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["query", QUERY, "--index-dir", str(sample_dir), "--json", "-k", "8"]) == 0
    cli = {r["id"]: r["reason"] for r in json.loads(capsys.readouterr().out)["results"]}
    with Index.open(sample_dir) as index:
        response = Retriever(index).search(QUERY, k=20, principals=["*"])  # principals: the CLI's default
        python = {r.id: r.reason for r in response.results}
        assert len(python) == 20 and all(python.values()), python
        assert any(line.startswith("matches ") for line in python.values())
        assert any("requires " in line or "required by " in line for line in python.values())
        assert cli and all(cli[i] == python[i] for i in cli), (cli, python)
        docs = SkillRetriever(index=index, k=20, filters={"principals": ["*"]}).invoke(QUERY)
        assert {d.metadata["id"]: d.metadata["reason"] for d in docs} == python
        tool = make_search_skills_tool(index, k=20, principals=["*"])
        said = tool.invoke({"name": "search_skills", "args": {"query": QUERY}, "id": "1", "type": "tool_call"})
        assert {a["id"]: a["reason"] for a in said.artifact} == python
        again = Retriever(index).search(QUERY, k=20, principals=["*"])  # the same retriever's cache aside
        assert {r.id: r.reason for r in again.results} == python


def test_a_cached_answer_is_explained_too(sample_dir: Path) -> None:
    with Index.open(sample_dir) as index:
        retriever = Retriever(index)
        first = retriever.search(QUERY, k=5)
        hit = retriever.search(QUERY, k=5)
        assert hit.stats["cache"]["hit"] is True
        assert [r.reason for r in hit.results] == [r.reason for r in first.results] and hit.results[0].reason


def test_the_reason_travels_with_the_answer(sample_dir: Path) -> None:
    with Index.open(sample_dir) as index:
        response = Retriever(index).search(QUERY, k=5, principals=["*"])
    said = [r.reason for r in response.results]
    back = SearchResponse.from_dict(json.loads(json.dumps(response.to_dict())), snapshot_version=response.snapshot_version)
    assert back == response and [r.reason for r in back.results] == said
    assert [r.reason for r in pickle.loads(pickle.dumps(response)).results] == said
    assert [r.reason for r in copy.deepcopy(response).results] == said
    # an answer serialised before results had a reason reads back, with none
    old = response.to_dict()
    for r in old["results"]:
        del r["reason"]
    assert [r.reason for r in SearchResponse.from_dict(old).results] == [""] * len(said)
    # the graph's output state holds no reason (its results are the graph's own)
    assert all("reason" not in r for r in response.to_output()["results"])


def test_a_result_made_by_hand_has_no_reason() -> None:
    result = SearchResult(id="a", kind="skill", name="a", snippet="", fusion_score=0.0, rerank_score=None,
                          token_count=1, channels={})
    assert result.reason == "" and result.to_dict()["reason"] == ""
