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

A source read from one file whose ids are its items' own (a JSON graph, a passage corpus:
`FILE_KINDS`) moves the same way, from its folder gone to the new file's: it was refused
(one file moved no source), and the way out, ``remove-source`` first, embedded every text
again. Such a file is one of its folder's, read under a name it gives no id, so the read
must show it is that source's file moved: it holds an item the source held, with the same
id and text (`moved_file`), and is refused before anything is written when it holds none.
The held file it holds most of those items of is recorded as this file (renamed too:
``mv g/graph.json h/incidents.json``); the others of the folder move with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.advice import Word, command
from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.provenance import SOURCE_FILE, Provenance, owner_file
from skill_retriever.model import Node
from skill_retriever.stores.index import Index

__all__ = ["FILE_KINDS", "as_moved", "move_held", "moved_file", "moves", "relocated"]

#: The source kinds read from one file whose ids are the items' own, which such a file
#: moves (a document's id begins with its path in its folder: one file moves no source).
FILE_KINDS = ("json", "passages")


def moves(
    held: Mapping[str, Node], paths: Sequence[Path], origins: Sequence[Provenance], kinds: Sequence[str]
) -> dict[str, frozenset[str]]:
    """Source name -> the folders the index holds it from, for each source this run reads
    from a folder, or a file of `FILE_KINDS`, under a name the index holds only from folders
    gone from disk (or that are no folder now): those it moves from. A held folder still
    there is no move (the run is refused: `provenance.check_sources`)."""
    found: dict[str, frozenset[str]] = {}
    for path, origin, kind in zip(paths, origins, kinds, strict=True):
        if not path.is_dir() and kind not in FILE_KINDS:  # one document file moves no source
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


def relocated(node: Node, root: str, file: Mapping[str, str] | None = None) -> Node:
    """``node`` recorded under the folder ``root``: its ``source_root``, and its ``source``
    and ``source_file`` where they lie under its old root, now under ``root``; where they
    name the file ``file["from"]``, the file ``file["to"]`` (a one-file source moved)."""
    old, new = node.attrs.get("source_root"), Path(root)
    if not isinstance(old, str) or old == root:
        return node

    def moved(value: str) -> str:
        return file["to"] if file is not None and value == file["from"] else _moved_path(value, Path(old), new)

    attrs = {**node.attrs, "source_root": root}
    if isinstance(recorded := attrs.get(SOURCE_FILE), str) and recorded:
        attrs[SOURCE_FILE] = moved(recorded)
    return node.with_changes(source=moved(node.source), attrs=attrs)


def _moving(node: Node, origin: Provenance, roots: Collection[str]) -> bool:
    return node.attrs.get("source_name") == origin.name and node.attrs.get("source_root") in roots


def as_moved(held: Mapping[str, Node], origin: Provenance, roots: Collection[str] | None) -> Mapping[str, Node]:
    """``held`` with the items of ``origin``'s name held from ``roots`` recorded under its
    folder (``held`` itself when it moves from none)."""
    if not roots:
        return held
    return {i: relocated(n, origin.root) if _moving(n, origin, roots) else n for i, n in held.items()}


def moved_file(
    held: Mapping[str, Node], origin: Provenance, roots: Collection[str] | None, file: Path | None,
    read: Iterable[Node], index_dir: Word | None = None,
) -> dict[str, str] | None:
    """For a source moved by one ``file`` (`FILE_KINDS`) that this run read as ``read``, the
    held file it is, ``{"from": old file, "to": file}``: the one most of the held items it
    holds again (same id and text) were read from. None when the source is not moved by one
    file, the read is empty (nothing is written), or no held item names its file.

    Raises:
        IngestError: ``read`` holds no item of the source (same id and text): the file is
            not that source's moved (the command it advises names the index at ``index_dir``).
    """
    read = list(read)
    if not roots or file is None or not read:
        return None
    mine = {i: n for i, n in held.items() if _moving(n, origin, roots)}
    again = [old for n in read if (old := mine.get(n.id)) is not None and old.text == n.text]
    if not again:
        raise IngestError(
            f"source {origin.name!r} is held from {' and '.join(sorted(roots))} (gone from disk), but {file} "
            f"holds none of its {len(mine)} item(s) (no item of the same id and text): it is not that source's "
            f"file moved; index it under a name of its own (--source-name NAME), or, if it takes that source's "
            f"place, run `{command(['remove-source', origin.name], index_dir)}` first, then this command again "
            "(nothing was written)"
        )
    files = Counter(str(f) for old in again if (f := owner_file(old)) is not None)
    return {"from": files.most_common(1)[0][0], "to": str(file)} if files else None


def move_held(
    index: Index, origin: Provenance, roots: Collection[str], file: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Record the items ``index`` holds of ``origin``'s name from ``roots`` under its folder
    (and those of the held ``file["from"]`` as read from ``file["to"]``), in one write (their
    texts unchanged, nothing is embedded); what moved, as ``index --json`` shows it:
    ``{"from": [old folders], "to": new folder, "items": count}``, with ``"file": file``
    for a one-file move."""
    moving = [relocated(n, origin.root, file) for n in index.snapshot().nodes.values() if _moving(n, origin, roots)]
    index.upsert(moving)
    return {"from": sorted(roots), "to": origin.root, "items": len(moving), **({"file": dict(file)} if file else {})}
