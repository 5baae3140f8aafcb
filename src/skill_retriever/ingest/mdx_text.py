"""An MDX body as the prose it renders: ESM and JSX tags out, what the tags wrap kept
(`documents` reads an ``.mdx`` file's body through `without_mdx_syntax`).

Why: ``import Note from './Note'`` and ``<Tabs groupId="os">`` are code the page runs,
not what it says. Indexed as text they are words a query matches and the embedder reads
in place of the page's own; and a paragraph wrapped in ``<Note>...</Note>`` began with
``<``, which the description reads as HTML and passes over (`document_text`).

The rule, outside fenced code blocks (````` ``` ````` or ``~~~``, at any indentation: the
fence and the code in it are kept as written, only the fence's own indentation out):

- an ESM block (a line that begins with ``import`` or ``export`` followed by a space or
  ``{``, up to the next blank line, as MDX reads it) goes;
- a JSX tag goes, opening, closing or self-closing, with its attributes (quoted strings
  and ``{...}`` expressions three braces deep, over several lines too) and fragments
  ``<>`` ``</>``; the text between an opening and a closing tag stays. A ``<`` that opens
  no tag (``a < b``, an autolink ``<https://...>``) and one inside inline code
  (`` `<Tabs>` ``) stay;
- a JSX comment ``{/* ... */}`` goes (MDX has no HTML comments), over several lines too;
- the lines are dedented (and trailing white space goes): MDX has no indented code
  blocks, and the text a component wraps is usually indented under it, which Markdown
  would read as code.

Line for line: the body keeps its number of lines (a line that held only ESM or a tag is
blank), so that a section's ``line`` still points at its line in the file. Linear time:
the tag pattern's quantifiers are possessive and stop at the next ``<`` or ``>``, and an
inline code span's closing run is found by one pass over the line's backtick runs.
"""

from __future__ import annotations

import bisect
import re

__all__ = ["without_mdx_syntax"]

_FENCE_RE = re.compile(r"^([ \t]*)(`{3,}|~{3,})")
_ESM_RE = re.compile(r"^(?:import|export)[ \t{]")
_INNER = r"\{[^{}]*+(?:\{[^{}]*+\}[^{}]*+)*+\}"
_BRACES = r"\{[^{}]*+(?:" + _INNER + r"[^{}]*+)*+\}"  # a {...} expression, three braces deep
_TAG_RE = re.compile(
    r"<(?![A-Za-z][\w+.-]*+:)"  # an autolink (<https://...>, <mailto:...>) is no tag
    r"(?:/?[A-Za-z][\w.-]*+(?=[\s/>])"  # a name
    r"(?:[^<>{}\"'`]|\"[^\"\n]*+\"|'[^'\n]*+'|" + _BRACES + r")*+"  # attributes
    r"/?>|/?>)"  # the end, or a fragment
)
_TICKS_RE = re.compile(r"`+")


def without_mdx_syntax(body: str) -> str:
    """``body`` (an MDX file's text after its frontmatter) without its ESM and JSX tags,
    dedented, line for line (see the module's rule)."""
    lines = body.split("\n")
    out: list[str] = []
    prose: list[str] = []  # the lines since the last fence line, outside fences
    fence, indent = "", 0
    for line in lines:
        opened = _FENCE_RE.match(line)
        if fence:
            if opened and opened.group(2)[0] == fence[0] and len(opened.group(2)) >= len(fence):
                out.append(line.lstrip())
                fence = ""
            else:  # code: only the fence's own indentation comes off
                out.append(line[min(indent, len(line) - len(line.lstrip(" \t"))):])
            continue
        if opened:
            out += _prose(prose)
            prose = []
            out.append(line.lstrip())
            fence, indent = opened.group(2), len(opened.group(1))
            continue
        prose.append(line)
    out += _prose(prose)
    return "\n".join(out)


def _prose(lines: list[str]) -> list[str]:
    """Lines outside fences, ESM and tags out, dedented, as many as were given."""
    if not lines:
        return []  # "".split("\n") would give one line: a fence right after a fence
    kept: list[str] = []
    esm = False
    for line in lines:
        if not line.strip():
            esm = False
        elif not esm and _ESM_RE.match(line):
            esm = True
        kept.append("" if esm else line)
    text = _without_comments("\n".join(kept))
    code = _code_spans(text)
    starts = [a for a, _ in code]

    def drop(found: re.Match[str]) -> str:
        at = bisect.bisect_right(starts, found.start()) - 1
        if at >= 0 and code[at][1] > found.start():
            return found.group()  # inside inline code: written, not run
        return "\n" * found.group().count("\n")  # the tag's lines stay, blank

    return [line.strip() for line in _TAG_RE.sub(drop, text).split("\n")]


def _without_comments(text: str) -> str:
    """``text`` without its JSX comments (``{/* ... */}``, over several lines too: MDX has
    no HTML comments), their lines kept blank; one in inline code stays, and so does an
    opener no ``*/}`` follows. One pass: the search for a close stops at the first miss."""
    code = _code_spans(text)
    starts = [a for a, _ in code]
    out: list[str] = []
    pos, close = 0, -1
    while (a := text.find("{/*", pos)) >= 0:
        if close < a + 3:  # the close found last still follows: not searched for again
            close = text.find("*/}", a + 3)
            if close < 0:
                break
        at = bisect.bisect_right(starts, a) - 1
        inside = at >= 0 and code[at][1] > a
        end = code[at][1] if inside else close + 3  # in code: go on after the code span
        out += [text[pos:a], text[a:end] if inside else "\n" * text.count("\n", a, end)]
        pos = end
    return "".join(out) + text[pos:]


def _code_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each inline code span of ``text``, ascending: a run of backticks
    up to the next run of the same length on its line."""
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):
        runs = [(m.start(), m.end()) for m in _TICKS_RE.finditer(line)]
        following: dict[int, int] = {}  # run length -> index of the next run of that length
        closes = [-1] * len(runs)
        for i in range(len(runs) - 1, -1, -1):
            length = runs[i][1] - runs[i][0]
            closes[i] = following.get(length, -1)
            following[length] = i
        i = 0
        while i < len(runs):
            if closes[i] < 0:
                i += 1
                continue
            spans.append((offset + runs[i][0], offset + runs[closes[i]][1]))
            i = closes[i] + 1
        offset += len(line) + 1
    return spans
