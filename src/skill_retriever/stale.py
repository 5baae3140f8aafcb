"""What a source indexed again no longer has: the items and relations a re-index removes.

Indexing a source again mirrors it (`indexing.index_sources`): what the index holds from
it that the latest read did not produce goes (`stale_ids`, `stale_edge_ids`), except what
the read could not see. A file it could not read or parse, a folder it could not list, or
one record it could not read (`ingest.result.Unread`) keeps what an earlier run read from
there: unreadable today is no proof of gone. A file read and parsed with a warning is no
such problem: it is authoritative for what it produces.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from skill_retriever.cross_source import claims
from skill_retriever.ingest.provenance import (
    Provenance,
    derived,
    item_file,
    owner_file,
    recorded_file,
    unlinked,
)
from skill_retriever.ingest.result import IngestResult, Unread
from skill_retriever.model import Node
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["stale_edge_ids", "stale_ids"]


@dataclass(frozen=True, slots=True)
class _Troubled:
    """What this read could not read (`Problem.keeps`): files, and folders it could not
    list. What an earlier run read from there is kept, unreadable today being no proof
    that it is gone."""

    files: frozenset[Path | None]
    folders: tuple[Path, ...]
    items: frozenset[str] = frozenset()  # ids of items and relations it could not read

    def __contains__(self, file: object) -> bool:
        if file in self.files:
            return True
        return isinstance(file, Path) and any(file.is_relative_to(folder) for folder in self.folders)


def _troubled_files(result: IngestResult, origin: Provenance) -> _Troubled:
    """The files and folders this read could not read. A file it read and parsed is none,
    whatever it warned about (a date kept as text, an entry skipped): it is authoritative
    for what it produces; nor is a file a note is about."""
    files = {recorded_file(p.path, origin.root) for p in result.problems if p.keeps is Unread.FILE}
    folders = {recorded_file(p.path, origin.root) for p in result.problems if p.keeps is Unread.FOLDER}
    items = {p.item for p in result.problems if p.keeps is Unread.ITEM and p.item is not None}
    return _Troubled(frozenset(files), tuple(f for f in folders if f is not None), frozenset(items))


def stale_ids(held: IndexSnapshot, result: IngestResult, origin: Provenance, path: Path) -> list[str]:
    """Ids the index holds from this source that its latest read did not produce: the
    file was deleted or renamed, or the item left the file.

    An item counts as this source's when its recorded provenance (name and root) is
    ``origin``'s, and, for a source that is one file (a JSON graph, a corpus), when it
    came from that file (`item_file`: the file it was read from, whatever ``source`` it
    names): two files in one folder share a root. An item of another file of the folder
    that was deleted or renamed since (its file, `owner_file`, is gone) is stale too,
    and so is an entity a corpus derived (`provenance.derived`: it records no file, being
    the folder's) that nothing staying links to (`provenance.unlinked`). Kept whatever the
    read said: items without provenance (written through the API, or by an older version),
    items of a file this read could not read or parse, or from below a folder it could
    not list (`Unread`: unreadable today is not gone; a warning about a file it read is
    no such problem), and everything when the read produced no item at all (a wrong or
    emptied folder must not wipe a source).
    """
    if not result.nodes:
        return []
    fresh = {n.id for n in result.nodes}
    troubled = _troubled_files(result, origin)
    one_file = None if path.is_dir() else path.resolve()
    stale, shared = [], []
    for node_id, node in held.nodes.items():
        if node_id in fresh or not _of(node, origin) or _record_unread(node_id, node, troubled):
            continue
        if derived(node):  # no file of its own: it goes when nothing staying links to it
            shared.append(node_id)
            continue
        file = item_file(node, origin.root)
        if file in troubled or (one_file is not None and file != one_file and not _file_gone(node)):
            continue
        stale.append(node_id)
    return sorted(stale + unlinked(held.nodes, held.edges.values(), shared, fresh.union(stale), result.edges))


def _of(node: Node, origin: Provenance) -> bool:
    """Whether ``node`` was indexed from ``origin`` (its recorded name and root)."""
    return node.attrs.get("source_name") == origin.name and node.attrs.get("source_root") == origin.root


def _record_unread(node_id: str, node: Node, troubled: _Troubled) -> bool:
    """Whether this read could not read ``node``'s own record, or the passage it is a fact of."""
    return node_id in troubled.items or node.attrs.get("passage") in troubled.items


def _unread(node_id: str, node: Node, troubled: _Troubled, origin: Provenance) -> bool:
    """Whether this read could not read ``node`` (one of ``origin``'s): its record, the
    passage it is a fact of, its file, or a folder above it (a derived item, an entity,
    has no file of its own)."""
    if _record_unread(node_id, node, troubled):
        return True
    return not derived(node) and item_file(node, origin.root) in troubled


def _file_gone(node: Node) -> bool:
    """Whether a file owns ``node`` in its folder (`owner_file`) and that file is gone."""
    file = owner_file(node)
    return file is not None and not file.exists()


def stale_edge_ids(held: IndexSnapshot, result: IngestResult, origin: Provenance) -> list[str]:
    """Relations the index holds from items this read produced, that it no longer
    produces: a ``requires`` taken out of a SKILL.md, an edge taken out of a JSON graph.
    Edges of an item whose file this read could not read stay (what could not be read
    today is not gone; a warning about a file it read keeps nothing), and so does every
    edge when the read produced nothing. So does an edge to an item of the source that
    this read could not read (kept as it was): a name is resolved among what was read, so
    the ``requires`` naming it made no edge this time, and its edge is as good as the item.
An edge to another source that the item's unresolved names claim (`cross_source.claims`)
is left to `cross_source.link_across_sources`, which runs after the write: it keeps the
edge while the name still resolves there, and takes it out when it no longer does."""
    if not result.nodes:
        return []
    fresh = {n.id: n for n in result.nodes}
    troubled = _troubled_files(result, origin)
    kept = {e.id for e in result.edges}

    def kept_target(target: str) -> bool:
        node = held.nodes.get(target)
        return node is not None and target not in fresh and _of(node, origin) and _unread(target, node, troubled, origin)

    return sorted(
        edge_id
        for edge_id, edge in held.edges.items()
        if edge.source in fresh
        and edge_id not in kept
        and edge_id not in troubled.items
        and item_file(fresh[edge.source], origin.root) not in troubled
        and not kept_target(edge.target)
        and not claims(fresh[edge.source], held.nodes.get(edge.target), edge.kind)
    )
