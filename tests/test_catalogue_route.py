"""The route a catalogue suggests for itself (calibration.defaults): the ppr route for
every query when most of its edges say one item needs another, else the smart route for
every query when its edges join items alike or there are none, the complexity table when
they mostly join unlike items; and a typed hop always walks."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from skill_retriever.calibration.defaults import (
    MIN_EDGE_COSINE,
    MIN_WORKFLOW_SHARE,
    WORKFLOW_KINDS,
    decide,
)
from skill_retriever.calibration.index_shape import (
    EDGE_SAMPLE,
    median_edge_cosine,
    sampled_median_cosine,
    workflow_share,
)
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import resolve
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Edge, EdgeKind, Node
from skill_retriever.phases.plan_query import ROUTE_BY_COMPLEXITY, default_route
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot


def _median(pairs: list[tuple[int, int]], e: np.ndarray, sample: int = EDGE_SAMPLE) -> float | None:
    ends = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return sampled_median_cosine(ends[:, 0], ends[:, 1], len(e), e.__getitem__, sample)


def test_median_edge_cosine_weighs_every_edge_alike_and_skips_nodes_without_vectors() -> None:
    e = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], dtype=np.float32)  # row 3: no vector
    # Edges 0-1 (cosine 1), 0-2 and 1-2 (cosine 0), 2-3 (no vector: left out).
    assert _median([(0, 1), (0, 2), (1, 2), (2, 3)], e) == pytest.approx(0.0)
    assert _median([(0, 1), (0, 2)], e) == pytest.approx(0.5)
    # One pair twice (two kinds, or both ways) is one entry each way, as in the summed CSR.
    assert _median([(0, 1), (1, 0), (0, 1), (0, 2)], e) == pytest.approx(0.5)
    assert _median([(2, 3)], e) is None
    assert _median([(1, 1)], e) is None  # an edge to itself says nothing of two items
    assert _median([], e) is None


def test_median_edge_cosine_on_a_sample_stays_near_the_whole() -> None:
    rng = np.random.default_rng(7)
    e = rng.normal(size=(400, 16)).astype(np.float32)
    e /= np.linalg.norm(e, axis=1, keepdims=True)
    pairs = list({(int(a), int(b)) for a, b in rng.integers(0, 400, size=(6000, 2)) if a < b})
    whole = _median(pairs, e, sample=2 * len(pairs))  # every entry
    part = _median(pairs, e, sample=500)
    assert whole is not None and part is not None and abs(whole - part) < 0.05


def _from_matrices(snap: IndexSnapshot, sample: int) -> float | None:
    """The figure as it was read from SciPy's adjacency before ``stats`` stopped importing
    it: evenly spaced entries of the CSR matrix, the rows of the embeddings matrix."""
    adjacency, e = snap.graph.adjacency, snap.embeddings
    if not adjacency.nnz:
        return None
    picked = np.unique(np.linspace(0, adjacency.nnz - 1, min(sample, adjacency.nnz)).astype(np.int64))
    rows, cols = np.searchsorted(adjacency.indptr, picked, side="right") - 1, adjacency.indices[picked]
    usable = (rows != cols) & e[rows].any(axis=1) & e[cols].any(axis=1)
    return float(np.median(np.einsum("ij,ij->i", e[rows][usable], e[cols][usable]))) if usable.any() else None


def test_median_edge_cosine_of_an_index_is_the_one_its_matrices_give(tmp_path: Path) -> None:
    """Read from the edges with NumPy, the figure is the same number, sample by sample, as
    from the SciPy adjacency the query path builds: one pair joined by several kinds and
    both ways, an edge to a node read back without a vector."""
    rng = np.random.default_rng(3)
    words = ["deploy", "lint", "render", "parse", "encrypt", "compress", "trace", "cache", "audit", "index"]
    nodes = [Node(id=f"skill:{i}", kind="skill", name=f"s{i}",
                  description=" ".join(rng.choice(words, size=5)), text=f"s{i}") for i in range(60)]
    kinds = [EdgeKind.MENTIONS, EdgeKind.RELATED_TO, EdgeKind.USES]
    drawn = [Edge(f"skill:{a}", f"skill:{b}", kinds[k % 3]) for a, b, k in rng.integers(0, 60, size=(300, 3)) if a != b]
    drawn += [Edge("skill:1", "skill:2", kind) for kind in kinds] + [Edge("skill:2", "skill:1", EdgeKind.MENTIONS)]
    edges = list({e.id: e for e in drawn}.values())
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        index.upsert(nodes, edges)
    with sqlite3.connect(tmp_path / "ix" / "items.sqlite") as db:  # read back as an item without a vector
        db.execute("UPDATE nodes SET vector = NULL WHERE id = 'skill:3'")
    db.close()
    with Index.open(tmp_path / "ix") as index:
        snap = index.snapshot()
        assert snap.node_vector("skill:3") is None and snap.graph.adjacency.nnz < 2 * len(snap.edges)
        for sample in (1, 2, 7, 50, 333, EDGE_SAMPLE):
            assert median_edge_cosine(snap, sample) == _from_matrices(snap, sample)
        assert median_edge_cosine(snap) is not None


def _catalogue(
    path: Path, edges: list[tuple[str, str]], alike: bool, kind: EdgeKind = EdgeKind.MENTIONS
) -> Index:
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    words = ["deploy", "lint", "render", "parse", "encrypt", "compress"]
    nodes = [
        Node(id=f"skill:{w}", kind="skill", name=w,
             description=("shared words about builds and releases" if alike else f"{w} {w} {w} only"), text=w)
        for w in words
    ]
    index.upsert(nodes, [Edge(f"skill:{a}", f"skill:{b}", kind) for a, b in edges])
    return index


def test_a_catalogue_without_edges_or_with_alike_edges_takes_the_smart_route(tmp_path: Path) -> None:
    bare = _catalogue(tmp_path / "bare", [], alike=False)
    found = decide(bare.snapshot())
    assert found.settings["default_route"] == "smart" and "no edges" in found.reasons[1]
    assert resolve(RetrievalConfig(), {}, bare.snapshot()).default_route == "smart"
    resp = Retriever(bare, cache_size=0).search("lint the code", rerank=False)
    assert resp.route == "smart" and resp.stats["plan_query"]["default_route"] == "smart"
    # The caller's choice wins, and so does a forced route.
    assert Retriever(bare, cache_size=0).search("lint the code", rerank=False, default_route="by-complexity").route \
        == ROUTE_BY_COMPLEXITY[resp.stats["plan_query"]["complexity"]]
    assert Retriever(bare, cache_size=0).search("lint the code", rerank=False, route="ppr").route == "ppr"
    bare.close()
    alike = _catalogue(tmp_path / "alike", [("deploy", "lint"), ("lint", "render")], alike=True)
    found = decide(alike.snapshot())
    assert found.settings["default_route"] == "smart" and "join items alike" in found.reasons[1]
    # A typed hop still walks from its far end, whatever the catalogue suggests.
    hop = Retriever(alike, cache_size=0).search("skills that deploy depends on", rerank=False)
    assert hop.route == "ppr" and hop.stats["plan_query"]["relations"] == 1
    alike.close()


def test_the_route_follows_the_index_after_a_write(tmp_path: Path) -> None:
    index = _catalogue(tmp_path / "grows", [], alike=False)
    retriever = Retriever(index, cache_size=0)
    query = "deploy lint render parse encrypt compress everything in one go with a long plan"
    assert retriever.search(query, rerank=False).route == "smart"
    # Edges between unlike items arrive: the next snapshot routes by complexity.
    index.upsert([], [Edge("skill:deploy", "skill:lint", EdgeKind.MENTIONS),
                      Edge("skill:parse", "skill:encrypt", EdgeKind.MENTIONS)])
    after = retriever.search(query, rerank=False)
    assert after.stats["plan_query"]["default_route"] == "by-complexity"
    assert after.route == ROUTE_BY_COMPLEXITY[after.stats["plan_query"]["complexity"]]
    # The same pairs as prerequisites: one item needs another, so every query walks.
    index.upsert([], [Edge("skill:deploy", "skill:lint", EdgeKind.DEPENDS_ON),
                      Edge("skill:parse", "skill:encrypt", EdgeKind.FEEDS)])
    needs = retriever.search(query, rerank=False)
    assert needs.stats["plan_query"]["default_route"] == "ppr" and needs.route == "ppr"
    index.close()


def test_workflow_share_counts_prerequisites_and_data_flows_on_a_sample() -> None:
    def edges(kinds: list[EdgeKind]) -> list[Edge]:
        return [Edge(f"a{i}", f"b{i}", kind) for i, kind in enumerate(kinds)]

    assert workflow_share([], WORKFLOW_KINDS) is None
    assert workflow_share(edges([EdgeKind.DEPENDS_ON, EdgeKind.FEEDS, EdgeKind.MENTIONS, EdgeKind.USES]), WORKFLOW_KINDS) == 0.5
    assert workflow_share(edges([EdgeKind.RELATED_TO, EdgeKind.PART_OF, EdgeKind.CONFLICTS_WITH]), WORKFLOW_KINDS) == 0.0
    # Every third edge a prerequisite, read on a sample of 1,000 of 3,000 (a stride of 3
    # would read prerequisites only).
    mixed = edges([EdgeKind.DEPENDS_ON if i % 3 == 0 else EdgeKind.MENTIONS for i in range(3000)])
    share = workflow_share(mixed, WORKFLOW_KINDS, sample=1000)
    assert share is not None and abs(share - 1 / 3) < 0.05


def test_a_catalogue_whose_edges_are_mostly_prerequisites_walks_every_query(tmp_path: Path) -> None:
    # Items alike or not, prerequisites decide: the smart route would not cross to an
    # item the query does not resemble.
    for alike in (True, False):
        index = _catalogue(tmp_path / f"needs-{alike}", [("deploy", "lint"), ("lint", "render"), ("parse", "encrypt")],
                           alike=alike, kind=EdgeKind.DEPENDS_ON)
        snap = index.snapshot()
        found = decide(snap)
        assert found.settings["default_route"] == "ppr" and "one item needs another" in found.reasons[1]
        resp = Retriever(index, cache_size=0).search("lint the code", rerank=False)
        assert resp.route == "ppr" and resp.stats["plan_query"]["default_route"] == "ppr"
        # The caller's choice still wins.
        assert Retriever(index, cache_size=0).search("lint the code", rerank=False, default_route="smart").route \
            == "smart"
        index.close()
    # Below the share, the similarity rule decides.
    few = _catalogue(tmp_path / "few", [("deploy", "lint"), ("lint", "render"), ("parse", "encrypt")], alike=True)
    few.upsert([], [Edge("skill:render", "skill:parse", EdgeKind.DEPENDS_ON)])
    share = workflow_share(few.snapshot().edges.values(), WORKFLOW_KINDS)
    assert share is not None and share < MIN_WORKFLOW_SHARE
    found = decide(few.snapshot())
    assert found.settings["default_route"] == "smart"
    assert f"{share:.0%} of its edges say one item needs another" in found.reasons[1]  # the evidence, said
    few.close()


def test_a_catalogue_whose_edges_join_unlike_items_routes_by_complexity(tmp_path: Path) -> None:
    unlike = _catalogue(tmp_path / "unlike", [("deploy", "lint"), ("parse", "encrypt")], alike=False)
    snap = unlike.snapshot()
    cosine = median_edge_cosine(snap)
    assert cosine is not None and cosine < MIN_EDGE_COSINE
    found = decide(snap)
    assert "default_route" not in found.settings and "route by complexity" in found.reasons[1]
    assert resolve(RetrievalConfig(), {}, snap).default_route == "by-complexity"
    unlike.close()


def test_a_typed_hop_walks_whatever_the_default_route() -> None:
    assert default_route("smart", "simple", typed_hop=True) == "ppr"
    assert default_route("smart", "complex", typed_hop=False) == "smart"
    assert default_route("by-complexity", "complex", typed_hop=False) == "ppr"
    assert default_route(None, "simple", typed_hop=False) == "quick"


def test_a_default_route_that_is_not_a_route_is_refused() -> None:
    with pytest.raises(ConfigError, match="default_route"):
        RetrievalConfig(default_route="fast")  # type: ignore[arg-type]
