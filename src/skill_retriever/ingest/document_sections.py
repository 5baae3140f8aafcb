"""A long Markdown document -> its sections, each an item of its own (`documents`).

Why: the bundled embedder reads the first 256 word pieces of an item, and a token budget
keeps or drops an item whole. A 10,000-token runbook as one item is found for its
section 7 by BM25 alone, and the answer is the whole file, which the budget then drops. A
section is what answers, and its file and line are what an editor opens.

The rule (`split_sections`):

- only a Markdown body (``.md``, ``.markdown``, ``.mdx``) is split at headings: they say
  where a part begins; reStructuredText and plain text have no heading syntax as reliable;
- only a body (the text after the frontmatter) longer than `SPLIT_CHARS` is split: a short
  document already fits the embedder's window and a budget, and is best answered whole;
- it is split at ATX headings of level 1 to 3 (``#``, ``##``, ``###``) outside fenced code
  blocks (````` ``` ````` or ``~~~``, as `document_text.prose_lines` reads them): a
  ``# comment`` line in a bash block is no heading. Deeper headings stay inside their
  section, which they subdivide too finely to answer alone. A level-1 heading with nothing
  but blank lines before it is the document's title, not a split: the lead (what precedes
  the first split) keeps it, with the introduction after it;
- a section shorter than `MIN_SECTION_CHARS` (its heading line counted) joins the section
  before it, or the lead when it comes before the first long enough: a heading over one
  line is no answer of its own;
- a body that headings do not split (fewer than two sections are left, or it is not
  Markdown) is cut at its paragraphs, as a long section is (below): the first part is the
  lead, the others ``part 2``, ``part 3``...; a body that cannot be cut (one code
  block) stays whole;
- a section still longer than `SPLIT_CHARS` (a 130,000-character API reference under one
  ``##``) is cut into parts of at most that size at blank lines outside fenced code
  blocks (its paragraphs): the first keeps the heading, the others are ``heading (part
  2)``, ``(part 3)``...; a paragraph longer than that is first given breaks at its line
  ends and, inside a line, at its sentence ends (`long_paragraphs`), and a code block
  longer than that stays whole in its part;
- each section keeps its heading (markup out, secrets redacted, cut to `HEADING_CHARS`:
  it is part of the item's name, id and attrs, which no redaction pass reads), its 1-based
  line in the file (the caller gives the line the body starts on, after the frontmatter)
  and its text from the heading line on; its slug is unique within the document, the way
  GitHub makes heading anchors (lower case, spaces to ``-``, punctuation out, a repeat
  ``-1``, ``-2``, ...).

Linear time on any input: a line is matched by anchored patterns that cannot backtrack,
a heading's closing ``#`` sequence is taken off by string methods, and sections are
joined as ranges of lines (their sizes from running offsets), never by concatenating
text again and again.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from skill_retriever.ingest.document_text import cut, plain, prose_lines
from skill_retriever.ingest.long_paragraphs import with_paragraph_breaks
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.model import Node, NodeKind

#: A Markdown body longer than this (characters, about 10,000 tokens) is split into
#: sections. Tuned on the benchmark's documents set (skills dev-as-documents: SKILL.md
#: files judged whole, a section scored as its file): at 6,000 (359 of 590 files split)
#: the default nDCG@10 fell from 75.8 to 68.7, at 20,000 (39 files) to 71.1 (a focused
#: section outranks a whole file that answers as well, and files judged whole pay for
#: it); at 40,000 (4 files) it is 76.3.
SPLIT_CHARS = 40_000
#: A section shorter than this (characters, its heading line counted) joins a neighbour.
MIN_SECTION_CHARS = 400
#: A heading longer than this is cut at a word: it is part of an item's name.
HEADING_CHARS = 120
#: A slug longer than this is cut: it is part of an item's id (at most 512 characters).
SLUG_CHARS = 80
#: A split document's own item lists this many of its sections' headings.
LISTED_HEADINGS = 40
#: The suffixes (lower case) of the files that are split.
SPLIT_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})

# Anchored, fixed-width alternatives: no backtracking whatever the line holds.
_SPLIT_HEADING_RE = re.compile(r" {0,3}(#{1,3})(?:[ \t]|$)")


@dataclass(frozen=True, slots=True)
class Section:
    """One section: its heading's text, slug, 1-based line in the file and text (from the
    heading line on, trailing blank lines out)."""

    heading: str
    slug: str
    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Split:
    """A document split: the lead (what precedes the first split heading, the title and
    introduction) and the sections, in the order of the file."""

    lead: str
    sections: tuple[Section, ...]


@dataclass(slots=True)
class _Part:
    heading: str  # raw: markup and all (`heading_text` reads it)
    level: int
    start: int  # index of the heading line in the body
    end: int  # index of the line after the part


def section_line(node: Node) -> int | None:
    """The line of its file a document's section starts on (its ``line`` attr), or None
    for any other item: what ``query``, the MCP search tool, the LangChain documents and
    ``install``'s refusal point at."""
    line = node.attrs.get("line")
    return line if node.kind is NodeKind.DOCUMENT and isinstance(line, int) else None


