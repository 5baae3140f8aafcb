"""Typed relations a query asks to follow from an item it names.

"deploys of a service that checkout-api depends on" does not want checkout-api, nor
what its text resembles: it wants the items joined to checkout-api by a DEPENDS_ON edge
that leaves it, and then what touches those. Plain similarity and an untyped walk from
checkout-api both land on checkout-api's own neighbourhood. This module reads the
relation phrase next to a named item and says which edge kind to follow, and which way;
the retrieval graph then starts its walk from the items at the far end.

The cues are a small English lexicon, matched around the item's name as it appears in
the query (case-insensitive). A name without a cue gives no relation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from skill_retriever.model import ANSWER_KINDS, EdgeKind, NodeKind

Direction = Literal["out", "in", "both"]

_THE = r"(?:the\s+)?"
_POSS = r"(?:'s|\u2019s)?"

#: (pattern with ``{e}`` for the escaped name, edge kind, direction from the named item).
#: "out" follows edges that leave the named item (what it depends on / uses / belongs
#: to), "in" edges that reach it (what depends on it / uses it / belongs to it).
CUES: tuple[tuple[str, EdgeKind, Direction], ...] = (
    (r"{e}\s+(?:depends?|relies|rely|builds?)\s+on\b", EdgeKind.DEPENDS_ON, "out"),
    (r"\b(?:dependencies|deps|requirements|prerequisites|upstreams?)\s+of\s+" + _THE + "{e}", EdgeKind.DEPENDS_ON, "out"),
    (r"{e}" + _POSS + r"\s+(?:dependencies|deps|requirements|prerequisites|upstreams?)\b", EdgeKind.DEPENDS_ON, "out"),
    (r"{e}\s+(?:requires|needs)\b", EdgeKind.DEPENDS_ON, "out"),
    (r"\b(?:depend|depends|rely|relies|build|builds)\s+on\s+" + _THE + "{e}", EdgeKind.DEPENDS_ON, "in"),
    (r"\b(?:dependants|dependents|consumers|downstreams?)\s+of\s+" + _THE + "{e}", EdgeKind.DEPENDS_ON, "in"),
    (r"{e}" + _POSS + r"\s+(?:dependants|dependents|consumers|downstreams?)\b", EdgeKind.DEPENDS_ON, "in"),
    (r"\b(?:require|requires|need|needs)\s+" + _THE + "{e}", EdgeKind.DEPENDS_ON, "in"),
    (r"{e}\s+uses\b", EdgeKind.USES, "out"),
    (r"\bused\s+by\s+" + _THE + "{e}", EdgeKind.USES, "out"),
    (r"\b(?:that|which|who)\s+uses?\s+" + _THE + "{e}", EdgeKind.USES, "in"),
    (r"{e}\s+(?:is\s+)?(?:a\s+)?part\s+of\b", EdgeKind.PART_OF, "out"),
    (r"\b(?:part|parts|members)\s+of\s+" + _THE + "{e}", EdgeKind.PART_OF, "in"),
    (r"\bconflicts?\s+with\s+" + _THE + "{e}", EdgeKind.CONFLICTS_WITH, "both"),
    (r"{e}\s+conflicts?\s+with\b", EdgeKind.CONFLICTS_WITH, "both"),
)


@dataclass(frozen=True)
class RelationHop:
    """Follow ``kind`` edges from the item called ``name``, in ``direction``.

    Attributes:
        name: The item's name as the query wrote it.
        kind: The edge kind to follow.
        direction: "out" (edges leaving the item), "in" (edges reaching it) or "both".
        phrase: The words of the query that asked for it (for explanations).
    """

    name: str
    kind: EdgeKind
    direction: Direction
    phrase: str


def relation_hops(query: str, names: Iterable[str]) -> list[RelationHop]:
    """The typed hops the query asks for, from the names it contains.

    Args:
        query: The query text.
        names: Item names found in the query (any case); longer names are tried first,
            so "checkout-api" wins over "checkout" where both are names.

    Returns:
        One hop per (name, kind, direction), in the order the cues are listed; empty
        when no name stands next to a relation phrase.
    """
    hops: list[RelationHop] = []
    seen: set[tuple[str, EdgeKind, str]] = set()
    for name in sorted({n for n in names if n.strip()}, key=lambda n: (-len(n), n.casefold())):
        escaped = _name_pattern(name)
        for template, kind, direction in CUES:
            match = re.search(template.replace("{e}", escaped), query, flags=re.IGNORECASE)
            key = (name.casefold(), kind, direction)
            if match and key not in seen:
                seen.add(key)
                hops.append(RelationHop(name, kind, direction, match.group(0)))
    return hops


def _name_pattern(name: str) -> str:
    """The name as a regex that must stand as whole words (``api`` not inside ``apis``)."""
    return r"(?<![\w-])" + r"\s+".join(re.escape(part) for part in name.split()) + r"(?![\w-])"


#: Words that name a kind of item, for the kind a typed hop's question asks for ("the
#: deploy of a service that ledger-db depends on" wants deploys, though the walk starts at
#: services). Each kind's own name, singular and plural, and a few everyday synonyms.
_KIND_WORDS: dict[str, str] = {
    **{k.replace("_", " ") + s: k for k in ANSWER_KINDS - {NodeKind.OTHER.value} for s in ("", "s")},
    "deployment": "deploy", "deployments": "deploy", "outage": "incident", "outages": "incident",
    "docs": "document", "runbook": "document", "runbooks": "document",
}
_KIND_RE = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, _KIND_WORDS), key=len, reverse=True))
                      + r")(?![\w-])", re.IGNORECASE)


def asked_kind(query: str) -> str | None:
    """The kind of item a typed hop's question asks for: the first word of the query that
    names one (the head noun of "incidents on the dependencies of checkout-api"), as a
    ``NodeKind`` value; None when no word does ("what depends on payments" asks for the
    relation's far ends, whatever they are). Read it on the query without the hop's names,
    so a name that holds a kind word ("payments-service") is not read as one."""
    match = _KIND_RE.search(query)
    return _KIND_WORDS[match.group(1).casefold()] if match else None


def named_kinds(text: str) -> tuple[frozenset[str], str]:
    """Every kind of item the words of ``text`` name (``NodeKind`` values), and the text
    without those words: "list the MCP servers" names ``mcp_server`` and leaves "list the"."""
    kinds = frozenset(_KIND_WORDS[m.group(1).casefold()] for m in _KIND_RE.finditer(text))
    return kinds, _KIND_RE.sub(" ", text)
