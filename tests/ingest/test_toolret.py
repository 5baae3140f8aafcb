"""ingest_toolret and load_toolret_queries on a tiny folder and on the real sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.toolret import ToolQuery, ingest_toolret, load_toolret_queries
from skill_retriever.model import EdgeKind, NodeKind

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "toolret"
SETS = sorted(p.name for p in DATA.iterdir() if (p / "tools.jsonl").is_file()) if DATA.is_dir() else []


def _jsonl(path: Path, rows: list[Any]) -> None:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n",
                    encoding="utf-8")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    _jsonl(tmp_path / "tools.jsonl", [
        {"id": "GET /search/movie", "name": "Search Movies", "description": "Search for movies.",
         "method": "GET", "parameters": [
             {"name": "query", "in": "query", "schema": {"type": "string"}, "required": True,
              "description": "Text to search."},
             {"$ref": "#/components/parameters/QueryMarket"}]},
        {"id": "getWeather", "name": "getWeather", "description": "Weather for a city",
         "field": "Meteorology/Forecasting",
         "parameters": {"city": {"type": "str", "description": "City name"},
                        "days": {"type": "int", "description": "How many days"}},
         "required": ["city"], "responses": {"forecast": {"type": "str", "description": "Text"}}},
        {"id": "Clique::Concert", "name": "Concert", "description": "", "tool_name": "Clique",
         "category": "Data", "required_parameters": [
             {"name": "id_conc", "type": "string", "description": "", "default": "x"}],
         "optional_parameters": []},
        {"id": "Clique::Artist", "name": "Artist", "description": "Artist info",
         "tool_name": "Clique", "category": "Data", "required_parameters": [],
         "optional_parameters": []},
        {"id": "Clique::Venue", "name": "Venue", "description": "Venue info",
         "tool_name": "Clique", "category": "Data"},
        {"id": "bare", "name": "", "description": ""},
        "{not json",
        "[1, 2]",
        {"name": "no id"},
        {"id": "getWeather", "name": "dup", "description": "second copy"},
        {"id": "", "name": "blank id", "description": "x"},
        "",
    ])
    _jsonl(tmp_path / "edges.jsonl", [
        {"source": "GET /search/movie", "target": "getWeather", "type": "connected_tools"},
        {"source": "getWeather", "target": "bare", "type": "tool_graph"},
        {"source": "bare", "target": "getWeather", "type": "depends_on"},
        {"source": "bare", "target": "GET /search/movie", "type": "similar"},
        {"source": "bare", "target": "ghost", "type": "tool_graph"},
        {"source": "bare", "target": "bare", "type": "tool_graph"},
        {"source": "getWeather", "target": "bare", "type": "tool_graph"},
        "oops",
    ])
    _jsonl(tmp_path / "queries.jsonl", [
        {"id": "q1", "query": "find a movie", "relevant": ["GET /search/movie"], "split": "test"},
        {"id": "q2", "query": "concert", "relevant": ["Clique::Concert"], "group": "G1_tool"},
        {"id": "q3", "query": "weather", "relevant": ["getWeather", "bare"]},
    ])
    return tmp_path


def test_tools_become_tool_nodes_with_rendered_parameters(folder: Path) -> None:
    result = ingest_toolret(folder)
    nodes = {n.id: n for n in result.nodes}
    assert list(nodes) == ["GET /search/movie", "getWeather", "Clique::Concert", "Clique::Artist",
                           "Clique::Venue", "bare"]
    assert all(n.kind is NodeKind.TOOL for n in nodes.values())
    movie = nodes["GET /search/movie"]
    assert movie.name == "Search Movies"
    assert movie.text == ("Search for movies.\n"
                          "Parameters: query (string, query, required): Text to search.; QueryMarket")
    assert movie.attrs == {
        "method": "GET", "source_root": str(folder.resolve()), "source_name": folder.name
    }
    weather = nodes["getWeather"]
    assert weather.text == ("Weather for a city\n"
                            "Parameters: city (str, required): City name; days (int): How many days\n"
                            "Returns: forecast (str): Text")
    assert weather.tags == ("Meteorology/Forecasting",)
    concert = nodes["Clique::Concert"]  # empty description: parameters and group still say something
    assert concert.text == "Parameters: id_conc (string, required)\nTool: Clique. Category: Data."
    assert concert.tags == ("Data",)
    assert concert.attrs["tool_name"] == "Clique" and concert.attrs["category"] == "Data"
    assert nodes["bare"].name == "bare" and nodes["bare"].text == "bare"


def test_what_names_or_describes_a_tool_is_searchable(tmp_path: Path) -> None:
    """An OpenAPI operation's method and path, a plugin's display name and its description
    for the model reach the text (what BM25 and the embedding read); copies of what the text
    already says do not."""
    _jsonl(tmp_path / "tools.jsonl", [
        {"id": "GET /me/playlists", "name": "Get Current User's Playlists",
         "description": "Playlists owned or followed.", "method": "get", "path": "/me/playlists"},
        {"id": "airquality", "name": "airquality", "name_for_human": "Gimmee Air Quality",
         "description": "Air quality forecast.",
         "description_for_model": "Planning something outdoors?\nGet the 2-day forecast for a US zip code."},
        {"id": "echo", "name": "echo", "name_for_human": "Echo", "description": "Says it back.",
         "description_for_model": "Says it back.", "path": "/echo"},
    ])
    nodes = {n.id: n for n in ingest_toolret(tmp_path).nodes}
    assert nodes["GET /me/playlists"].text == "Playlists owned or followed.\nGET /me/playlists"
    air = nodes["airquality"]
    assert air.text == ("Air quality forecast.\nGimmee Air Quality\n"
                        "Planning something outdoors?\nGet the 2-day forecast for a US zip code.")
    assert "description_for_model" not in air.attrs and air.attrs["name_for_human"] == "Gimmee Air Quality"
    # same name but for case, same description, a path with no method: nothing added
    assert nodes["echo"].text == "Says it back."


def test_edges_are_mapped_and_bad_lines_reported(folder: Path) -> None:
    result = ingest_toolret(folder)
    edges = {(e.source, e.target): e for e in result.edges}
    assert edges[("GET /search/movie", "getWeather")].kind is EdgeKind.FEEDS
    assert edges[("getWeather", "bare")].kind is EdgeKind.FEEDS
    assert edges[("bare", "getWeather")].kind is EdgeKind.DEPENDS_ON
    similar = edges[("bare", "GET /search/movie")]
    assert similar.kind is EdgeKind.RELATED_TO and similar.description == "similar"
    siblings = [e for e in result.edges if e.description == "both APIs of Clique"]
    assert {(e.source, e.target) for e in siblings} == {
        ("Clique::Concert", "Clique::Artist"), ("Clique::Concert", "Clique::Venue"),
        ("Clique::Artist", "Clique::Venue")}
    assert all(e.kind is EdgeKind.RELATED_TO for e in siblings)
    assert len(result.edges) == 4 + 3
    tools_problems = [p.message for p in result.problems if p.path.endswith("tools.jsonl")]
    edge_problems = [p.message for p in result.problems if p.path.endswith("edges.jsonl")]
    assert [m.split(":")[0] for m in tools_problems] == [
        "line 7", "line 8", "line 9", "line 10", "line 11",
        "its tools and relations are kept as indexed"]  # edges.jsonl line 8 went unread
    assert "not JSON" in tools_problems[0] and "not a JSON object" in tools_problems[1]
    assert "without an id" in tools_problems[2] and "duplicate tool id 'getWeather'" in tools_problems[3]
    assert "invalid" in tools_problems[4]
    assert edge_problems == [
        "line 5: tool 'ghost' does not exist (or its line was rejected); edge dropped",
        "line 6: self edge on 'bare' dropped",
        "line 7: repeats edge 'getWeather|FEEDS|bare'",
        "line 8: not JSON at column 1: Expecting value",
    ]


def test_sibling_edges_can_be_limited_or_turned_off(folder: Path) -> None:
    def count(**kw: Any) -> int:
        return sum(e.description.startswith("both APIs") for e in ingest_toolret(folder, **kw).edges)

    assert count() == 3
    assert count(max_group=2) == 0
    assert count(sibling_edges=False) == 0


def test_queries(folder: Path) -> None:
    assert load_toolret_queries(folder) == [
        ToolQuery("q1", "find a movie", ("GET /search/movie",), "test"),
        ToolQuery("q2", "concert", ("Clique::Concert",), "G1_tool"),
        ToolQuery("q3", "weather", ("getWeather", "bare"), None),
    ]
    with (folder / "queries.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"id": "q4", "query": "x", "relevant": "not a list"}\n')
    with pytest.raises(IngestError, match=r"queries.jsonl:4"):
        load_toolret_queries(folder)


def test_missing_files_raise(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no tools.jsonl"):
        ingest_toolret(tmp_path)
    with pytest.raises(IngestError, match="no queries.jsonl"):
        load_toolret_queries(tmp_path)


@pytest.mark.skipif(not SETS, reason="shared data absent")
@pytest.mark.parametrize("name", SETS)
def test_real_sets_every_relevant_tool_exists(name: str) -> None:
    result = ingest_toolret(DATA / name)
    ids = {n.id for n in result.nodes}
    assert len(ids) == len(result.nodes)
    assert all(e.source in ids and e.target in ids for e in result.edges)
    queries = load_toolret_queries(DATA / name)
    assert queries and all(q.relevant for q in queries)
    assert {r for q in queries for r in q.relevant} <= ids
    # The only problems in the shipped data: UltraTool's five self loops.
    assert all("self edge" in p.message for p in result.problems)
    source = json.loads((DATA / name / "SOURCE.json").read_text(encoding="utf-8"))
    assert len(result.nodes) == source["n_tools"]
    assert len(queries) == source["n_queries"]


@pytest.mark.skipif("restbench-tmdb" not in SETS, reason="shared data absent")
def test_restbench_tmdb() -> None:
    result = ingest_toolret(DATA / "restbench-tmdb")
    assert len(result.nodes) == 54 and result.problems == []
    # no edges.jsonl: every edge is a REST operation's link to what produces its parameters
    assert result.edges and all(e.kind is EdgeKind.DEPENDS_ON for e in result.edges)
    links = {(e.source, e.target) for e in result.edges}
    assert ("GET /movie/{movie_id}/credits", "GET /search/movie") in links
    assert ingest_toolret(DATA / "restbench-tmdb", operation_edges=False).edges == []
    queries = load_toolret_queries(DATA / "restbench-tmdb")
    ids = {n.id for n in result.nodes}
    assert len(queries) == 100
    assert all(r in ids for q in queries for r in q.relevant)
    credits = next(n for n in result.nodes if n.id == "GET /movie/{movie_id}/credits")
    assert credits.attrs["path"] == "/movie/{movie_id}/credits"
