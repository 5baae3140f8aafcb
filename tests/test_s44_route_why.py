"""Each response says why its route ran (``stats["plan_query"]["route_by"]`` and
``route_reason``; the text output's head line, briefly).

Found by a walkthrough on a passage corpus: ``stats.plan_query`` read ``{'route': 'ppr',
'default_route': 'by-complexity', 'complexity': 'simple'}``, as if the complexity router
had sent a simple question down the ppr route, and a ``--route quick`` answer did not say
it was forced. The passage defaults set ``route`` (the field a caller forces a route
with) where a catalogue's set ``default_route``; they set ``default_route`` now, and the
route every query takes is the one it took before (the table below was computed with the
code before the change, on the same indexes and queries).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.calibration.defaults import IndexDefaults, index_defaults
from skill_retriever.cli import main
from skill_retriever.config import RetrievalConfig, config_for
from skill_retriever.config_profiles import PROFILES
from skill_retriever.retriever import Retriever
from skill_retriever.route_why import choose_route, route_label
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")
CORPUS = [
    {"idx": 0, "title": "Lothair II", "text": "Lothair II was a king of Lotharingia. His mother was Ermengarde of Tours."},
    {"idx": 1, "title": "Ermengarde of Tours", "text": "Ermengarde of Tours died on 20 March 851 in Erstein."},
    {"idx": 2, "title": "Lotharingia", "text": "Lotharingia was a kingdom in Europe. Lothair II ruled Lotharingia."},
    {"idx": 3, "title": "Erstein", "text": "Erstein is a town in Alsace. Ermengarde of Tours is buried in Erstein."},
    {"idx": 4, "title": "Aschenbrödel", "text": "Aschenbrödel is a ballet by Johann Strauss II, first staged in Berlin."},
    {"idx": 5, "title": "Johann Strauss II", "text": "Johann Strauss II was an Austrian composer of waltzes, born in Vienna."},
]
QUERIES = {
    "passages": [
        "Lothair II", "Where did the mother of Lothair II die?", "Erstein town",
        "Which kingdom did the son of Ermengarde of Tours rule?",
        "In which city was the composer of the ballet Aschenbrödel born?",
        "what is a waltz",
    ],
    "sample": [
        "review a pull request", "lint the code", "skills that backend-architect depends on",
        "agents that use metrics-gateway", "dependants of adr-writing",
        "design a postgres schema and write an ADR for it then set up tracing", "incident", "write docs",
    ],
}
CALLS = {
    "default": {}, "route quick": {"route": "quick"}, "route ppr": {"route": "ppr"}, "route smart": {"route": "smart"},
    "profile multihop": dict(PROFILES["multihop"]), "use_calibration off": {"use_calibration": False},
    "fact_seeds 0": {"fact_seeds": 0}, "synonyms off": {"synonyms": False}, "specificity 1": {"specificity": 1.0},
    "fusion rrf": {"fusion": "rrf"}, "default_route by-complexity": {"default_route": "by-complexity"},
    "default_route smart": {"default_route": "smart"},
}
#: The first letter of each query's route, per call, computed with the code before
#: ``route_by`` existed (the passage defaults still setting ``route``).
BEFORE = {
    "passages": {
        "default": "pppppp", "route quick": "qqqqqq", "route ppr": "pppppp", "route smart": "ssssss",
        "profile multihop": "pppppp", "use_calibration off": "qqqspq", "fact_seeds 0": "pppppp",
        "synonyms off": "pppppp", "specificity 1": "pppppp", "fusion rrf": "pppppp",
        "default_route by-complexity": "pppppp", "default_route smart": "pppppp", "config_for multihop": "pppppp",
        "graph state route quick": "qqqqqq", "graph state profile multihop": "pppppp", "graph default": "pppppp",
    },
    "sample": {
        "default": "sspppsss", "route quick": "qqqqqqqq", "route ppr": "pppppppp", "route smart": "ssssssss",
        "profile multihop": "pppppppp", "use_calibration off": "qqppppqq", "fact_seeds 0": "sspppsss",
        "synonyms off": "sspppsss", "specificity 1": "sspppsss", "fusion rrf": "sspppsss",
        "default_route by-complexity": "qqppppqq", "default_route smart": "sspppsss", "config_for multihop": "pppppppp",
        "graph state route quick": "qqqqqqqq", "graph state profile multihop": "pppppppp", "graph default": "sspppsss",
    },
}
#: The one change, on purpose: a caller's own ``default_route`` on a passage corpus was
#: overruled by the defaults' forced route; the caller's setting wins now, as every other does.
CHANGED = {("passages", "default_route by-complexity"): "qqqspq", ("passages", "default_route smart"): "ssssss"}


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    root = tmp_path_factory.mktemp("route_why")
    (root / "hp").mkdir()
    (root / "hp" / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    assert main(["index", str(root / "hp" / "corpus.json"), "--index-dir", str(root / "passages"), *HASHING]) == 0
    assert main(["index", "--sample", "--index-dir", str(root / "sample"), *HASHING]) == 0
    yield {"passages": root / "passages", "sample": root / "sample"}


def _routes(path: Path, name: str) -> dict[str, str]:
    queries = QUERIES[name]
    with Index.open(path) as index:
        plain = Retriever(index, cache_size=0, reranker=None)
        multihop = Retriever(index, config_for("multihop"), cache_size=0, reranker=None)
        out = {call: "".join(plain.search(q, rerank=False, **kw).route[0] for q in queries) for call, kw in CALLS.items()}
        out["config_for multihop"] = "".join(multihop.search(q, rerank=False).route[0] for q in queries)
        ctx = plain.context()
        for call, extra in (("graph state route quick", {"route": "quick"}),
                            ("graph state profile multihop", {"profile": "multihop"}), ("graph default", {})):
            out[call] = "".join(plain.graph.invoke({"query": q, **extra}, context=ctx)["route_taken"][0] for q in queries)
    return out


@pytest.mark.parametrize("name", ["passages", "sample"])
def test_every_query_takes_the_route_it_took_before(indexes: dict[str, Path], name: str) -> None:
    expected = {call: CHANGED.get((name, call), routes) for call, routes in BEFORE[name].items()}
    assert _routes(indexes[name], name) == expected


def test_a_passage_answer_says_the_index_defaults_chose_ppr_not_its_complexity(indexes: dict[str, Path]) -> None:
    with Index.open(indexes["passages"]) as index:
        retriever = Retriever(index, cache_size=0, reranker=None)
        plan = retriever.search("Lothair II", rerank=False).stats["plan_query"]
        assert (plan["route"], plan["complexity"], plan["route_by"]) == ("ppr", "simple", "index defaults")
        assert plan["route_reason"] == "ppr for every question: the index's defaults for passages (default_route)"
        assert plan["default_route"] == "ppr"  # what applied, not "by-complexity"
        forced = retriever.search("Lothair II", rerank=False, route="quick").stats["plan_query"]
        assert (forced["route"], forced["route_by"]) == ("quick", "caller")
        assert "forced by the caller" in forced["route_reason"]
        own = retriever.search("Lothair II", rerank=False, default_route="smart").stats["plan_query"]
        assert (own["route"], own["route_by"]) == ("smart", "default_route")
        assert own["route_reason"] == "smart for every question: default_route='smart', set by the caller"
        bare = retriever.search("Lothair II", rerank=False, use_calibration=False).stats["plan_query"]
        assert (bare["route"], bare["route_by"], bare["route_reason"]) == ("quick", "complexity", "by complexity: simple -> quick")
        # A profile forces its route as route= does, in the graph's state as in a config.
        profiled = retriever.graph.invoke({"query": "Lothair II", "profile": "multihop"}, context=retriever.context())
        assert profiled["stats"]["plan_query"]["route_by"] == "caller"


def test_a_catalogue_answer_says_which_of_defaults_hop_or_caller_chose(indexes: dict[str, Path]) -> None:
    with Index.open(indexes["sample"]) as index:
        retriever = Retriever(index, cache_size=0, reranker=None)
        plan = retriever.search("review a pull request", rerank=False).stats["plan_query"]
        assert (plan["route"], plan["route_by"]) == ("smart", "index defaults")
        assert plan["route_reason"] == ("smart for every query without a typed hop: the index's defaults for a "
                                        "catalogue (default_route)")
        hop = retriever.search("skills that backend-architect depends on", rerank=False).stats["plan_query"]
        assert (hop["route"], hop["route_by"], hop["default_route"]) == ("ppr", "typed hop", "smart")
        assert "'backend-architect depends on'" in hop["route_reason"]
        table = retriever.search("review a pull request", rerank=False, default_route="by-complexity").stats["plan_query"]
        assert (table["route"], table["route_by"]) == ("quick", "complexity")
        assert table["route_reason"] == ("by complexity: simple -> quick (default_route='by-complexity', set by the "
                                         "caller; the index suggests 'smart')")


def test_the_query_head_line_names_the_reason(indexes: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    passages, sample = indexes["passages"], indexes["sample"]
    code, out, _ = run(capsys, "query", "Lothair II", "--index-dir", passages, "-k", "1")
    assert code == 0 and out.splitlines()[0].startswith("1 result (route ppr: index defaults, ")
    code, out, _ = run(capsys, "query", "Lothair II", "--index-dir", passages, "-k", "1", "--route", "quick")
    assert code == 0 and out.splitlines()[0].startswith("1 result (route quick: forced, ")
    code, out, _ = run(capsys, "query", "Lothair II", "--index-dir", passages, "-k", "1", "--route", "quick", "--json")
    assert code == 0 and json.loads(out)["stats"]["plan_query"]["route_by"] == "caller"
    code, out, _ = run(capsys, "query", "skills that backend-architect depends on", "--index-dir", sample, "-k", "1")
    assert code == 0 and "(route ppr: typed hop, " in out.splitlines()[0]
    code, out, _ = run(capsys, "stats", "--index-dir", passages)
    route = next(line for line in out.splitlines() if line.startswith("route: "))
    assert route == "route: ppr for every query, set by the index's defaults above (a query's own --route goes first)"


def test_the_sources_are_read_in_order() -> None:
    config = RetrievalConfig(default_route="smart")
    catalogue = IndexDefaults("catalogue", {"default_route": "smart"})
    assert choose_route(config, "simple", suggested=catalogue).by == "index defaults"
    assert choose_route(config, "simple", hop="x depends on", suggested=catalogue).by == "typed hop"
    learned = choose_route(config, "simple", hop="x depends on", calibrated="quick", suggested=catalogue)
    assert (learned.route, learned.by) == ("quick", "calibration")
    forced = choose_route(config.override(route="smart"), "simple", calibrated="quick", suggested=catalogue)
    assert (forced.route, forced.by) == ("smart", "caller")
    # With the index's suggestions turned off, a default_route is the caller's own.
    assert choose_route(config.override(use_calibration=False), "simple", suggested=catalogue).by == "default_route"
    assert route_label({"route_by": "complexity", "complexity": "medium"}) == "medium query"
    assert route_label({"route_by": "caller"}) == "forced"
    assert route_label({}) is None and route_label(None) is None  # an answer from before sources were recorded


def test_index_defaults_never_force_a_route(indexes: dict[str, Path]) -> None:
    with pytest.raises(ValueError, match="suggest default_route, never route"):
        IndexDefaults("passages", {"route": "ppr"})
    with Index.open(indexes["passages"]) as index:
        found = index_defaults(index.snapshot())
    assert found.corpus == "passages" and found.settings["default_route"] == "ppr" and "route" not in found.settings
