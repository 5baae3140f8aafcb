"""A catalogue of long items leaves the smart route's ranking (rank_multifactor) out of
the fusion (calibration.long_items): the graph channel is not fused and gap filling does
not run; a catalogue of short items keeps both, the caller's setting wins either way, and
a typed hop's walk still counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from long_catalogue import QUERY, cli_query, long_catalogue

from skill_retriever.calibration.defaults import decide
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import resolve
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Edge, EdgeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture()
def long_items(tmp_path: Path) -> Index:
    index = long_catalogue(tmp_path / "long", long=True)
    yield index
    index.close()


def test_long_items_suggest_leaving_the_ranking_out(long_items: Index, tmp_path: Path) -> None:
    found = decide(long_items.snapshot())
    assert found.settings["multifactor_ranking"] is False
    assert any("ranking" in r and "left out of the fusion" in r for r in found.reasons)
    assert resolve(RetrievalConfig(), {}, long_items.snapshot()).multifactor_ranking is False
    # The caller's value wins.
    assert resolve(RetrievalConfig(multifactor_ranking=True), {}, long_items.snapshot()).multifactor_ranking is True
    short = long_catalogue(tmp_path / "short", long=False)
    assert "multifactor_ranking" not in decide(short.snapshot()).settings
    assert any("ranking is fused" in r for r in decide(short.snapshot()).reasons)
    assert resolve(RetrievalConfig(), {}, short.snapshot()).multifactor_ranking is True
    # Without the index's suggestions, the built-in behaviour: the ranking fused.
    assert resolve(RetrievalConfig(use_calibration=False), {}, long_items.snapshot()).multifactor_ranking is True
    short.close()


def test_the_default_search_fuses_no_smart_ranking_and_fills_no_gaps(long_items: Index, tmp_path: Path) -> None:
    retriever = Retriever(long_items, cache_size=0)
    query = f"{QUERY} with the queueing simpy invoice kubernetes sourdough typescript regex backup helpers"
    default = retriever.search(query, k=5, rerank=False)
    assert default.route == "smart"
    assert "graph" not in default.stats["fuse_rrf"]["channels"]
    assert default.stats["rank_multifactor"]["ranking"].startswith("off")
    assert "fill_gaps" not in default.stats
    # Nor do the expansion and the coverage check whose results only that ranking reads.
    assert "skipped" in default.stats["expand_graph"] and "skipped" in default.stats["check_completeness"]
    forced = retriever.search(query, k=5, rerank=False, multifactor_ranking=True)
    assert forced.stats["fuse_rrf"]["channels"].get("graph", 0) > 0
    assert "ranking" not in forced.stats["rank_multifactor"]
    assert forced.stats["fill_gaps"]["added"] > 0  # what the default leaves unrun
    assert forced.stats["expand_graph"]["candidates"] > 0 and "coverage" in forced.stats["check_completeness"]
    # The quick route's one level of neighbours is its own graph channel, which the setting leaves alone.
    quick = retriever.search(query, k=5, rerank=False, route="quick")
    assert "skipped" not in quick.stats["expand_graph"] and quick.stats["fuse_rrf"]["channels"].get("graph", 0) > 0
    # Short items: fused as before, by default.
    short = long_catalogue(tmp_path / "short", long=False)
    plain = Retriever(short, cache_size=0).search(query, k=5, rerank=False)
    assert plain.route == "smart" and plain.stats["fuse_rrf"]["channels"].get("graph", 0) > 0
    short.close()


def test_a_typed_hop_still_counts_its_walk(long_items: Index) -> None:
    long_items.upsert([], [Edge("skill:queueing", "skill:simpy", EdgeKind.DEPENDS_ON)])
    hop = Retriever(long_items, cache_size=0).search("skills that queueing depends on", k=5, rerank=False)
    assert hop.stats["plan_query"]["relations"] == 1 and hop.route == "ppr"
    assert hop.stats["fuse_rrf"]["channels"].get("graph", 0) > 0
    assert hop.ids[0] == "skill:simpy"


def test_a_setting_that_is_not_a_bool_is_refused() -> None:
    with pytest.raises(ConfigError, match="multifactor_ranking"):
        RetrievalConfig(multifactor_ranking="no")  # type: ignore[arg-type]


def test_the_query_command_turns_it_on_and_off_and_refuses_other_words(
    long_items: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--multifactor-ranking on|off``, as ``--feedback-docs`` sets the other long-item
    setting: without it a CLI user could not fuse the ranking the index left out."""
    path = str(long_items.path)
    long_items.close()  # the command opens the index itself
    query = cli_query(path, capsys)

    code, out, _ = query()
    assert code == 0 and "graph" not in json.loads(out)["stats"]["fuse_rrf"]["channels"]
    code, out, _ = query("--multifactor-ranking", "on")
    assert code == 0 and json.loads(out)["stats"]["fuse_rrf"]["channels"].get("graph", 0) > 0
    code, out, _ = query("--multifactor-ranking", "off")
    assert code == 0 and json.loads(out)["stats"]["rank_multifactor"]["ranking"].startswith("off")
    code, out, err = query("--multifactor-ranking", "yes")
    said = "argument --multifactor-ranking: must be on or off, got 'yes'"
    assert code == 2 and said in err and json.loads(out) == {"error": said}
    # On a short-item catalogue "off" leaves it out too: the caller's value wins.
    short = long_catalogue(tmp_path / "short", long=False)
    path = str(short.path)
    short.close()
    code, out, _ = query("--multifactor-ranking", "off")
    assert code == 0 and "graph" not in json.loads(out)["stats"]["fuse_rrf"]["channels"]