def read_from(node: Node) -> dict[str, Any]:
    """Where ``node`` was read: ``source`` ('' when none) and, for a section, ``line`` (the
    fields ``query --json``, the MCP tools and the LangChain documents give)."""
    line = section_line(node)
    return {"source": node.source, **({"line": line} if line is not None else {})}


def file_location(node: Node) -> str:
    """Where to open ``node``: its ``source``, with ``:line`` for a section."""
    line = section_line(node)
    return node.source if line is None else f"{node.source}:{line}"


def split_sections(
    body: str,
    suffix: str,
    *,
    first_line: int = 1,
    split_chars: int = SPLIT_CHARS,
    min_section_chars: int = MIN_SECTION_CHARS,
) -> Split | None:
    """The sections of ``body``, or None when it is not split (see the module's rule).

    Args:
        body: The document's text after its frontmatter, newlines normalised to ``\\n``.
        suffix: The file's suffix (any case), which says whether it is Markdown.
        first_line: The 1-based line of the file that ``body`` starts on.
        split_chars: A body of at most this many characters is not split.
        min_section_chars: A shorter section joins a neighbour.
    """
    if len(body) <= split_chars:
        return None
    # A paragraph longer than a part gets breaks to cut at (its lines, its sentences);
    # origin[i] is the body's line that line i comes from.
    lines, origin = with_paragraph_breaks(body, split_chars)
    body = "\n".join(lines)
    # offsets[i] = characters before line i (each line's newline counted)
    offsets = [0, *accumulate(len(line) + 1 for line in lines)]
    breaks = [n for n, line in prose_lines(body) if not line.strip()]  # paragraph ends, outside fences
    merged = _by_heading(body, lines, offsets, min_section_chars) if suffix.lower() in SPLIT_SUFFIXES else []
    if len(merged) < 2:
        return _by_paragraph(lines, offsets, breaks, split_chars, min_section_chars, first_line, origin)
    lead = "\n".join(lines[: merged[0].start]).strip()
    pieces: list[_Part] = []
    headings: list[str] = []
    for p in merged:
        title = heading_text(p.heading)  # markup and secrets read once per section, not per part
        for n, piece in enumerate(_parts_of(p, lines, breaks, offsets, split_chars, min_section_chars), 1):
            pieces.append(piece)
            headings.append(title if n == 1 else f"{title} (part {n})")
    return Split(lead, _sections(lines, pieces, headings, first_line, origin))


