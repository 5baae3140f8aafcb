"""The index version a caller may be shown: that of the last write which changed something
the caller may see.

The index's version counts every write, and the MCP status resource gave it to every caller,
so a caller who sees public items only saw it move when nothing but a private item had
changed: it learned that private items exist and when they are written. Each write now also
records the version it reached under the access labels of what it touched (a node before
and after it: its labels; an edge: those of both its ends, each of which the caller must see),
as ``seen_versions`` in the index's meta, written in the same transaction as the rows. A
caller is shown the highest version recorded under labels it may see all of. An index
written before this kept none: the version it had when first written again is recorded as
seen by everyone (every caller was shown it already), and until then its version is shown
to everyone as before.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

from skill_retriever.filters import ALL_PRINCIPALS, Filters
from skill_retriever.model import Edge, Node
from skill_retriever.stores.rows import EdgeRow, NodeRow

META_KEY = "seen_versions"
_EVERYONE = "[]"  # the key of a write every caller may see (public items only)


def _key(accesses: Iterable[Sequence[str]]) -> str:
    """The labels a caller must be admitted to, each set of them, as one JSON key."""
    return json.dumps(sorted({tuple(sorted(a)) for a in accesses if a}))


def touched(
    before: Mapping[str, Node],
    edges_before: Mapping[str, Edge],
    node_rows: Sequence[NodeRow],
    edge_rows: Sequence[EdgeRow],
    delete_nodes: Iterable[str],
    delete_edges: Iterable[str],
) -> set[str]:
    """The keys of everything one write changes, read against the items as they were
    (``before``) and as the write leaves them."""
    after = {**before, **{r.node.id: r.node for r in node_rows}}
    keys: set[str] = set()
    for r in node_rows:
        keys.add(_key([r.node.access]))
        if (old := before.get(r.node.id)) is not None:
            keys.add(_key([old.access]))
    keys.update(_key([old.access]) for i in delete_nodes if (old := before.get(i)) is not None)

    def ends(edge: Edge, nodes: Mapping[str, Node]) -> str:
        return _key([n.access for end in (edge.source, edge.target) if (n := nodes.get(end)) is not None])

    keys.update(ends(r.edge, after) for r in edge_rows)
    keys.update(ends(r.edge, before) for r in edge_rows if r.edge.id in edges_before)
    keys.update(ends(was, before) for i in delete_edges if (was := edges_before.get(i)) is not None)
    return keys


def record(stored: str | None, keys: set[str], version: int, previous: int) -> str:
    """``stored`` with ``keys`` set to ``version`` (``previous``: the version before this write)."""
    seen: dict[str, int] = json.loads(stored) if stored else ({_EVERYONE: previous} if previous else {})
    seen.update(dict.fromkeys(keys, version))
    return json.dumps(seen, sort_keys=True)


def shown_version(stored: str | None, version: int, filters: Filters) -> int:
    """The version a caller ``filters`` admits is shown: the last write it could see."""
    principals = filters.principals
    if stored is None or (principals is not None and ALL_PRINCIPALS in principals):
        return version

    def may_see(access: list[str]) -> bool:
        return principals is not None and not principals.isdisjoint(access)

    seen: dict[str, int] = json.loads(stored)
    return max((v for k, v in seen.items() if all(map(may_see, json.loads(k)))), default=0)


__all__ = ["META_KEY", "record", "shown_version", "touched"]