def test_the_ranking_stats_say_who_left_it_out_and_what_did_not_run(long_items: Index, tmp_path: Path) -> None:
    """``stats["rank_multifactor"]["ranking"]`` said only ``off: multifactor_ranking=False``:
    not whether the index or the caller chose it, nor that the graph channel, the
    expansion, the coverage check and gap filling went with it."""
    by_index = Retriever(long_items, cache_size=0).search(QUERY, k=3, rerank=False).stats["rank_multifactor"]["ranking"]
    assert by_index.startswith("off: multifactor_ranking=False, as the index suggests")
    assert "run past 200 words" in by_index
    assert "no graph channel fused" in by_index and "no expansion, coverage check or gap filling" in by_index
    short = long_catalogue(tmp_path / "short", long=False)
    by_caller = Retriever(short, cache_size=0).search(QUERY, k=3, rerank=False, multifactor_ranking=False)
    said = by_caller.stats["rank_multifactor"]["ranking"]
    assert said.startswith("off: multifactor_ranking=False, set by the caller (the index suggests True)")
    short.close()
    # Without the index's suggestions, a False is the caller's.
    off = Retriever(long_items, cache_size=0).search(
        QUERY, k=3, rerank=False, use_calibration=False, route="smart", multifactor_ranking=False)
    assert off.stats["rank_multifactor"]["ranking"].startswith("off: multifactor_ranking=False, set by the caller")


def test_stats_route_line_says_no_graph_channel_joins_the_smart_route(
    long_items: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``route: smart for every query`` read as the graph route (expansion, its ranking
    fused) while the index had left that ranking out: the line says what the route fuses."""
    from skill_retriever.cli import main

    path = str(long_items.path)
    long_items.close()
    short = long_catalogue(tmp_path / "short", long=False)
    short_path = str(short.path)
    short.close()

    def route(where: str) -> str:
        capsys.readouterr()
        assert main(["stats", "--index-dir", where]) == 0
        return next(line for line in capsys.readouterr().out.splitlines() if line.startswith("route: "))

    said = route(path)
    assert said.startswith("route: smart for every query, set by the index's defaults above")
    assert "its ranking left out of the fusion (multifactor_ranking=False), no graph channel joins its answers" in said
    assert "graph channel" not in route(short_path)
