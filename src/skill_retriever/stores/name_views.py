"""The item names of one snapshot, as a query looks them up: built in one pass.

Two lookups read the names: the planner finds names as written (``plan_query``: case
ignored, accents kept), the walk finds proper names with accents folded on both sides
(``passage_views.proper_name_ids``: "Aschenbrodel" names "Aschenbrödel"). On a corpus of
tens of thousands of names each matcher cost a tokenisation of every name; here every
name is tokenised once, and the folded matcher reuses those words wherever folding
changes nothing (an ASCII name, most of them), so the two are built for about the price
of one. Each gives the same matches, in the same order, as a `NameMatcher` built from its
names alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from skill_retriever.algorithms.query_terms import NameMatcher
from skill_retriever.algorithms.tokenize import fold_accents, tokenize_words
from skill_retriever.model import Node, NodeKind


@dataclass(frozen=True)
class NameViews:
    """Names of the nodes a name can stand for (every kind but facts, which are named
    after their passage).

    Attributes:
        by_name: Case-folded name -> the nodes that have it, in snapshot order.
        matcher: Finds the names as written in a query.
        by_folded: Accent-folded, case-folded name -> ids of the nodes that have it.
        folded_matcher: Finds the keys of ``by_folded`` in an accent-folded query.
    """

    by_name: Mapping[str, tuple[Node, ...]]
    matcher: NameMatcher
    by_folded: Mapping[str, Sequence[str]]
    folded_matcher: NameMatcher


def name_views(nodes: Iterable[Node]) -> NameViews:
    """The `NameViews` of ``nodes``, in one pass. Nothing per name is kept but what the
    views hold: on a large index every extra object kept alive makes the garbage
    collector walk the whole heap sooner (a list of 39k pairs cost more than it saved)."""
    words: dict[str, tuple[str, ...]] = {}  # a passage and its entity often share a name
    matcher, folded_matcher = NameMatcher(), NameMatcher()
    by_name: dict[str, list[Node]] = {}
    by_folded: dict[str, list[str]] = {}
    for n in nodes:
        if n.kind == NodeKind.FACT:
            continue
        name = n.name
        key = words.get(name)
        if key is None:
            key = words[name] = tuple(tokenize_words(name))
        matcher.add_words(key, name)
        by_name.setdefault(name.casefold(), []).append(n)
        folded = fold_accents(name).casefold()
        ids = by_folded.get(folded)
        if ids is None:
            ids = by_folded[folded] = []
            # An ASCII name folds to its lower case, whose words are the name's own.
            folded_matcher.add_words(key if name.isascii() else tuple(tokenize_words(folded)), folded)
        ids.append(n.id)
    return NameViews({k: tuple(v) for k, v in by_name.items()}, matcher, by_folded, folded_matcher)


__all__ = ["NameViews", "name_views"]
