"""Links between the documents of one folder -> MENTIONS edges ("this one refers to that").

Read from the prose of each document (`document_text.prose_lines`: not from code blocks):

- Markdown inline links and images ``[text](other.md)``, ``[text](<../x/other.md> "title")``
  and reference definitions ``[ref]: other.md``;
- reStructuredText hyperlinks `` `text <other.rst>`_ `` (and anonymous ``__``) and Sphinx
  ``:doc:`other``` (the target without its suffix, or from the folder's root when it
  begins with ``/``).

A target is taken up to its ``#anchor`` or ``?query``, percent-decoded, and resolved
against the linking file's folder. It makes an edge only when it names another document
of the same read: a URL (any ``scheme:``), a path out of the folder, an absolute path, a
file that is missing or was not read, and a link of a document to itself make none, and
say nothing (a link is the author's to keep or drop; a broken one is no indexing
problem). One edge per pair, whatever the number of links, weighted 1: a link is a
reference the author wrote, unlike a name found in the text (`skill_links.MENTION_WEIGHT`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from urllib.parse import unquote

from skill_retriever.ingest.document_text import prose_lines
from skill_retriever.model import Edge, EdgeKind

# A destination holds no ``<`` in angle brackets (CommonMark), and none of ``( ) < > ]``
# bare: each scan ends at the next link's start, so a line of thousands of ``](<`` is
# read once, not once per ``](`` (a bare one once ran to the line's end from each: time
# growing with the square of the line).
_MD_LINK_RE = re.compile(r"\]\(\s*(?:<([^<>\n]*)>|([^()<>\s\]]+))(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_MD_REFERENCE_RE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?")
_RST_LINK_RE = re.compile(r"`[^`<]*<([^>`]+)>`__?")
_RST_DOC_RE = re.compile(r":doc:`(?:[^`<]*<([^>`]+)>|([^`<]+))`")
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_RST_SUFFIXES = (".rst", ".md", ".txt")


def link_edges(bodies: Mapping[str, str], ids: Mapping[str, str]) -> list[Edge]:
    """The MENTIONS edges the documents' links make.

    Args:
        bodies: Relative POSIX path of each document -> its body.
        ids: Relative POSIX path of each document read -> its node id (a link to a path
            not here makes no edge).
    """
    edges: list[Edge] = []
    seen: set[tuple[str, str]] = set()
    for rel, body in bodies.items():
        source = ids.get(rel)
        if source is None:
            continue
        for target_rel in _targets(rel, body, ids):
            target = ids[target_rel]
            if target == source or (source, target) in seen:
                continue
            seen.add((source, target))
            edges.append(Edge(source, target, EdgeKind.MENTIONS, 1.0, "links to it"))
    return edges


def _targets(rel: str, body: str, ids: Mapping[str, str]) -> Iterable[str]:
    """The documents of ``ids`` that ``rel``'s links lead to, in the order they appear."""
    folder = posixpath.dirname(rel)
    for _, line in prose_lines(body):
        written = [a or b for a, b in _MD_LINK_RE.findall(line)]
        written += _MD_REFERENCE_RE.findall(line) + _RST_LINK_RE.findall(line)
        for target in written:
            found = _resolve(folder, target)
            if found is not None and found in ids:
                yield found
        for a, b in _RST_DOC_RE.findall(line):
            found = _resolve_doc(folder, (a or b).strip())
            for suffix in _RST_SUFFIXES:
                if found is not None and found + suffix in ids:
                    yield found + suffix
                    break


def _resolve(folder: str, target: str) -> str | None:
    """The relative path ``target`` names from ``folder``; None for a URL, an absolute
    path, a bare anchor or a path out of the folder."""
    target = target.strip()
    if not target or _SCHEME_RE.match(target) or target.startswith(("/", "#", "\\")):
        return None
    path = unquote(re.split(r"[#?]", target, maxsplit=1)[0])
    if not path:
        return None
    joined = posixpath.normpath(posixpath.join(folder, path))
    return None if joined == ".." or joined.startswith("../") else joined


def _resolve_doc(folder: str, target: str) -> str | None:
    """A Sphinx ``:doc:`` target (no suffix) as a relative path: from the folder's root
    when it begins with ``/``, else from the linking file's folder."""
    if target.startswith("/"):
        return _resolve("", target.lstrip("/"))
    return _resolve(folder, target)
