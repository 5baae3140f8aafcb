"""The item ids a query writes out, for fusion's "named" list (`phases.fuse_rrf`).

An incident export names an incident by its ticket (``"id": "inc:4812"``) and a title
(``"name": "checkout 500s"``), as the README's JSON graph does: the named list read names
only, so "what happened in inc:4812?" ranked two other incidents above it (the id's word
pieces are near every incident's). A word of the query that is a visible item's id, in any
case, names that item as its name would. Only a word that is no plain word counts (it
holds a digit, ``:``, ``/``, ``-`` or the like): an id ``checkout`` would otherwise put
its item first for every query that says "checkout".
"""

from __future__ import annotations

from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["ids_written"]

#: What may wrap an id in a sentence: quotes, brackets and the punctuation after it.
_WRAPPING = "\"'`()[]{}<>,;.!?:"


def ids_written(text: str, snapshot: IndexSnapshot) -> set[str]:
    """The ids of ``snapshot``'s items that ``text`` writes out as words of their own
    (apart by white space, quotes and end punctuation around them), in any case."""
    found: set[str] = set()
    for word in text.split():
        word = word.strip(_WRAPPING)
        if not word or word.isalpha():
            continue
        if word in snapshot.nodes:
            found.add(word)
        else:
            found.update(snapshot.ids_folded.get(word.casefold(), ()))
    return found
