"""What every ingestion source returns: items plus the per-file problems it met."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Self

from skill_retriever.model import Edge, Node


class Note(str):
    """A record's warning about a file it read whole: advice to the author (frontmatter
    only lenient reading could use), not a part of the file left out."""


class UnreadEntry(str):
    """A record's warning that one entry of its file, whose id's path is ``rel``, was
    skipped for its ``access``: re-indexing keeps the entry's earlier version
    (`Unread.ITEM`), as a JSON graph's node whose labels cannot be read (pruned, it was
    said to be gone from a file that still holds it)."""

    rel: str

    def __new__(cls, text: str, rel: str) -> Self:
        made = super().__new__(cls, text)
        made.rel = rel
        return made


class Unread(Enum):
    """What a problem says could not be read: re-indexing keeps the items and relations
    an earlier run read from there (unreadable today is not gone), and only from there."""

    #: The file could not be read or parsed: the items it held are kept.
    FILE = "file"
    #: The folder could not be listed: every item from a file below it is kept.
    FOLDER = "folder"
    #: One item (or relation) of a file that was parsed could not be read: its earlier
    #: version is kept (``Problem.item`` names it); the rest of the file is authoritative.
    ITEM = "item"
    #: Nothing: the file was read and parsed, and what it produced is all it holds now
    #: (a field or an entry of it left out, or a note): the items and relations it no
    #: longer produces go.
    NOTHING = "nothing"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing a source could not read, or (``read_whole``) a note on a file it read
    whole; the run goes on either way.

    ``unread`` says what re-indexing keeps the earlier items of (`Unread`): the file by
    default. A problem about a part of a file that was read and parsed (a date kept as
    text, an MCP server entry skipped, a ``requires`` entry ignored) is
    ``Unread.NOTHING``: the file is authoritative for what it produces, so a relation
    taken out of it goes; but for an entry skipped for its ``access`` (`UnreadEntry`). One entry of such a file that names its id but cannot be read
    (a JSON graph's node with a bad field) is ``Unread.ITEM``, with that id in ``item``.
    A note never keeps anything, whatever ``unread`` says.

    ``message`` is kept with its secrets redacted, as an item's prose is: a problem names
    the value it could not read (``timestamp '...'``, ``access ... got {...}``), and a
    token or a password in the wrong field was printed in clear by ``index`` and its
    ``--json`` (`tests/ingest/test_problem_secrets.py`).
    """

    path: str
    message: str
    read_whole: bool = False
    unread: Unread = Unread.FILE
    item: str | None = None

    def __post_init__(self) -> None:
        # imported here: a query, which reads no source, need not compile the secret rules
        from skill_retriever.ingest.prose_secrets import redact_prose

        object.__setattr__(self, "message", redact_prose(self.message))

    @property
    def keeps(self) -> Unread:
        """What re-indexing keeps for this problem: a note keeps nothing."""
        return Unread.NOTHING if self.read_whole else self.unread

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(slots=True, repr=False)
class IngestResult:
    """Nodes and edges read from one source, and what went wrong per file. Its ``repr``
    is one line of counts (the nodes' whole texts made ``print`` of a run 170 KB)."""

    source: str
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0

    def extend(self, other: IngestResult) -> None:
        self.nodes.extend(other.nodes)
        self.edges.extend(other.edges)
        self.problems.extend(other.problems)
        self.seconds += other.seconds

    @property
    def skips(self) -> list[Problem]:
        """The problems that left something out (not notes on files read whole)."""
        return [p for p in self.problems if not p.read_whole]

    @property
    def notes(self) -> list[Problem]:
        """The notes on files read whole (`Problem.read_whole`)."""
        return [p for p in self.problems if p.read_whole]

    def __repr__(self) -> str:
        """The source and how many of each (`nodes`, `edges`, `problems`: the lists themselves)."""
        return (
            f"IngestResult(source={self.source!r}, nodes={len(self.nodes)}, edges={len(self.edges)}, "
            f"problems={len(self.skips)}, notes={len(self.notes)}, seconds={self.seconds:.1f})"
        )

    def summary(self, name: str | None = None) -> str:
        """One line: the source (under ``name`` when it is indexed under another name than
        its folder's), its counts and time."""
        notes = len(self.notes)
        label = f"{name} ({self.source})" if name and name != Path(self.source).name else self.source
        return (
            f"{label}: {len(self.nodes)} nodes, {len(self.edges)} edges, "
            f"{len(self.problems) - notes} problems{f', {notes} notes' if notes else ''}, {self.seconds:.1f} s"
        )

    def problem_lines(self, limit: int = 10) -> list[str]:
        """What a person reads of the problems: the first ``limit`` that left something
        out, one by one, then the notes grouped by what they say (one line per kind with
        its count and an example), so that 229 files of one lenient frontmatter do not
        bury the one file that could not be read."""
        skips = self.skips
        lines = [f"problem: {problem_text(p)}" for p in skips[:limit]]
        if len(skips) > limit:
            lines.append(f"... {len(skips) - limit} more problems (see --json)")
        return lines + note_lines(self.notes, limit)


