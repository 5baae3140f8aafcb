"""Folding a ranked list tests only the pairs that can be copies.

`collapse_ranked` compared each candidate with every component kept before it, each test
joining both whole texts and running difflib on their names: on a 725-item index of two
real catalogues (sickn33's and K-Dense's skills), `query ... -k 300` spent most of its
23 s there (600 candidates, ~180,000 pairs) and `-k 1000` ~30 s. A pair can be copies
only when it shares a name variant, an identical body or a cosine at the floor of the
thresholds (the module docstring), as `duplicate_groups` already reads them; the fold
now tests those pairs alone, and folds as before."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from skill_retriever.components import dedup
from skill_retriever.components.dedup import (
    DedupConfig,
    body_key,
    collapse_ranked,
    is_same_component,
    name_variants,
)
from skill_retriever.components.view import CallerView
from skill_retriever.model import Node
from skill_retriever.stores.index import Index


def _reference(view: CallerView, ranked: Sequence[str]) -> dict[str, list[str]]:
    """The fold as it was: each item against every representative kept before it."""
    gm, emb = view.graph, view.embeddings
    keep: list[str] = []
    folded: dict[str, list[str]] = {}
    for node_id in dict.fromkeys(ranked):
        node, row = view.get(node_id), gm.index.get(node_id)
        owner = next(
            (rep for rep in keep if row is not None and (r := gm.index.get(rep)) is not None
             and is_same_component(view.get(rep), node, float(emb[row] @ emb[r]))),
            None,
        )
        if owner is None:
            keep.append(node_id)
            folded[node_id] = []
        else:
            folded[owner].append(node_id)
    return folded


def _could_be_copies(view: CallerView, a: Node, b: Node) -> bool:
    config = DedupConfig()
    names = {dedup._norm(v) for v in name_variants(a)} & {dedup._norm(v) for v in name_variants(b)}
    key = body_key(a)
    gm, emb = view.graph, view.embeddings
    cos = float(emb[gm.index[a.id]] @ emb[gm.index[b.id]])
    return bool(names) or (key is not None and key == body_key(b)) or cos >= min(config.same_name_cosine, config.cosine) - 1e-4


def test_the_fold_tests_only_pairs_that_can_be_copies(
    hashed_index: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = CallerView.of(hashed_index, ["*"])
    ids = sorted(view.nodes)
    assert len(ids) >= 10
    tested: list[tuple[Node, Node]] = []

    def counted(a: Node, b: Node, cosine: float, config: DedupConfig) -> bool:
        tested.append((a, b))
        return is_same_component(a, b, cosine, config)

    monkeypatch.setattr(dedup, "is_same_component", counted)
    for ranked in (ids, ids[::-1], ids[1::2] + ids[::2]):
        tested.clear()
        collapsed = collapse_ranked(view, ranked)
        # the same fold as comparing every pair (the acme/mirror copy of api-style folded)
        assert {k: list(v) for k, v in collapsed.folded.items()} == _reference(view, ranked)
        assert any(v for v in collapsed.folded.values())
        hopeless = [(a.id, b.id) for a, b in tested if not _could_be_copies(view, a, b)]
        assert not hopeless, f"{len(hopeless)} of {len(tested)} pairs tested could not be copies: {hopeless[:3]}"


def test_a_pair_just_at_the_cosine_floor_is_still_tested() -> None:
    """The candidates' cosines come from one matrix product; a pair whose scalar cosine is
    at the floor must not be lost to the product's rounding."""
    floor = min(DedupConfig().same_name_cosine, DedupConfig().cosine)
    a = np.array([1.0, 0.0], dtype=np.float32)
    b = np.array([floor, np.sqrt(1 - floor * floor)], dtype=np.float32)
    assert dedup.copy_candidates(np.stack([a]), b, floor).tolist() == [0]