def _by_heading(body: str, lines: list[str], offsets: list[int], min_section_chars: int) -> list[_Part]:
    """The parts a Markdown body's split headings make, short ones merged (`_merged`); the
    title (a level-1 heading with nothing before it) stays in the lead."""
    parts = _headings(body)
    if parts and parts[0].level == 1 and not any(line.strip() for line in lines[: parts[0].start]):
        parts = parts[1:]
    if not parts:
        return []
    for part, following in zip(parts, [p.start for p in parts[1:]] + [len(lines)], strict=True):
        part.end = following
    return _merged(parts, offsets, min_section_chars)


def _by_paragraph(
    lines: list[str], offsets: list[int], breaks: list[int], limit: int, minimum: int, first_line: int,
    origin: list[int],
) -> Split | None:
    """A body that headings do not split, cut at its paragraphs (`_parts_of`): the first
    part is the lead, the others ``part 2``, ``part 3``...; None when that leaves one part."""
    pieces = _parts_of(_Part("", 0, 0, len(lines)), lines, breaks, offsets, limit, minimum)
    if len(pieces) < 2:
        return None
    lead = "\n".join(lines[pieces[0].start : pieces[0].end]).strip()
    headings = [f"part {n}" for n in range(2, len(pieces) + 1)]
    return Split(lead, _sections(lines, pieces[1:], headings, first_line, origin))


def _sections(
    lines: list[str], parts: list[_Part], headings: list[str], first_line: int, origin: list[int]
) -> tuple[Section, ...]:
    """Each part as a `Section` under its heading, with a unique slug and the line of the
    file it begins on (``origin``: the body's line each of ``lines`` comes from)."""
    return tuple(
        Section(heading, slug_, first_line + origin[part.start], "\n".join(lines[part.start : part.end]).rstrip())
        for part, heading, slug_ in zip(parts, headings, unique_slugs(headings), strict=True)
    )


def overview_text(split: Split) -> str:
    """The text of a split document's own item: its lead and the list of its sections'
    headings (`LISTED_HEADINGS` at most), so that a query about the whole file finds it."""
    listed = [f"- {s.heading}" for s in split.sections[:LISTED_HEADINGS]]
    if len(split.sections) > LISTED_HEADINGS:
        listed.append(f"- and {len(split.sections) - LISTED_HEADINGS} more")
    return "\n\n".join(filter(None, [split.lead, "Sections:\n" + "\n".join(listed)]))


def _headings(body: str) -> list[_Part]:
    """The split headings (level 1-3, outside fences, with text), in order, each with its
    raw text (`heading_text` reads it only for the sections kept: a crafted body of
    500,000 headings pays the markup and secret patterns a few thousand times, not for each)."""
    parts: list[_Part] = []
    for number, line in prose_lines(body):
        found = _SPLIT_HEADING_RE.match(line)
        if not found:
            continue
        raw = _without_closing(line[found.end():])
        if raw:  # an empty heading names nothing to answer
            parts.append(_Part(raw, len(found.group(1)), number, number))
    return parts


def _without_closing(rest: str) -> str:
    """What follows a heading's ``#`` marks, stripped, its closing ``#`` sequence (one
    after a space, or all of it) out: string methods, no pattern to backtrack."""
    text = rest.strip()
    closed = text.rstrip("#")
    if closed != text and (not closed or closed[-1] in " \t"):
        return closed.rstrip()
    return text


def heading_text(raw: str) -> str:
    """A heading's text for a name, an id and attrs: inline markup out, secrets redacted,
    cut to `HEADING_CHARS` (the raw text, redacted, when no text is left without markup)."""
    return cut(redact_prose(plain(raw) or raw[:HEADING_CHARS * 2].strip()), HEADING_CHARS)


def _merged(parts: list[_Part], offsets: list[int], minimum: int) -> list[_Part]:
    """``parts`` with each shorter than ``minimum`` joined to the one before it; one
    before the first long enough is left out, so that it stays in the lead (a short "When
    to use" under the title is introduction, and named the section after it, the giant
    it joined read as "When to use"). A range of lines grows, no text is copied."""
    merged: list[_Part] = []
    for part in parts:
        if offsets[part.end] - offsets[part.start] >= minimum:
            merged.append(part)
        elif merged:
            merged[-1].end = part.end
    return merged


