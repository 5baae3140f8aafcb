"""`stores.row_masks`: a mask that names kinds only, read from the rows' kinds, is the
mask `Filters.admits` gives node by node; filters that name more, or an index with access
labels, still ask every node."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest
from tiny_graph import build_tiny_index

from skill_retriever.filters import Filters
from skill_retriever.model import NodeKind
from skill_retriever.stores.index import Index
from skill_retriever.stores.row_masks import admitted_rows, row_kinds

KINDS = [None, frozenset({"skill"}), frozenset({"skill", "agent"}), frozenset({"passage", "fact"}),
         frozenset({"deploy", "entity"}), frozenset(k.value for k in NodeKind)]


@pytest.fixture(scope="module")
def unlabelled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """The tiny index with its access labels taken off: the kinds alone decide a mask."""
    index = build_tiny_index(tmp_path_factory.mktemp("unlabelled") / "index")
    index.upsert(*[dataclasses.replace(n, access=()) for n in index.snapshot().nodes.values() if n.access])
    yield index
    index.close()


def _by_node(index: Index, f: Filters) -> list[bool]:
    snap = index.snapshot()
    return [f.admits(snap.nodes[i]) for i in snap.graph.ids]


@pytest.mark.parametrize("kinds", KINDS)
@pytest.mark.parametrize("tags", [None, frozenset({"testing"})])
def test_the_mask_is_the_one_admits_gives(unlabelled: Index, kinds: frozenset[str] | None,
                                           tags: frozenset[str] | None) -> None:
    snap = unlabelled.snapshot()
    assert not snap.has_access_labels and len({n.kind for n in snap.nodes.values()}) > 2
    for principals in (None, frozenset({"*"})):
        f = Filters(kinds=kinds, tags=tags, principals=principals)
        assert admitted_rows(snap.nodes, snap.graph.ids, f, snap.has_access_labels, snap.memo).tolist() == _by_node(unlabelled, f)


def test_row_kinds_follow_the_graph_rows(unlabelled: Index) -> None:
    snap = unlabelled.snapshot()
    kinds = list(NodeKind)
    assert [kinds[c] for c in row_kinds(snap.nodes, snap.graph.ids, snap.memo)] == [snap.nodes[i].kind for i in snap.graph.ids]
    assert row_kinds(snap.nodes, snap.graph.ids, snap.memo) is row_kinds(snap.nodes, snap.graph.ids, snap.memo)  # read once per snapshot


def test_access_labels_are_still_asked_node_by_node(shared_tiny_index: Index) -> None:
    snap = shared_tiny_index.snapshot()
    labelled = next(n for n in snap.nodes.values() if n.access)
    row = snap.graph.ids.index(labelled.id)
    for principals in (None, frozenset(labelled.access)):
        f = Filters(kinds=frozenset({labelled.kind.value}), principals=principals)
        mask = admitted_rows(snap.nodes, snap.graph.ids, f, snap.has_access_labels, snap.memo)
        assert mask.tolist() == _by_node(shared_tiny_index, f)
        assert bool(mask[row]) is (principals is not None)
    mask = snap.allowed_mask(Filters(kinds=frozenset({labelled.kind.value})))
    assert mask is not None and not mask[row]
    assert np.array_equal(mask, _by_node(shared_tiny_index, Filters(kinds=frozenset({labelled.kind.value}))))
