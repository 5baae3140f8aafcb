"""A source read from a new folder under the name it is held by, its old folder gone: a move.

A source is held under its name and its root folder (`ingest.provenance`), and two folders
cannot share a name: the items of one would replace the other's (`check_sources` refuses
it). A folder moved (``mv w w4``) and indexed from there under its held name
(``index w4 --source-name w``, or ``index other/w`` with none) was refused all the same,
and the way out, ``remove-source w`` then that command, embedded every text again: the
vectors went with the removed items (``items.sqlite`` overwrites deleted rows). Now, when
each folder the index holds the source from is gone from disk (or is no folder any more)
and the new path is a folder (`moves`), the run goes ahead as a move: once the new folder
has been read and yields items, the held items are recorded under the new folder
(`move_held`: one write, their ids and texts unchanged, so nothing is embedded), and the
run then mirrors the folder as any re-index does, removing the items of files it no longer
holds. The checks before that read the held items as moved (`as_moved`): a tool set's or a
corpus's ids are its items' own, and held from the old folder they were another source's.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.ingest.provenance import SOURCE_FILE, Provenance
from skill_retriever.model import Node
from skill_retriever.stores.index import Index

__all__ = ["as_moved", "move_held", "moves", "relocated"]


def moves(held: Mapping[str, Node], paths: Sequence[Path], origins: Sequence[Provenance]) -> dict[str, frozenset[str]]:
    """Source name -> the folders the index holds it from, for each source this run reads
    from a folder under a name the index holds only from folders gone from disk (or that
    are no folder now): those it moves from. A held folder still there is no move (the
    run is refused: `provenance.check_sources`)."""
    found: dict[str, frozenset[str]] = {}
    for path, origin in zip(paths, origins, strict=True):
        if not path.is_dir():  # one file of a folder (a JSON graph, a corpus, a document) moves no source
            continue
        roots = {
            root for node in held.values()
            if node.attrs.get("source_name") == origin.name
            and isinstance(root := node.attrs.get("source_root"), str) and root != origin.root
        }
        if roots and not any(Path(root).is_dir() for root in roots):
            found[origin.name] = frozenset(roots)
    return found


def _moved_path(value: str, old: Path, new: Path) -> str:
    """``value``, a path under the folder ``old``, as the same path under ``new``; any other
    value (a relative path, a URL, a path elsewhere) as it is."""
    path = Path(value)
    if not path.is_absolute() or not path.is_relative_to(old):
        return value
    return str(new / path.relative_to(old))


def relocated(node: Node, root: str) -> Node:
    """``node`` recorded under the folder ``root``: its ``source_root``, and its ``source``
    and ``source_file`` where they lie under its old root, now under ``root``."""
    old, new = node.attrs.get("source_root"), Path(root)
    if not isinstance(old, str) or old == root:
        return node
    attrs = {**node.attrs, "source_root": root}
    if isinstance(recorded := attrs.get(SOURCE_FILE), str) and recorded:
        attrs[SOURCE_FILE] = _moved_path(recorded, Path(old), new)
    return node.with_changes(source=_moved_path(node.source, Path(old), new), attrs=attrs)


def _moving(node: Node, origin: Provenance, roots: Collection[str]) -> bool:
    return node.attrs.get("source_name") == origin.name and node.attrs.get("source_root") in roots


def as_moved(held: Mapping[str, Node], origin: Provenance, roots: Collection[str] | None) -> Mapping[str, Node]:
    """``held`` with the items of ``origin``'s name held from ``roots`` recorded under its
    folder (``held`` itself when it moves from none)."""
    if not roots:
        return held
    return {i: relocated(n, origin.root) if _moving(n, origin, roots) else n for i, n in held.items()}


def move_held(index: Index, origin: Provenance, roots: Collection[str]) -> dict[str, Any]:
    """Record the items ``index`` holds of ``origin``'s name from ``roots`` under its folder,
    in one write (their texts unchanged, nothing is embedded); what moved, as ``index
    --json`` shows it: ``{"from": [old folders], "to": new folder, "items": count}``."""
    moving = [relocated(n, origin.root) for n in index.snapshot().nodes.values() if _moving(n, origin, roots)]
    index.upsert(moving)
    return {"from": sorted(roots), "to": origin.root, "items": len(moving)}
