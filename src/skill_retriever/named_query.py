"""A query that is, whole, the name of an item its answer lists ("status", "finetune").

The "nothing fits" line (``calibration.fit``) judges the cosine of the query's best
semantic match; a one-word name is a small part of a long item's embedded text, and a large
catalogue's line sits high: on the index of wshobson__agents (539 items, line 0.2585) the
queries "status" and "finetune", each the exact name of one of its commands, were flagged
"nothing fits" (found in a walkthrough) with that command in the answer. The item the
query names is what it asks for, so such an answer is not flagged, as with a typed hop
that leads somewhere (`phases.apply_token_budget.assess_fit`). Only the name as written
counts, case and surrounding spaces aside ("team status" is words, which the line
judges), and only in the answer: one ranked below k is not shown as a fit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from skill_retriever.model import SCAFFOLD_KINDS, Node

__all__ = ["names_an_answer", "whole_query_names"]

#: Longer than this, a query is a request, not a name (no name of the benchmark's
#: catalogues is longer than 100 characters; a passage title can be long).
MAX_NAME_CHARS = 200


def names_an_answer(query: str, answer: Iterable[str], nodes: Mapping[str, Node]) -> bool:
    """Whether ``query``, trimmed and case-folded, is the name of an item of ``answer``
    (ids) that can be an answer (no entity or fact: their names are words of passages)."""
    names = whole_query_names(query)
    return bool(names) and any(
        (node := nodes.get(i)) is not None and node.kind not in SCAFFOLD_KINDS and node.name.casefold() in names
        for i in answer
    )


def whole_query_names(query: str) -> frozenset[str]:
    """The case-folded names ``query`` is, whole: as written (outer spaces aside), without
    a slash command's leading ``/``, and with its spaces as hyphens; none for a long query."""
    name = " ".join(query.split()).casefold()
    if not name or len(name) > MAX_NAME_CHARS:
        return frozenset()
    bare = name.lstrip("/") or name
    return frozenset({name, bare, bare.replace(" ", "-")})
