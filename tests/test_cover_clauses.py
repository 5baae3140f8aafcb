"""cover_clauses: a request with several asks gets a top that answers each, on a real
index (hashing embedder), with every filter applied to the asks' own searches."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

ROBOT = ["status", "data", "health", "battery", "position", "schedule", "logs", "firmware", "tasks", "sensors",
         "camera", "arm"]
#: The keyword channel counts a tenth: the fused list is mostly the embedding's.
LEAN = {"keyword": 0.1}
AIRCRAFT = ["fuel", "speed", "heading", "registration", "manufacturer"]
QUERY = ("Retrieve the status, data, health, battery, position and schedule of healthcare robot RBT5678 "
         "this month. Then check the altitude of aircraft ABC1234.")


def _tools(path: Path, private_altitude: bool = False) -> Index:
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    nodes = [
        Node(id=f"tool:robot-{w}", kind="tool", name=f"getRobot{w.title()}",
             description=f"Get the {w} of a healthcare robot this month",
             text=f"robot {w} healthcare robot status data health battery position schedule month")
        for w in ROBOT
    ]
    nodes += [Node(id=f"tool:aircraft-{w}", kind="tool", name=f"getAircraft{w.title()}",
                   description=f"The {w} of an aircraft", text=f"aircraft {w}") for w in AIRCRAFT]
    nodes.append(Node(id="tool:altitude", kind="tool", name="getAltitude",
                      description="Check the current altitude of an aircraft", text="aircraft altitude flight"))
    nodes.append(Node(id="tool:weather", kind="tool", name="getWeather", description="Weather forecast", text="rain"))
    if private_altitude:
        nodes.append(Node(id="tool:altitude-internal", kind="tool", name="getAltitudeInternal",
                          description="Check the altitude of aircraft ABC1234 altitude aircraft", text="aircraft altitude",
                          access=("ops",)))
    index.upsert(nodes, [])
    return index


def test_each_ask_of_a_request_reaches_the_top(tmp_path: Path) -> None:
    index = _tools(tmp_path / "i")
    retriever = Retriever(index, cache_size=0)
    # The fused list follows the whole query's embedding (the keyword channel counts little),
    # and the robot ask, most of the query's words, fills its top.
    plain = retriever.search(QUERY, k=4, rerank=False, clause_coverage=0.0, channels=LEAN)
    assert "tool:altitude" not in plain.ids
    covered = retriever.search(QUERY, k=4, rerank=False, channels=LEAN)  # a tool catalogue: on by default
    assert covered.stats["cover_clauses"]["clauses"] == 2
    assert covered.stats["cover_clauses"]["lambda"] == 0.5
    assert "tool:altitude" in covered.ids and covered.ids[0].startswith("tool:robot-")
    hit = next(r for r in covered.results if r.id == "tool:altitude")
    assert hit.channels["clauses"] == 1
    scores = [r.score for r in covered.results]
    assert scores == sorted(scores, reverse=True)  # the order the scores say
    # One ask: the list is the fused list.
    single = retriever.search("status of the healthcare robot", k=4, rerank=False)
    assert single.stats["cover_clauses"]["clauses"] == 1
    assert single.ids == retriever.search("status of the healthcare robot", k=4, rerank=False, clause_coverage=0.0).ids


def test_an_asks_search_admits_only_what_the_caller_may_see(tmp_path: Path) -> None:
    index = _tools(tmp_path / "i", private_altitude=True)
    retriever = Retriever(index, cache_size=0)
    public = retriever.search(QUERY, k=10, rerank=False)
    assert "tool:altitude-internal" not in public.ids and "tool:altitude" in public.ids
    ops = retriever.search(QUERY, k=10, rerank=False, principals=["ops"])
    assert "tool:altitude-internal" in ops.ids
    only_weather = retriever.search(QUERY, k=10, rerank=False, kinds=["skill"])
    assert only_weather.ids == []


def test_clause_coverage_is_checked_and_runs_before_a_reranker(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="clause_coverage"):
        RetrievalConfig(clause_coverage=1.5)
    with pytest.raises(ConfigError, match="clause_hits"):
        RetrievalConfig(clause_hits=0)
    index = _tools(tmp_path / "i")
    # The embedding fallback reranks the k items the asks chose.
    resp = Retriever(index, cache_size=0).search(QUERY, k=4, channels=LEAN)
    assert "tool:altitude" in resp.ids
