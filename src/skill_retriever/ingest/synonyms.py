"""SAME_AS edges between entity nodes whose names denote one thing, found at ingestion.

HippoRAG (Gutiérrez et al. 2024, NeurIPS, §3.1) joins phrase nodes whose embeddings are
near (cosine >= 0.8) by synonymy edges, so the walk crosses from one name of a thing to
another. With MiniLM, name vectors that near also join different things: "Heinkel HD 23"
and "Heinkel HD 39", "Jung Joon-young" and "Jung Jin-young" are pairs of entities of
hotpotqa_hipporag_train100 at cosine >= 0.85. Restricted to names sharing a rare word,
with equal numbers, at >= 0.9, the pairs were mostly aliases ("Christopher Nolan" /
"Christopher Edward Nolan"), yet adding them to the two rules below did not move recall
on the two train sets when we tried it, and they need every name's vector before any edge
can be written. So the edges come from names, and from the passages that name them,
without vectors, at ingestion:

1. **Other spelling**: equal once accents are folded and a trailing plural or possessive
   ``s`` of each word is dropped ("Snoop Dogg's" / "Snoop Dogg", "Iván" / "Ivan");
2. **Acronym**: a one-word name of 2-6 letters is the initials of another name, and some
   passage names both ("Recording Industry Association of America (RIAA)").

Each pair is one ``SAME_AS`` edge of weight 1, from the lower entity id to the higher.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from skill_retriever.algorithms.tokenize import fold_accents
from skill_retriever.model import Edge, EdgeKind

#: Words initials skip ("Recording Industry Association of America" -> "riaa").
SMALL_WORDS = frozenset("of the and for de la le du des von van a an in on at to".split())


def fold(key: str) -> str:
    """Accents folded, and a trailing ``s`` dropped from every word of 4+ letters (not ``ss``)."""
    plain = fold_accents(key)
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in plain.split())


def initials(words: Sequence[str]) -> str:
    """First letters of the words that are not `SMALL_WORDS`; '' for fewer than 2 such words."""
    kept = [w for w in words if w not in SMALL_WORDS]
    return "".join(w[0] for w in kept) if len(kept) >= 2 else ""


def alias_edges(passage_entities: Iterable[Iterable[str]], keys: Mapping[str, str]) -> list[Edge]:
    """SAME_AS edges between entities by the two rules of this module.

    Args:
        passage_entities: Per passage, the entity ids it names (the acronym rule needs
            a passage naming both).
        keys: Entity id -> its normalised name (``normalise_entity``).

    Returns:
        The edges, each pair once, sorted by (source, target).
    """
    words = {eid: fold(key).split() for eid, key in keys.items()}
    pairs: set[tuple[str, str]] = set()
    by_fold: dict[str, list[str]] = defaultdict(list)
    for eid, ws in words.items():
        by_fold[" ".join(ws)].append(eid)
    for same in by_fold.values():
        pairs.update((a, b) for a in same for b in same if a < b)
    short = {ws[0]: eid for eid, ws in words.items() if len(ws) == 1 and 2 <= len(ws[0]) <= 6 and ws[0].isalpha()}
    for named in passage_entities:
        present = list(dict.fromkeys(named))
        for eid in present:
            acronym = short.get(initials(words.get(eid, ())))
            if acronym is not None and acronym != eid and acronym in present:
                pairs.add((min(eid, acronym), max(eid, acronym)))
    return [Edge(a, b, EdgeKind.SAME_AS) for a, b in sorted(pairs)]


__all__ = ["SMALL_WORDS", "alias_edges", "fold", "initials"]
