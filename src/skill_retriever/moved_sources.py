"""A folder that looks moved: a source the index holds is gone from disk, and the folder
indexed now holds its files again, at the same paths with the same text.

Indexed at its new path, a renamed folder of documents or skills is a second source (its
ids begin with the new name), and the old one stays, since a folder gone cannot be read
to mirror it. Answers then fold the two copies, and led with the old one, whose ``file:``
no longer exists, where its id sorted first (they now lead with the copy that is there:
`components.present_copy`). Only ``stats`` said the old folder was gone; the run that
reads the copy says it too, with the command that takes the old one out (`moved_here`).
Indexed under the old source's name instead, the folder is that source moved
(`source_moves`), its items and vectors kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from skill_retriever.advice import Word, command
from skill_retriever.held_sources import held_sources
from skill_retriever.ingest.provenance import Provenance, item_file
from skill_retriever.ingest.result import Problem
from skill_retriever.model import Node

__all__ = ["moved_here"]


def moved_here(
    held: Mapping[str, Node], origin: Provenance, path: Path, read: Iterable[Node], index_dir: Word | None = None
) -> list[Problem]:
    """A note for each source the index (at ``index_dir``) holds, other than ``origin``,
    whose folder is gone from disk and of whose items this run (reading ``path`` as
    ``origin``) read ``read`` again: the same text from a file at the same path under its
    folder."""
    if not path.is_dir():
        return []
    here = {(rel, n.text) for n in read if (rel := _relative(n, origin.root)) is not None}
    notes = []
    for source in held_sources(held):
        if source.name == origin.name or source.root.exists():
            continue
        old = [n for n in held.values()
               if n.attrs.get("source_name") == source.name and n.attrs.get("source_root") == str(source.root)]
        if count := sum(1 for n in old if (_relative(n, source.root), n.text) in here):
            notes.append(Problem(str(path), (
                f"the source {source.name!r} ({source.root}, gone from disk) holds {count} of the item(s) "
                f"this run read, at the same paths: if this folder is that one moved, "
                f"`{command(['remove-source', source.name], index_dir)}` takes the old copy out "
                "(until then answers fold the two, led by the copy that is there, and name the old one beside it)"
            ), read_whole=True))
    return notes


def _relative(node: Node, root: str | Path) -> str | None:
    """The file ``node`` was read from, relative to ``root``; None when it has none there."""
    file = item_file(node, root)
    if file is None or not file.is_relative_to(root):
        return None
    return file.relative_to(root).as_posix()
