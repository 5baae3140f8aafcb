"""The CLI's JSON in shapes a program can rely on (these need two one-line patches in files
owned elsewhere: ``responses._CLI_RESULT_KEYS`` names the keys ``query --json`` adds, and
``cli.cmd_stats`` prints `stats_lines.stats_json`).

``SearchResponse.from_dict`` reads ``query --json`` back although each result now carries
``reason``, ``matches``, ``requires`` and ``required_by`` (it refused any key it did not
know, so the new keys would have broken it); ``stats --json`` always holds
``unfinished_runs`` (``{}`` when every run finished), as it holds every other key it lists.
"""

from __future__ import annotations

import json

import pytest
from cli_calls import run

from skill_retriever.responses import SearchResponse
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")
QUERY = "scaffold a FastAPI service with tracing"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> str:
    from skill_retriever.cli import main

    ix = str(tmp_path_factory.mktemp("sample") / "ix")
    assert main(["index", "--sample", "--index-dir", ix, *HASHING]) == 0
    return ix


def test_from_dict_reads_the_query_json_back(sample: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "query", QUERY, "--index-dir", sample, "-k", "3", "--json", "--no-rerank")
    assert code == 0, err
    data = json.loads(out)
    assert all({"reason", "matches", "requires", "required_by"} <= set(r) for r in data["results"])
    back = SearchResponse.from_dict(data)
    assert [r.id for r in back.results] == [r["id"] for r in data["results"]]
    with Index.open(sample) as index:  # the fields it keeps are the search's own
        first = Retriever(index).search(QUERY, k=1, rerank=False).results[0]
    assert back.results[0] == first


def test_stats_json_always_holds_unfinished_runs(sample: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", "--index-dir", sample, "--json")
    assert code == 0, err
    status = json.loads(out)
    assert status["unfinished_runs"] == {}
    always = {"path", "version", "embedder", "nodes", "edges", "node_kinds", "edge_kinds", "vectors",
              "calibration", "defaults", "server", "sources", "unfinished_runs"}
    assert always <= set(status)
