"""The words a "nothing fits" warning takes: what the items a search could answer are.

"Catalogue" is the word for components and tools (things an agent installs or calls); a
folder of runbooks or ADRs is documents, a multi-hop corpus is passages, and an index that
mixes them (runbooks beside skills, skills beside incidents) is only honestly "the index".
The words follow the kinds the index holds that the search may return (its kind filter),
not the calibration's class of the index (``calibration.defaults``, which counts documents
with catalogues because they take the same settings): a search of the skills of a mixed
index is a catalogue search, one of its documents is not. Found in a walkthrough: a folder
of runbooks answered "Nothing in the catalogue fits this well".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Literal

from skill_retriever.filters import Filters
from skill_retriever.model import SCAFFOLD_KINDS, NodeKind
from skill_retriever.responses import nothing_fits_phrase
from skill_retriever.stores.kind_counts import kind_counts
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["CATALOGUE_WORD_KINDS", "Searched", "nothing_fits_words", "searched", "visible_count"]

#: What is said as "the catalogue": components and tools, and the Markdown with
#: frontmatter of no known category that a skills repository holds beside them (OTHER).
CATALOGUE_WORD_KINDS = frozenset(
    k.value for k in (NodeKind.SKILL, NodeKind.AGENT, NodeKind.COMMAND, NodeKind.HOOK, NodeKind.MCP_SERVER,
                      NodeKind.PLUGIN, NodeKind.TOOL, NodeKind.OTHER)
)
_SCAFFOLD = frozenset(k.value for k in SCAFFOLD_KINDS)

#: What the items a search could answer are (a key of ``responses.NOTHING_FITS_BY_HOLDING``).
Searched = Literal["catalogue", "documents", "passages", "index"]


def searched(counts: Mapping[str, int], kinds: frozenset[str] | None) -> Searched:
    """What the items of ``counts`` (kind -> how many the index holds) that a search with
    the kind filter ``kinds`` (None: every kind) could answer are: one word for them all,
    or "index" when they are of several sorts (or none)."""
    present = {k for k, n in counts.items() if n and k not in _SCAFFOLD and (kinds is None or k in kinds)}
    if present == {NodeKind.DOCUMENT.value}:
        return "documents"
    if present == {NodeKind.PASSAGE.value}:
        return "passages"
    # OTHER alone is no catalogue: only beside components is it a skills repository's
    if present and present <= CATALOGUE_WORD_KINDS and present != {NodeKind.OTHER.value}:
        return "catalogue"
    return "index"


def nothing_fits_words(
    snapshot: IndexSnapshot, kinds: frozenset[str] | None = None, visible: Filters | None = None
) -> str:
    """The "nothing fits" phrase for a search of ``snapshot`` with the kind filter ``kinds``
    by a caller who sees what ``visible`` lets through (None: everything).

    Only the items the caller may see choose the words: counted over the whole index, a
    caller who sees only runbooks read "nothing in the index fits" where an index of
    runbooks alone says "in the documents", which told that private items of other kinds
    were there (found in an MCP walkthrough)."""
    return nothing_fits_phrase(searched(_visible_kind_counts(snapshot, visible), kinds))


def _visible_kind_counts(snapshot: IndexSnapshot, visible: Filters | None) -> Mapping[str, int]:
    """How many items of each kind the caller of ``visible`` may see, kept per principals."""
    if visible is None or not snapshot.has_access_labels:
        return kind_counts(snapshot)
    who = visible.visibility()
    return snapshot.memo(
        "visible-kind-counts",
        who.principals,
        lambda: dict(Counter(n.kind.value for n in snapshot.nodes.values() if who.can_see(n))),
        16,  # distinct principal sets a snapshot keeps counts for, as `CallerView` keeps names
    )


def visible_count(snapshot: IndexSnapshot, visible: Filters) -> int:
    """How many of ``snapshot``'s items the caller of ``visible`` may see."""
    return sum(_visible_kind_counts(snapshot, visible).values())
