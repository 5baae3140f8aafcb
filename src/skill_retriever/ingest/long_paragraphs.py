"""Where a paragraph too long for one part may be cut: at its line ends, and inside a line
at its sentence ends (`document_sections`).

Why: a section is cut into parts at blank lines (its paragraphs), and a paragraph longer
than a part stayed whole. Generated documentation has such paragraphs: a page on one line
(a 130,000-character line in a scraped PyTorch FSDP reference, 61,000 in a DeepSpeed one:
two skills of davila7/claude-code-templates), or a table or list of thousands of lines with
no blank line between them. As one item, no token budget holds it and the embedder reads
its first 256 word pieces.

`with_paragraph_breaks` gives the body's lines with a blank line put in wherever a
paragraph outside fenced code would otherwise run past the limit, so that the paragraph
cut (`section_cuts.cut_ranges`) can cut there:

- between two lines of the paragraph, when the next one would take it past the limit;
- inside a line longer than the limit (`line_pieces`): at the last sentence end (``.``,
  ``!`` or ``?``, closing quotes and brackets kept with it, then white space) that keeps
  the piece within the limit; at the last space when that piece would be shorter than
  half the limit (a line of few sentences); at the limit itself when there is no space.
  The white space at a cut belongs to neither piece. A piece does not begin with ``#``,
  a backtick or ``~`` (so that no cut makes a heading or opens a code block) unless the
  last half of the limit holds nothing else.

Lines inside a fenced code block are never cut or separated: code is read whole. Each
line given out says which line of the body it comes from, so that a part still points at
its line in the file (a part cut inside a line points at that line). The only change to
the text is white space: a part that begins inside a line begins at its sentence, and
where two pieces end up in one part (rare: the cut keeps each near the limit) they are
two paragraphs instead of one.

Linear in the body: a long line's sentence ends and spaces are each found by one pass of
a pattern that cannot backtrack, each piece finds its cut among them by bisection, and a
cut at the limit looks back over at most half the limit.
"""

from __future__ import annotations

import bisect
import re

from skill_retriever.ingest.document_text import prose_lines

__all__ = ["line_pieces", "with_paragraph_breaks"]

# The end of a sentence and the white space after it, followed by a character that can
# begin a piece (not white space, not what would make it a heading or a code fence). The
# white space is matched from its first character only and possessively (``++``): a run of
# two million spaces before a ``#`` is one failed attempt, not one per space.
_SENTENCE_END_RE = re.compile(r"[.!?][\"')\]]*+([ \t]++)(?=[^\s#`~])")
_BLANKS_RE = re.compile(r"(?<![ \t])([ \t]++)(?=[^\s#`~])")
_NOT_FIRST = frozenset("#`~ \t")

#: Where pieces may end, ascending, and where the piece after each begins.
_Cuts = tuple[list[int], list[int]]


def line_pieces(line: str, limit: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each piece of ``line``, each at most ``limit`` characters, cut
    as the module says; ``[(0, len(line))]`` when it fits."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if len(line) <= limit:
        return [(0, len(line))]
    sentences, blanks = _cuts(_SENTENCE_END_RE, line), _cuts(_BLANKS_RE, line)
    pieces: list[tuple[int, int]] = []
    start = 0
    while len(line) - start > limit:
        end, following = _last_cut(sentences, start, limit) or _last_cut(blanks, start, limit) or _hard_cut(
            line, start, limit)
        pieces.append((start, end))
        start = following
    pieces.append((start, len(line)))
    return pieces


def _cuts(pattern: re.Pattern[str], line: str) -> _Cuts:
    """Every place ``pattern``'s white space (its group 1) lets a piece end, in one pass."""
    ends: list[int] = []
    follows: list[int] = []
    for found in pattern.finditer(line):
        ends.append(found.start(1))
        follows.append(found.end(1))
    return ends, follows


def _last_cut(cuts: _Cuts, start: int, limit: int) -> tuple[int, int] | None:
    """The last of ``cuts`` that keeps the piece from ``start`` within ``limit``, or None
    when it would leave the piece shorter than half the limit."""
    ends, follows = cuts
    at = bisect.bisect_right(ends, start + limit) - 1
    if at >= 0 and ends[at] > start and ends[at] - start >= limit // 2:
        return ends[at], follows[at]
    return None


def _hard_cut(line: str, start: int, limit: int) -> tuple[int, int]:
    """A cut at the limit, moved back (by at most half the limit) off a character that may
    not begin a piece."""
    cut, floor = start + limit, start + max(1, limit // 2)
    while cut > floor and line[cut] in _NOT_FIRST:
        cut -= 1
    return cut, cut


def with_paragraph_breaks(body: str, limit: int) -> tuple[list[str], list[int]]:
    """The lines of ``body`` with blank lines put in where a paragraph would run past
    ``limit`` characters (each line counted with its newline, as a part's size is), and
    for each line given out, the index of the body's line it comes from."""
    lines = body.split("\n")
    prose = {n for n, _ in prose_lines(body)}
    out: list[str] = []
    origin: list[int] = []
    run = 0  # characters since the last blank line outside fences
    for n, line in enumerate(lines):
        if n in prose and not line.strip():
            run = 0
            out.append(line)
            origin.append(n)
            continue
        pieces = line_pieces(line, limit) if n in prose else [(0, len(line))]
        for piece, (a, b) in enumerate(pieces):
            size = b - a + 1
            if n in prose and run and (piece > 0 or run + size > limit):
                out.append("")  # a paragraph break the cut may use
                origin.append(n)
                run = 0
            out.append(line[a:b])
            origin.append(n)
            run += size
    return out, origin
