"""Which of a Chroma server's vectors differ from the index they mirror, by id and hash,
for ``stats``.

A reader judges its server by counts alone (``stores.remote``: one count per version, so
a query pays nothing more). That misses a vector the server holds for an item whose text
changed while the server was down (the write is committed to ``items.sqlite``; its mirror
failed), and an id deleted and another added meanwhile: the counts match, queries take
their candidates from the old vectors, and only ``repair`` noticed. ``stats`` can afford
to read every id and hash once, and compares them with what ``items.sqlite`` records, as
``remote.sync_remote`` does when it brings the server in step. :func:`out_of_step` words
the counts a reader judges by.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.filters import vector_metadata
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.snapshot import IndexSnapshot
from skill_retriever.stores.sqlite_connect import connect

__all__ = ["compare", "drift_phrase", "held_hashes", "out_of_step"]


def held_hashes(path: Path, snapshot: IndexSnapshot) -> tuple[dict[str, str], dict[str, str]]:
    """The ``hash`` metadata each node and edge vector of ``snapshot`` carries on a server
    in step (``remote.mirror`` writes it): a node's holds its kind and access labels too.
    Only the vectors a server in step holds: usable ones, of items the snapshot has."""
    con = connect(path / mf.DATABASE, writable=False)
    try:
        # The node row's hash is its vector's (a changed text is a new row and a new vector).
        nodes = dict(con.execute("SELECT id, hash FROM nodes WHERE vector IS NOT NULL").fetchall())
        edges = dict(con.execute("SELECT id, vhash FROM edges WHERE vector IS NOT NULL").fetchall())
    finally:
        con.close()
    node_ids, edge_ids = snapshot.vector_ids()
    return (
        {i: str(vector_metadata(snapshot.nodes[i], str(nodes[i]))["hash"]) for i in node_ids if i in nodes},
        {i: str(edges[i]) for i in edge_ids if i in edges},
    )


def compare(pairs: list[tuple[Mapping[str, str], Mapping[str, str]]]) -> dict[str, Any]:
    """How the server's ids and hashes (the first of each pair, one pair per collection)
    differ from the index's (the second): ``stale`` (another hash: embedded from another
    text, or labelled otherwise), ``missing`` (not on the server), ``extra`` (not in the
    index), ``vectors`` (their sum) and ``first`` (one such id, None without any)."""
    stale = missing = extra = 0
    first: str | None = None
    for stored, want in pairs:
        for i, h in want.items():
            found = stored.get(i)
            if found == h:
                continue
            if found is None:
                missing += 1
            else:
                stale += 1
            first = first or i
        for i in stored:
            if i not in want:
                extra += 1
                first = first or i
    return {"vectors": stale + missing + extra, "stale": stale, "missing": missing, "extra": extra, "first": first}


def drift_phrase(drift: Mapping[str, Any]) -> str:
    """``compare``'s counts in words: "2 vectors differ from the index (1 stale: ...)"."""
    parts = []
    if drift["stale"]:
        parts.append(f"{drift['stale']} stale: embedded from an older text of their item, or with other access labels")
    if drift["missing"]:
        parts.append(f"{drift['missing']} missing there")
    if drift["extra"]:
        parts.append(f"{drift['extra']} of items the index does not have")
    return f"{drift['vectors']} vector(s) differ from the index ({'; '.join(parts)}; first: {drift['first']})"


def out_of_step(names: Sequence[str], have: Sequence[int | None], want: Sequence[int]) -> str:
    """How a server's collections differ from the index they mirror, and the likely
    causes; "" when they hold as many vectors as it (``have`` None: a missing collection)."""
    if list(have) == list(want):
        return ""
    held = " and ".join(f"{'no collection' if n is None else f'{n} vectors'} in {name}" for name, n in zip(names, have, strict=True))
    pairs = list(zip(have, want, strict=True))
    causes = []
    if any(n is None for n, _ in pairs):
        causes.append("the server lost the collections (its data was wiped, or they were deleted)")
    if any(n is not None and n < w for n, w in pairs):
        causes.append("a write stopped before copying its vectors there, or entries were deleted on the server")
    if any(n is not None and n > w for n, w in pairs):
        causes.append(
            "entries were added on the server that the index does not have (another program wrote to the "
            "collection), or a delete stopped before removing them there"
        )
    # A write or delete under way brings a count level by itself; lost collections it does
    # not: a writer makes them again at its next write or search (said after this by
    # `repair_wait.while_writing` while one holds the lock), a reader never.
    level = any(n is not None and n != w for n, w in pairs)
    catch_up = "; a write in progress catches up by itself" if level else ""
    return f"holds {held}, where the index has {want[0]} node and {want[1]} edge vectors ({'; or '.join(causes)}{catch_up})"
