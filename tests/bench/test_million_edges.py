"""The scale run (100k nodes / 1M edges in the benchmark), at a size a test can afford:
it builds, reuses its index, times every route and phase, and renders in the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.bench import million_edges, report


def test_scale_run_times_every_route_and_reuses_its_index(tmp_path: Path) -> None:
    first = million_edges.run(1500, 6000, 6, "hashing", tmp_path / "idx", log=lambda _: None)
    size = first["sizes"][0]
    assert size["nodes"] == 1500 and 5000 < size["edges"] <= 6000  # duplicates dropped, not added
    assert size["build"]["reused"] is False and size["build"]["nodes_s"] > 0
    routes = {"quick": "expand_graph", "ppr": "run_ppr", "smart": "rank_multifactor"}
    assert set(size["routes"]) == {*routes, *(f"{r} (defaults)" for r in routes), "auto (defaults)"}
    for route, phases in {**routes, **{f"{r} (defaults)": p for r, p in routes.items()}}.items():
        timed = size["routes"][route]
        assert timed["queries"] == 6 and timed["degraded"] == 0 and 0 <= timed["nothing_fits"] <= 6
        assert 0 < timed["e2e"]["p50"] <= timed["e2e"]["p95"]
        assert phases in timed["phases"] and "retrieve_seeds" in timed["phases"]
        assert "rerank_cross_encoder" in timed["phases"]
    assert size["dense"]["queries"] == 6 and size["dense"]["vector_search"]["p50"] > 0
    assert size["ppr"]["max_abs_diff"] < 1e-6  # ours and networkx agree on the same graph
    assert size["ppr"]["walk"] == "float32" and size["ppr"]["query_path"]["iterations"] > 0
    assert size["peak_rss_mb"] > 0 and size["dense"]["queries"] == 6

    again = million_edges.run(1500, 6000, 4, "hashing", tmp_path / "idx", log=lambda _: None)
    assert again["sizes"][0]["build"]["reused"] is True
    assert again["sizes"][0]["edges"] == size["edges"]

    text = "\n".join(report.section_lines(first, md=True))
    assert "a million edges" in text and "run_ppr" in text and "smart" in text

    table = million_edges.compare(first, again)
    p50 = size["routes"]["ppr"]["e2e"]["p50"]
    assert f"| ppr | **end to end** | **{p50:.1f} /" in table and "| ppr | run_ppr |" in table
    assert "| ppr (defaults) | **end to end** |" in table and "max abs diff" in table


def test_a_damaged_stamp_rebuilds_the_index_instead_of_a_traceback(tmp_path: Path) -> None:
    """The scale index's stamp was written in place: a run killed while writing it left
    half a JSON file, and every later `--only scale` ended in a JSONDecodeError traceback."""
    from skill_retriever.stores.embedder import HashingEmbedder

    path = tmp_path / "idx"
    path.mkdir()
    (path / million_edges.STAMP).write_text('{"params": {"nodes": 2', encoding="utf-8")
    index, info = million_edges.build(path, 200, 600, HashingEmbedder())
    index.close()
    assert info["reused"] is False and len(list(path.glob("*.tmp*"))) == 0
    index, info = million_edges.build(path, 200, 600, HashingEmbedder())
    index.close()
    assert info["reused"] is True


def test_other_sizes_in_the_same_folder_build_a_fresh_index(tmp_path: Path) -> None:
    """`python -m skill_retriever.bench.million_edges --nodes N --index DIR` over a DIR of
    another size upserted into the old index: 200 nodes then 300 gave the new nodes with
    the old run's edges too, a graph of neither size."""
    from skill_retriever.stores.embedder import HashingEmbedder

    fresh, _ = million_edges.build(tmp_path / "fresh", 300, 600, HashingEmbedder())
    want = (len(fresh), len(fresh.snapshot().edges))
    fresh.close()
    old, _ = million_edges.build(tmp_path / "idx", 200, 600, HashingEmbedder())
    old.close()
    index, info = million_edges.build(tmp_path / "idx", 300, 600, HashingEmbedder())
    got = (len(index), len(index.snapshot().edges))
    index.close()
    assert info["reused"] is False and got == want


def test_a_build_that_did_not_finish_is_cleared_before_another_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after its nodes and edges were written, before its stamp, a build left an
    index that the next size upserted into (200 nodes' edges beside 300 nodes')."""
    from skill_retriever.stores.embedder import HashingEmbedder

    def stop() -> float:
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(million_edges, "peak_rss_mb", stop)  # called once nodes and edges are in
        with pytest.raises(KeyboardInterrupt):
            million_edges.build(tmp_path / "idx", 200, 600, HashingEmbedder())
    index, info = million_edges.build(tmp_path / "idx", 300, 300, HashingEmbedder())
    got = (len(index), len(index.snapshot().edges), info["reused"])
    index.close()
    fresh, _ = million_edges.build(tmp_path / "fresh", 300, 300, HashingEmbedder())
    assert got == (len(fresh), len(fresh.snapshot().edges), False)
    fresh.close()