#: What a problem's line adds about what re-indexing keeps of the file or item it names.
_KEPT = {
    Unread.FILE: " (what was indexed from it before, if anything, stays)",
    Unread.ITEM: " (its version indexed before, if any, stays)",
}


def problem_text(problem: Problem) -> str:
    """``path: message``, and what the index keeps of what it names: the same in the text
    of a run and in its ``--json`` (which once left the keeping out, so a program could
    not tell a skipped file's items kept from a file's items gone)."""
    return f"{problem}{_KEPT.get(problem.keeps, '')}"


def warning_problem(path: str, warning: str, corpus: str) -> Problem:
    """The problem a record's ``warning`` is, against its file ``path``: a note (`Note`),
    an entry skipped whose earlier version stays (`UnreadEntry`), else a part of a file
    read and parsed, which keeps nothing (`Unread.NOTHING`)."""
    if isinstance(warning, UnreadEntry):
        return Problem(path, warning, unread=Unread.ITEM, item=f"{corpus}/{warning.rel}")
    return Problem(path, warning, read_whole=isinstance(warning, Note), unread=Unread.NOTHING)


def note_lines(notes: list[Problem], limit: int = 10) -> list[str]:
    """One line per kind of note, the most common kind first (ties: the kind met first),
    each an example file with its whole message (the advice too) and how many more say
    the same; at most ``limit`` kinds, then how many kinds more."""
    kinds: dict[str, list[Problem]] = {}
    for note in notes:
        kinds.setdefault(note_kind(note.message), []).append(note)
    ranked = sorted(kinds.values(), key=len, reverse=True)  # stable: ties keep the order met
    lines = []
    for same in ranked[:limit]:
        more = f" (and {len(same) - 1} more file(s) like it; see --json)" if len(same) > 1 else ""
        lines.append(f"note: {same[0]}{more}")
    if len(ranked) > limit:
        rest = sum(len(same) for same in ranked[limit:])
        lines.append(f"... {len(ranked) - limit} more kinds of note, on {rest} file(s) (see --json)")
    return lines


#: The particulars of a note, which notes of one kind differ in: quoted text, then any
#: word holding a digit or a path's separator (a path, a line number, ``passage:3#2``).
_QUOTED_RE = re.compile(r"'[^']*'|\"[^\"]*\"")
_PARTICULAR_RE = re.compile(r"[^\s,;()]*[\d/\\][^\s,;()]*")


def note_kind(message: str) -> str:
    """What a note says, its particulars masked: notes of one kind differ only in those.

    The reason a parser gave stays in (YAML's "did not find expected key" and "mapping
    values are not allowed" are two kinds, fixed two ways), and so does the advice."""
    return _PARTICULAR_RE.sub("#", _QUOTED_RE.sub("'…'", message))