def _parts_of(
    part: _Part, lines: list[str], breaks: list[int], offsets: list[int], limit: int, minimum: int
) -> list[_Part]:
    """``part`` as ranges of lines of at most ``limit`` characters, each cut at one of
    ``breaks`` (blank lines outside fences, ascending; the blank line itself belongs to
    neither side): the greedy cut, at the last break that keeps a range within the limit.
    A paragraph longer than the limit (a code block: `long_paragraphs` gave prose its
    breaks) is a range of its own, and a range shorter than
    ``minimum`` (a heading and a line before such a paragraph) joins the next (which may
    then run past the limit by less than ``minimum``), the last the one before it; a
    range of blank lines is dropped, and each begins at its first line that is not blank
    (the line its item points at). Itself alone when it fits.
    Linear in the breaks: each is looked at most twice."""
    if offsets[part.end] - offsets[part.start] <= limit:
        return [part]
    inside = breaks[bisect.bisect_right(breaks, part.start): bisect.bisect_left(breaks, part.end)]
    ranges: list[list[int]] = []
    start, cut, i = part.start, None, 0
    while i < len(inside):
        brk = inside[i]
        if brk > start and offsets[brk] - offsets[start] > limit:
            end = cut if cut is not None else brk  # the last break that fit; here when none did
            ranges.append([start, end])
            start, cut = end + 1, None
            i += end == brk  # a break before this one ended the range: look at this one again
            continue
        if brk > start:
            cut = brk
        i += 1
    if offsets[part.end] - offsets[start] > limit and cut is not None:
        ranges.append([start, cut])
        start = cut + 1
    ranges.append([start, part.end])
    ranges = [[first, b] for a, b in ranges
              if (first := next((n for n in range(a, b) if lines[n].strip()), None)) is not None]
    joined: list[list[int]] = []
    for r in ranges:
        if joined and offsets[joined[-1][1]] - offsets[joined[-1][0]] < minimum:
            joined[-1][1] = r[1]  # the short range before takes this one in
        else:
            joined.append(r)
    if len(joined) > 1 and offsets[joined[-1][1]] - offsets[joined[-1][0]] < minimum:
        last = joined.pop()  # popped first: `joined[-2][1] = joined.pop()[1]` indexes after the pop
        joined[-1][1] = last[1]
    return [_Part(part.heading, part.level, a, b) for a, b in joined]


def slug(heading: str) -> str:
    """A GitHub-style anchor: lower case, spaces to ``-``, characters other than letters,
    digits, ``-`` and ``_`` out, cut to `SLUG_CHARS`; ``section`` when nothing is left."""
    kept = "".join(c for c in heading.lower() if c.isalnum() or c in "-_ ")
    return kept.replace(" ", "-")[:SLUG_CHARS] or "section"


def unique_slugs(headings: list[str]) -> list[str]:
    """The slug of each heading, a repeat given ``-1``, ``-2``, ... (the first free one)."""
    used: set[str] = set()
    next_n: dict[str, int] = {}
    out: list[str] = []
    for heading in headings:
        base = candidate = slug(heading)
        n = next_n.get(base, 0)
        while candidate in used:
            n += 1
            candidate = f"{base}-{n}"
        next_n[base] = n
        used.add(candidate)
        out.append(candidate)
    return out


__all__ = ["HEADING_CHARS", "LISTED_HEADINGS", "MIN_SECTION_CHARS", "SPLIT_CHARS", "SPLIT_SUFFIXES", "Section",
           "Split", "file_location", "heading_text", "overview_text", "read_from", "section_line", "slug", "split_sections",
           "unique_slugs"]
