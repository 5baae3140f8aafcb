"""A document file indexed alone that a read of its folder leaves out: said when it is
indexed, and when the folder's read takes it out again.

``index docs/guide.adoc --kind docs`` reads the one file it is told to, whatever its
format; ``index docs`` reads the folder's documents (`document_formats.is_document`: no ``.adoc``,
no license text) and never enters `walk.SKIP_DIRS` (``node_modules``). The folder's read
mirrors the folder, so it removed that item, and the first run had said nothing of it.
Keeping it would make an index built step by step differ from one built fresh from the
same folder, so both runs say what happens and what keeps the file.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from skill_retriever.ingest.document_formats import READ_SUFFIXES, is_document
from skill_retriever.ingest.result import Problem
from skill_retriever.ingest.walk import SKIP_DIRS
from skill_retriever.model import Node, NodeKind

__all__ = ["indexed_alone_note", "removed_alone_notes"]


def _left_out(rel: str) -> tuple[str, str] | None:
    """Why a read of the folder leaves the file ``rel`` (POSIX, below the folder) out, and
    what keeps it there; None when that read takes it."""
    path = PurePosixPath(rel)
    if skipped := sorted(SKIP_DIRS.intersection(path.parts[:-1])):
        return f"it never enters {skipped[0]}/", "move the file out of it to keep it"
    if is_document(rel):
        return None
    if path.suffix.lower() in READ_SUFFIXES:
        return f"license texts ({path.name}) are left out", "rename the file to keep it"
    suffix = path.suffix.lower() or "a file without a suffix"
    return (f"{suffix} is no document format it reads; documents are {', '.join(READ_SUFFIXES)} files",
            "save it as Markdown or plain text to keep it")


def indexed_alone_note(root: Path, rel: str, node_id: str) -> list[Problem]:
    """The note on ``root / rel``, read as a document because it was named, when a read of
    ``root`` leaves it out."""
    if (left := _left_out(rel)) is None:
        return []
    return [Problem(str(root / rel), f"read because it was named, but a read of its folder {root} leaves it out "
                                     f"({left[0]}): indexing that folder again removes {node_id}; {left[1]}",
                    read_whole=True)]


def removed_alone_notes(nodes: Iterable[Node]) -> list[Problem]:
    """A note on each document of ``nodes`` (being removed by a read of its folder) whose
    file is still there but that read leaves out: it was indexed alone."""
    notes = []
    for node in nodes:
        rel = node.attrs.get("path")
        if node.kind is not NodeKind.DOCUMENT or "section" in node.attrs or not isinstance(rel, str):
            continue
        if (left := _left_out(rel)) is not None and Path(node.source).is_file():
            notes.append(Problem(node.source, f"{node.id} was indexed alone, and this read of its folder leaves "
                                              f"it out ({left[0]}): removed; {left[1]}", read_whole=True))
    return notes
