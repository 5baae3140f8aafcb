"""Where a long stretch of a document is cut into parts: at its paragraph ends, never
between a heading and its first paragraph (`document_sections`).

Why: a part is an item of its own, named after the heading it begins with. A cut at the
blank line under ``## S1507`` left the heading at the end of one part, over nothing, and
its text at the start of the next, which no heading named.

`cut_breaks` gives the blank lines outside fenced code (`document_text.prose_lines`) that
do not follow a heading (`document_text.ends_heading`: Markdown ATX and setext headings,
reStructuredText underlined titles); `cut_ranges` packs the lines between them greedily.
"""

from __future__ import annotations

import bisect

from skill_retriever.ingest.document_text import ends_heading, prose_lines

__all__ = ["cut_breaks", "cut_ranges"]


def cut_breaks(lines: list[str], suffix: str) -> list[int]:
    """The lines a part may be cut at, ascending: blank lines outside fences (the blank line
    belongs to neither side), but for one under a heading, whose cut moves to the first
    line of the heading (or of the headings stacked there: ``## A`` right over ``### B``)
    when no blank line comes before it (the heading then begins the next part)."""
    prose = {n for n, _ in prose_lines("\n".join(lines))}
    breaks: list[int] = []
    run = -1  # the first line of the headings that the last line not blank ends, else -1
    previous = ""
    for n, line in enumerate(lines):
        if not line.strip():
            if n in prose:
                if run < 0:
                    breaks.append(n)
                elif run > 0 and lines[run - 1].strip() and (not breaks or breaks[-1] != run):
                    breaks.append(run)  # a paragraph right over the heading: cut at the heading
            previous = ""
            continue
        if n in prose and ends_heading(line, previous, suffix):
            run = run if run >= 0 else _heading_start(lines, n)
        else:
            run = -1
        previous = line if n in prose else ""
    return breaks


def _heading_start(lines: list[str], n: int) -> int:
    """The first line of the heading that line ``n`` ends: itself (``# Title``), the text
    line over an underline, or the overline over that."""
    if lines[n].lstrip().startswith("#") or n == 0:
        return n
    over = lines[n - 2].strip() if n >= 2 else ""
    return n - 2 if over and set(over) == set(lines[n].strip()) else n - 1


def cut_ranges(
    start: int, end: int, lines: list[str], breaks: list[int], offsets: list[int], limit: int, minimum: int,
    *, lead: bool = False,
) -> list[tuple[int, int]]:
    """Lines ``start`` to ``end`` as ranges ``(first, after)`` of at most ``limit``
    characters, each cut at one of ``breaks`` (`cut_breaks`; the blank line itself belongs
    to neither side, a heading begins the next): the greedy cut, at the last break that keeps a range within the limit.

    A paragraph longer than the limit (a code block: `long_paragraphs` gave prose its
    breaks) is a range of its own, and a range shorter than ``minimum`` (a heading and a
    line before such a paragraph) joins the next (which may then run past the limit by less
    than ``minimum``), the last the one before it; but with ``lead`` (the text before a
    document's first section: its own item) the first range does not take in a next one
    that is over the limit alone, or the file's item would hold a whole code block. A
    range of blank lines is dropped, and each begins at its first line that is not blank
    (the line its item points at). Itself alone when it fits.
    Linear in the breaks: each is looked at most twice."""
    if offsets[end] - offsets[start] <= limit:
        return [(start, end)]
    inside = breaks[bisect.bisect_right(breaks, start): bisect.bisect_left(breaks, end)]
    ranges: list[list[int]] = []
    first, cut, i = start, None, 0
    while i < len(inside):
        brk = inside[i]
        if brk > first and offsets[brk] - offsets[first] > limit:
            stop = cut if cut is not None else brk  # the last break that fit; here when none did
            ranges.append([first, stop])
            first, cut = _after(lines, stop), None
            i += stop == brk  # a break before this one ended the range: look at this one again
            continue
        if brk > first:
            cut = brk
        i += 1
    if offsets[end] - offsets[first] > limit and cut is not None:
        ranges.append([first, cut])
        first = _after(lines, cut)
    ranges.append([first, end])
    ranges = [[begin, b] for a, b in ranges
              if (begin := next((n for n in range(a, b) if lines[n].strip()), None)) is not None]

    def size(r: list[int]) -> int:
        return offsets[r[1]] - offsets[r[0]]

    joined: list[list[int]] = []
    for r in ranges:
        keeps_lead = lead and len(joined) == 1 and size(r) > limit
        if joined and size(joined[-1]) < minimum and not keeps_lead:
            joined[-1][1] = r[1]  # the short range before takes this one in
        else:
            joined.append(r)
    if len(joined) > 1 and size(joined[-1]) < minimum:
        last = joined.pop()  # popped first: `joined[-2][1] = joined.pop()[1]` indexes after the pop
        joined[-1][1] = last[1]
    return [(a, b) for a, b in joined]


def _after(lines: list[str], cut: int) -> int:
    """Where the range after a cut at line ``cut`` begins: past a blank line, at a heading."""
    return cut if lines[cut].strip() else cut + 1
