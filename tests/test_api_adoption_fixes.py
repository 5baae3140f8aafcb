"""Defects a developer adopting the Python API from the README met on a real catalogue:

- ``search_many("one query")`` ran one search per character of the string.
- ``Retriever("/path/to/index")`` and ``Retriever(index, {"k": 3})`` were accepted, then
  failed at the first search with ``AttributeError`` ('str' object has no attribute
  'snapshot'; 'dict' object has no attribute 'rerank').
- ``k=numpy.int64(5)`` (a number from a data frame) was refused, and a wrong type was
  worded as Python's ``<class 'int'>``.
- Filters that admit no item (a kind the index does not hold, a tag no item has, a
  ``since`` over undated items, principals that see nothing) gave an empty answer with no
  warning in Python and in ``query --json``; only the CLI's text said so, for kinds.
- The response had no JSON form of its own (``to_dict``), no short ``str()`` (printing it
  dumped every field of every result) and no total time.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tiny_graph import PRIVATE_ID, tiny_edges, tiny_nodes

from skill_retriever.cli import main
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Node
from skill_retriever.responses import SearchResponse, SearchResult
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture(scope="module")
def retriever(shared_tiny_index: Index) -> Retriever:
    return Retriever(shared_tiny_index, reranker=None)


# -- arguments that were taken the wrong way --------------------------------------------------


def test_search_many_refuses_one_string(retriever: Retriever) -> None:
    with pytest.raises(ConfigError, match=r"^search_many takes a list of queries, got one string; use search"):
        retriever.search_many("postgres migrations")
    assert len(retriever.search_many(["postgres migrations"], k=2)) == 1


def test_a_path_or_a_dict_for_the_retriever_is_refused_at_once(shared_tiny_index: Index, tmp_path: Path) -> None:
    for path in (str(tmp_path), tmp_path):
        with pytest.raises(ConfigError, match=r"^index must be an Index, got the path .*Retriever\(Index\.open\(path\)\)"):
            Retriever(path)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^index must be an Index \(Retriever\(Index\.open\(path\)\)\), got int$"):
        Retriever(3)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^config must be a RetrievalConfig \(RetrievalConfig\(\*\*settings\)"):
        Retriever(shared_tiny_index, {"k": 3})  # type: ignore[arg-type]
    assert Retriever(shared_tiny_index, RetrievalConfig(k=3), reranker=None).search("postgres").results


def test_numpy_integers_are_whole_numbers(retriever: Retriever) -> None:
    plain = retriever.search("postgres migrations", k=2, budget=100_000)
    numpy = retriever.search("postgres migrations", k=np.int64(2), budget=np.int32(100_000))  # type: ignore[arg-type]
    assert numpy.ids == plain.ids and len(numpy.ids) == 2
    json.dumps(numpy.to_dict())  # no numpy integer left in the stats


def test_a_wrong_type_is_worded_as_a_person_would() -> None:
    with pytest.raises(ConfigError) as info:
        RetrievalConfig(k="5")  # type: ignore[arg-type]
    assert str(info.value) == "setting 'k' has the wrong type: '5' is str, expected int"
    with pytest.raises(ConfigError) as info:
        RetrievalConfig(channel_weights=[1.0])  # type: ignore[arg-type]
    assert "expected Mapping[str, float]" in str(info.value) and "collections.abc" not in str(info.value)


# -- filters that admit nothing say so --------------------------------------------------------


@pytest.mark.parametrize(("asked", "said"), [
    ({"kinds": ["plugin"]}, "the index holds no plugin items you may see; `stats` lists its kinds"),
    # the private document is "no document" to a caller who may not see it, like a kind never indexed
    ({"kinds": ["document", "plugin"]}, "the index holds no document, plugin items you may see; `stats` lists its kinds"),
    ({"filters": {"tags": ["nope"]}}, "no item you may see passes the filters (tags nope), so every query"),
    ({"filters": {"kinds": ["skill"], "since": "2030-01-01"}},
     "no item you may see passes the filters (kinds skill; since 2030-01-01T00:00:00+00:00), so every query"),
])
def test_filters_that_admit_nothing_are_a_warning(retriever: Retriever, asked: dict[str, object], said: str) -> None:
    response = retriever.search("postgres migrations", **asked)  # type: ignore[arg-type]
    assert response.results == []
    assert response.warnings and response.warnings[-1].startswith(said), response.warnings


def test_the_subgraph_says_it_too(retriever: Retriever) -> None:
    # The last phase says it, so an agent that runs the compiled graph as its subgraph,
    # without the Retriever around it, is told as well.
    out = retriever.graph.invoke(
        {"query": "postgres migrations", "filters": {"tags": ["nope"]}}, context=retriever.context()
    )
    assert out["results"] == []
    assert any(w.startswith("no item you may see passes the filters (tags nope)") for w in out["warnings"])


def test_no_filter_warning_when_the_filters_admit_something(retriever: Retriever) -> None:
    for asked in ({"kinds": ["skill", "plugin"]}, {"budget": 0, "kinds": ["skill"]}, {"principals": ["team-a"],
                                                                                     "kinds": ["document"]}):
        response = retriever.search("postgres migrations", **asked)  # type: ignore[arg-type]
        assert not any("you may see" in w for w in response.warnings), (asked, response.warnings)


def test_principals_that_see_nothing_are_told(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    try:
        labelled = [Node(**{**{f: getattr(n, f) for f in ("id", "kind", "name", "text")}, "access": ("team-a",)})
                    for n in tiny_nodes()]
        index.add(labelled, tiny_edges())
        retriever = Retriever(index, reranker=None)
        response = retriever.search("postgres migrations", principals=["nobody"])
        assert response.results == [] and response.warnings[-1] == (
            "no item of the index is visible to the principals nobody, so every query comes back empty; "
            "check the principals"
        )
        assert "a caller without principals (public items only)" in retriever.search("postgres").warnings[-1]
        assert retriever.search("postgres migrations", principals=["team-a"]).results
    finally:
        index.close()


def test_query_json_carries_the_filter_warning(shared_tiny_index: Index, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    ix = str(shared_tiny_index.path)
    assert main(["query", "postgres", "--kinds", "plugin", "--json", "--index-dir", ix]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"] == [] and out["warnings"] == [
        "the index holds no plugin items you may see; `stats` lists its kinds"
    ]
    assert main(["query", "postgres", "--kinds", "plugin", "--index-dir", ix]) == 0
    text = capsys.readouterr().out
    assert text.count("the index holds no plugin items") == 1 and "note: the index holds no plugin" in text


def test_the_private_item_stays_private(retriever: Retriever) -> None:
    response = retriever.search("checkout runbook", kinds=["document"])
    assert PRIVATE_ID not in json.dumps(response.to_dict()) and "checkout-runbook" not in " ".join(response.warnings)


# -- the response itself --------------------------------------------------------------------


def test_to_dict_is_the_cli_json_and_reads_back(retriever: Retriever, shared_tiny_index: Index,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    response = retriever.search("roll back a deploy that broke checkout", k=4, route="ppr")
    assert any(r.path for r in response.results)  # a path survives the round trip too
    back = SearchResponse.from_dict(json.loads(json.dumps(response.to_dict())), response.snapshot_version)
    assert back == response
    assert SearchResult.from_dict(response.results[0].to_dict()) == response.results[0]
    capsys.readouterr()
    main(["query", "roll back a deploy that broke checkout", "-k", "4", "--json", "--index-dir",
          str(shared_tiny_index.path)])
    assert set(json.loads(capsys.readouterr().out)) == set(response.to_dict())


def test_str_is_a_summary_and_repr_one_line(retriever: Retriever) -> None:
    response = retriever.search("postgres migrations", k=2, budget=100_000)
    lines = str(response).splitlines()
    assert lines[0].startswith("2 results (route ") and "no reranking" in lines[0]
    by = response.stats["plan_query"]["route_by"]  # what chose the route, as the CLI says it
    assert lines[0].startswith(f"2 results (route {response.route}: ") and by != "caller", lines[0]
    forced = retriever.search("postgres migrations", k=2, budget=100_000, route="quick")
    assert str(forced).startswith("2 results (route quick: forced, ")
    assert lines[1].startswith(f" 1. {response.results[0].name} [{response.results[0].kind}] score ")
    assert response.results[0].snippet not in str(response)
    assert response.results[0].snippet not in repr(response) and "\n" not in repr(response)  # test_api_repr


def test_total_ms_sums_the_phases(retriever: Retriever) -> None:
    response = Retriever(retriever.index, reranker=None, cache_size=0).search("postgres migrations")
    phases = [st["ms"] for st in response.stats.values() if isinstance(st, dict) and "ms" in st]
    assert len(phases) >= 5 and response.total_ms == pytest.approx(sum(phases), abs=0.01) and response.total_ms > 0

