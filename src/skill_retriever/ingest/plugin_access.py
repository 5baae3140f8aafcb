"""Who may see a plugin that gives no ``access`` of its own: whoever may see a member.

A plugin node is made for a folder or a manifest (a bare ``plugins/<x>`` folder, a
``plugin.json``, a marketplace entry: `plugin_manifests`). When neither its manifest nor
its entry gives ``access``, and no plugin it is part of gives any, it takes its members'
(`plugin_labels`): public when a member is public, or when it has no member; else the
union of their labels, so that a caller who may see one member may see the plugin.
Indexed public, a folder of private skills was a plugin named after the folder (most often
the private skill's own name) that every caller found in search, status counts,
``get_component`` and install plans (found in a privacy walk over trailofbits/skills, each
file behind ``access: [bob]``). A plugin that gives ``access`` keeps it, and its members
without labels of their own take it (`skill_links.inherited_access`).

Each index run reads the whole source again, so a member made public or private re-derives
its plugin there; `remove-source` takes a plugin out with its members (one source).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skill_retriever.ingest.skill_links import Placed

Labels = tuple[str, ...]


def union_of(labels: Sequence[Labels]) -> Labels:
    """The labels of a container of items labelled ``labels``: none (public) when it holds
    nothing or a public item, else every label any of them has."""
    if not labels or any(not one for one in labels):
        return ()
    return tuple(sorted({label for one in labels for label in one}))


def member_labels(p: Placed, by_id: Mapping[str, Placed], plugins: Mapping[str, Labels]) -> Labels:
    """``p``'s labels as the index will hold them: its own, else those of the nearest
    record it is part of that has some; a plugin on the way gives what it declares or
    inherits (``plugins``: node id -> labels), a derived one nothing (it is public then)."""
    seen = {p.id}
    while not p.record.access and p.parent is not None and p.parent not in seen:
        if p.parent in plugins:
            return plugins[p.parent]
        if p.parent not in by_id:
            return ()
        p = by_id[p.parent]
        seen.add(p.id)
    return p.record.access


def plugin_labels(
    declared: Mapping[str, Labels],
    outer: Mapping[str, str | None],
    members: Mapping[str, Sequence[Placed]],
    node_ids: Mapping[str, str],
    placed: Sequence[Placed],
) -> dict[str, Labels]:
    """The ``access`` each plugin's node gets, by key.

    Args:
        declared: Each plugin's own labels (its manifest's or entry's; ``()``: none).
        outer: The plugin each is part of, if any (a key of ``declared``).
        members: The records inside each.
        node_ids: Each plugin's node id.
        placed: Every record of the corpus (a member's labels may be those of what it is part of).
    """

    def inherited(key: str) -> Labels:
        seen: set[str] = set()
        at: str | None = key
        while at is not None and at not in seen:
            if declared[at]:
                return declared[at]
            seen.add(at)
            at = outer.get(at)
        return ()

    def depth(key: str) -> int:
        n, at = 0, outer.get(key)
        while at is not None and n <= len(outer):
            n, at = n + 1, outer.get(at)
        return n

    by_id = {p.id: p for p in placed}
    walk = {node_ids[k]: inherited(k) for k in declared}
    inner: dict[str, list[str]] = {}
    for key, up in outer.items():
        if up is not None:
            inner.setdefault(up, []).append(key)
    out: dict[str, Labels] = {}
    for key in sorted(declared, key=depth, reverse=True):  # a plugin inside another first
        if inherited(key):
            out[key] = declared[key]  # what it is part of gives the rest (`inherited_access`)
            continue
        labels = [member_labels(m, by_id, walk) for m in members.get(key, ())]
        out[key] = union_of(labels + [out[k] for k in inner.get(key, ())])
    return out
