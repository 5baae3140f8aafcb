"""Files of a documents folder in a document format it does not read: said, in one note.

A docs folder often holds pages beside the Markdown that this reader cannot take (HTML
from a site generator, AsciiDoc, PDF or Word files). Left out without a word, a folder of
forty HTML pages and two Markdown files indexed "2 nodes, 0 problems". Only formats that
hold documents are named: images, scripts and data beside the documents are no
documents, and a note on each would bury the ones that matter.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from skill_retriever.ingest.result import Problem

__all__ = ["READ_SUFFIXES", "is_document", "unread_format", "unread_formats"]

#: The suffixes (lower case) of the files read as documents (`documents.DOCUMENT_SUFFIXES`),
#: in the order the messages name them.
READ_SUFFIXES = (".md", ".markdown", ".mdx", ".rst", ".txt")

#: Suffixes (lower case) of documents in formats the documents read does not parse.
UNREAD_SUFFIXES = frozenset({
    ".htm", ".html", ".xhtml", ".adoc", ".asciidoc", ".asc", ".org", ".textile", ".wiki", ".mediawiki",
    ".tex", ".rtf", ".pdf", ".doc", ".docx", ".odt", ".pages", ".epub", ".ipynb",
})  # fmt: skip

_READ = ", ".join(READ_SUFFIXES)
#: License texts, which skills skip too: no document of the folder's.
_IGNORED_STEMS = frozenset({"license", "licence", "copying", "notice"})

#: How many of the files the note names.
NAMED = 3


def is_document(rel: str) -> bool:
    """Whether the file ``rel`` (a path or a name) is read as a document."""
    path = PurePosixPath(rel)
    return path.suffix.lower() in READ_SUFFIXES and path.stem.lower() not in _IGNORED_STEMS


def unread_formats(root: Path, files: Iterable[str], documents: Iterable[str]) -> list[Problem]:
    """One note on the ``files`` (relative POSIX paths below ``root``) in a document format
    not read (`UNREAD_SUFFIXES`), counted by suffix and the first few named; none when
    there are none. A file that one of the ``documents`` read leads to (``one.md ->
    notes.org``) is read through it, and not counted."""
    through = {os.path.realpath(root / rel) for rel in documents}
    left = sorted(rel for rel in files
                  if PurePosixPath(rel).suffix.lower() in UNREAD_SUFFIXES and os.path.realpath(root / rel) not in through)
    if not left:
        return []
    counts = Counter(PurePosixPath(rel).suffix.lower() for rel in left)
    by_suffix = ", ".join(f"{s} {n}" for s, n in sorted(counts.items(), key=lambda c: (-c[1], c[0])))
    named = ", ".join(left[:NAMED]) + (f" and {len(left) - NAMED} more" if len(left) > NAMED else "")
    return [Problem(str(root), (
        f"left out {len(left)} file(s) in formats not read as documents ({by_suffix}: {named}); "
        f"documents are {_READ} files: save these as Markdown or plain text to index them"
    ), read_whole=True)]


def unread_format(path: Path) -> str | None:
    """Why ``path``, one file given to ``index``, is not read, when it is a document in a
    format not read (`UNREAD_SUFFIXES`); None for any other file."""
    suffix = path.suffix.lower()
    if suffix not in UNREAD_SUFFIXES:
        return None
    return (f"{path}: {suffix} is a format not read as a document; documents are "
            f"{_READ} files: save it as Markdown or plain text to index it")
