"""How many items ``since`` / ``until`` left out for carrying no date. Only a created or
updated time is inside a window, so on a mixed index (skills beside dated runbooks) a
window drops every undated skill: "create a pdf" with ``--since 2026-01-01`` answered with
documents alone and no word of the skills it never looked at (found in a walkthrough).
The count is of the items the caller may see that the other filters (kinds, tags) admit:
a private item is never counted for a caller who cannot see it."""

from __future__ import annotations

from collections import Counter

from skill_retriever.filters import Filters
from skill_retriever.ingest.item_origin import is_document, is_markdown_item
from skill_retriever.model import SCAFFOLD_KINDS, Node, NodeKind
from skill_retriever.stores.snapshot import IndexSnapshot
from skill_retriever.undated_advice import dating_advice

__all__ = ["undated_left_out_note"]


def undated_left_out_note(f: Filters, snapshot: IndexSnapshot) -> str | None:
    """A warning naming how many undated items the window of ``f`` left out (by kind), and
    how to have them; None without a window, when none was left out, or when no item the
    caller may see carries a date (``filters.nothing_admitted_note`` says that one)."""
    if f.since is None and f.until is None:
        return None
    rest = Filters(kinds=f.kinds, tags=f.tags, principals=f.principals)
    # Independent of the window's bounds: kept per (kinds, tags, principals) with the snapshot.
    left, dated, examples = snapshot.memo(
        "undated-left-out", (f.kinds, f.tags, f.principals), lambda: _undated(rest, snapshot), 16
    )
    if not left or not dated:
        return None
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(left.items(), key=lambda kv: (-kv[1], kv[0])))
    advice = dating_advice(examples)
    return (f"since/until left out {sum(left.values())} item(s) with no created or updated time ({kinds}): an undated "
            f"item is in no time window; leave since/until out to include them{advice}")


def _undated(rest: Filters, snapshot: IndexSnapshot) -> tuple[Counter[str], bool, tuple[Node, ...]]:
    """The undated items ``rest`` admits, counted by kind; whether any item the caller may
    see carries a date; and one undated item of each kind and origin among them (for the
    dating advice, which says how each kind left out gets a date)."""
    left: Counter[str] = Counter()
    dated = False
    examples: dict[tuple[NodeKind, bool, bool], Node] = {}
    for node in snapshot.nodes.values():
        if node.kind in SCAFFOLD_KINDS or not rest.can_see(node):
            continue
        if node.last_changed is not None:
            dated = True
        elif rest.admits(node):
            left[node.kind.value] += 1
            examples.setdefault((node.kind, is_document(node), is_markdown_item(node)), node)
    return left, dated, tuple(examples.values())
