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
  block) stays whole. So is a lead (the text before the first section) longer than
  `SPLIT_CHARS`: the short sections merged into it ran to 80,000 characters in one item;
- a section still longer than `SPLIT_CHARS` (a 130,000-character API reference under one
  ``##``) is cut into parts of at most that size at blank lines outside fenced code
  blocks (its paragraphs): the first keeps the heading, the others are ``heading (part
  2)``, ``(part 3)``...; a paragraph longer than that is first given breaks at its line
  ends and, inside a line, at its sentence ends (`long_paragraphs`), and a code block
  longer than that stays whole in its part;
- a cut never falls between a heading (of any level, or an underlined one) and its first
  paragraph: one that would falls before the heading (`section_cuts`); and a part that
  begins at a split heading (a short section's, merged into the one before, or one in a
  body cut at its paragraphs) is named by it, not ``part 2``;
- the lead never takes in a part over `SPLIT_CHARS` alone (a code block that stays
  whole): the file's own item is its title and introduction, the block ``part 2``;
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

import re
from dataclasses import dataclass
from itertools import accumulate

from skill_retriever.ingest.document_text import cut, plain, prose_lines
from skill_retriever.ingest.long_paragraphs import with_paragraph_breaks
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.section_cuts import cut_breaks, cut_ranges

# Re-exported (`__all__`) from their own module, which printing an answer imports alone.
from skill_retriever.item_location import file_location, read_from, section_line

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
    """A document split: the lead (what precedes the first section, the title and
    introduction, or its first part when that is long) and the sections, in the order of
    the file."""

    lead: str
    sections: tuple[Section, ...]


@dataclass(slots=True)
class _Part:
    heading: str  # raw: markup and all (`heading_text` reads it)
    level: int
    start: int  # index of the heading line in the body
    end: int  # index of the line after the part


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
    cuts = _Cuts(lines, cut_breaks(lines, suffix), offsets, split_chars, min_section_chars)
    found = _headings(body) if suffix.lower() in SPLIT_SUFFIXES else []
    at = {p.start: p.heading for p in found}  # a part that begins at a heading is named by it
    merged = _by_heading(found, lines, offsets, min_section_chars)
    # Without two sections, the whole body is the lead's stretch: cut at its paragraphs.
    lead, extra = cuts.parts(_Part("", 0, 0, merged[0].start if len(merged) > 1 else len(lines)), lead=True)
    if len(merged) < 2 and not extra:
        return None
    pieces: list[_Part] = []
    headings: list[str] = []
    for n, piece in enumerate(extra, 2):
        pieces.append(piece)
        headings.append(_part_name(piece, n, "", at))
    for p in merged if len(merged) > 1 else []:
        title = heading_text(p.heading)  # markup and secrets read once per section, not per part
        first, rest = cuts.parts(p)
        pieces += [first, *rest]
        headings += [title, *(_part_name(piece, n, title, at) for n, piece in enumerate(rest, 2))]
    return Split("\n".join(lines[lead.start: lead.end]).strip(), _sections(lines, pieces, headings, first_line, origin))


def _part_name(piece: _Part, n: int, title: str, at: dict[int, str]) -> str:
    """The name of part ``n`` (from 2) of a section named ``title`` ('' for the lead's): the
    heading it begins at when it begins at one (``at``: raw headings by line), else
    ``title (part n)``, or ``part n``."""
    if piece.start in at:
        return heading_text(at[piece.start])
    return f"{title} (part {n})" if title else f"part {n}"


@dataclass(frozen=True, slots=True)
class _Cuts:
    """What cutting a stretch of the body into parts reads (`section_cuts.cut_ranges`)."""

    lines: list[str]
    breaks: list[int]
    offsets: list[int]
    limit: int
    minimum: int

    def parts(self, part: _Part, *, lead: bool = False) -> tuple[_Part, list[_Part]]:
        """``part``'s first piece and the others (none when it fits)."""
        ranges = cut_ranges(part.start, part.end, self.lines, self.breaks, self.offsets, self.limit, self.minimum,
                            lead=lead)
        pieces = [_Part(part.heading, part.level, a, b) for a, b in ranges]
        if not pieces:  # nothing but blank lines: an empty lead
            return _Part(part.heading, part.level, part.start, part.start), []
        return pieces[0], pieces[1:]


def _by_heading(parts: list[_Part], lines: list[str], offsets: list[int], min_section_chars: int) -> list[_Part]:
    """The sections a Markdown body's split headings (``parts``) make, short ones merged
    (`_merged`); the title (a level-1 heading with nothing before it) stays in the lead."""
    if parts and parts[0].level == 1 and not any(line.strip() for line in lines[: parts[0].start]):
        parts = parts[1:]
    if not parts:
        return []
    parts = [_Part(p.heading, p.level, p.start, p.end) for p in parts]  # `_merged` grows them
    for part, following in zip(parts, [p.start for p in parts[1:]] + [len(lines)], strict=True):
        part.end = following
    return _merged(parts, offsets, min_section_chars)


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
