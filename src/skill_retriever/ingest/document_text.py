"""What a plain document's body says about it: its title and its first paragraph.

A document (`documents`) without a frontmatter ``title`` / ``name`` is named by its first
level-1 heading: Markdown ``# Title`` (or ``Title`` underlined with ``===``, with or
without an overline); in reStructuredText its first title whatever the character that
underlines it (``=``, ``-``, ``~``, ``^``, ``*``, ...: the first style met is the top level).
Without a frontmatter ``description`` / ``summary`` it is described by its first paragraph
of prose after that title: headings (a line underlined, as RST and setext headings are,
included), code blocks, tables, lists, HTML, images, rules and RST directives are no prose
and are passed over. Inline markup is taken out so that the
description reads as text (a link keeps its words, inline code its code), and it is cut
at a word to `DESCRIPTION_CHARS`. Nothing inside a fenced code block (````` ``` ````` or
``~~~``) or an HTML comment counts as a heading, a paragraph or a link (`prose_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: A description longer than this is cut at a word, with "..." after it.
DESCRIPTION_CHARS = 300
#: Of a title or a first paragraph, this much is read (markup and all): enough for a
#: description, and the inline-markup patterns, whose cost grows faster than the text on
#: a crafted line (thousands of unclosed ``**``), never read a whole file's worth.
MARKUP_CHARS = 2_000

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_COMMENT_RE = re.compile(r"^[ \t]*<!--")
_ATX_H1_RE = re.compile(r"^ {0,3}#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_ATX_ANY_RE = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
#: A line that underlines (or overlines) a title: ``===`` at least three long.
_TITLE_RULE_RE = re.compile(r"^={3,}[ \t]*$")
#: A line that underlines a heading when it follows a line of text directly: an RST title's
#: adornment or a setext underline. ``:``, ``.``, ``_`` and backticks are left out: a
#: Docusaurus ``:::`` closing an admonition, an ellipsis, a rule, a code fence.
_UNDERLINE_RE = re.compile(r"^([=\-~^\"'+#*])\1{2,}[ \t]*$")
#: A setext heading's underline (under a line of text).
_SETEXT_RE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
#: The suffixes (lower case) whose top title may be underlined with any adornment.
RST_SUFFIXES = frozenset({".rst"})
#: The suffixes (lower case) of Markdown files.
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})
#: Any RST / setext underline or a Markdown rule: one punctuation character repeated.
_RULE_RE = re.compile(r"^ {0,3}([-=*_~^+#`:.'\"])(?:[ \t]*\1){2,}[ \t]*$")
#: Lines that begin something other than prose: a list item, a table row, HTML, an image,
#: an RST directive or field, a link definition, an admonition, an MDX import or export.
_NOT_PROSE_RE = re.compile(
    r"^\s*(?:[-*+][ \t]|\d+[.)][ \t]|\||<|!\[|\.\. |:[\w-]+:|\[[^\]]+\]:|>?\s*\[!|(?:import|export)\s)"
)
_IMAGE_RE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK_RE = re.compile(r"\[([^\]]*)\]\([^)]*\)|\[([^\]]+)\]\[[^\]]*\]")
_RST_LINK_RE = re.compile(r"`([^`<]+?)\s*<[^>]*>`__?")
_RST_ROLE_RE = re.compile(r":[\w-]+:`([^`<]+?)(?:\s*<[^>]*>)?`")
_CODE_RE = re.compile(r"``(.+?)``|`([^`]+)`")
_EMPHASIS_RE = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")
_HTML_TAG_RE = re.compile(r"</?[A-Za-z][^>]*>")
_SPACE_RE = re.compile(r"\s+")


def prose_lines(body: str) -> Iterator[tuple[int, str]]:
    """The lines of ``body`` with their numbers, those inside fenced code blocks left out
    (a block left open runs to the end, as Markdown renders it), and those of an HTML
    comment that begins a line (``<!--`` to the line holding ``-->``): it renders as
    nothing, and its inner lines, not beginning with ``<``, read as a paragraph."""
    fence, comment = "", False
    for number, line in enumerate(body.split("\n")):
        if comment:
            comment = "-->" not in line
            continue
        opened = _FENCE_RE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        if _COMMENT_RE.match(line):
            comment = "-->" not in line[line.index("<!--") + 4:]
            continue
        yield number, line


def first_title(body: str, suffix: str = "") -> tuple[str, int] | None:
    """The first level-1 heading's text (markup taken out) and the number of the line after
    it; None when the body has none.

    Args:
        body: The document's text after its frontmatter.
        suffix: The file's suffix (any case): in reStructuredText (`RST_SUFFIXES`) the first
            title underlined with any adornment is the top one; elsewhere only ``===`` (a
            ``---`` underline is a Markdown level-2 heading).
    """
    underline = _UNDERLINE_RE if suffix.lower() in RST_SUFFIXES else _TITLE_RULE_RE
    lines = list(prose_lines(body))
    for i, (number, line) in enumerate(lines):
        atx = _ATX_H1_RE.match(line)
        if atx:
            title = plain(atx.group(1))
            if title:
                return title, number + 1
            continue
        following = lines[i + 1] if i + 1 < len(lines) else None
        if (
            following is not None
            and following[0] == number + 1
            and underline.match(following[1])
            and line.strip()
            and not _RULE_RE.match(line)
        ):
            title = plain(line)
            if title:
                return title, number + 2
    return None


def first_paragraph(body: str, start: int = 0) -> str:
    """The first paragraph of prose from line ``start`` on, as plain text cut to
    `DESCRIPTION_CHARS`; '' when there is none."""
    paragraph: list[str] = []
    read = 0  # characters in ``paragraph``
    previous = start - 1
    for number, line in prose_lines(body):
        if number < start:
            continue
        if paragraph and number == previous + 1 and _UNDERLINE_RE.match(line):
            paragraph, read = [], 0  # underlined: a heading (RST, setext), not the paragraph
            previous = number
            continue
        if paragraph and (number != previous + 1 or not _is_prose(line)):
            break  # a blank line, a code block or another block ends the paragraph
        previous = number
        if _is_prose(line):
            paragraph.append(line.strip().lstrip(">").strip())
            read += len(paragraph[-1])
            if read > MARKUP_CHARS:
                break  # enough for a description (`plain` reads no more)
    return cut(plain(" ".join(paragraph)))


def ends_heading(line: str, previous: str, suffix: str) -> bool:
    """Whether ``line`` (outside fenced code) is a heading or the underline that ends one.

    Args:
        line: The line.
        previous: The line before it ('' when none).
        suffix: The file's suffix (any case): Markdown has ATX headings (``#`` to ``######``)
            and setext ones (a line of text underlined with ``===`` or ``---``),
            reStructuredText a line of text underlined with any adornment; plain text none.
    """
    kind = suffix.lower()
    if kind in MARKDOWN_SUFFIXES:
        if _ATX_ANY_RE.match(line):
            return True
        underline = _SETEXT_RE.match(line)
    elif kind in RST_SUFFIXES:
        underline = _UNDERLINE_RE.match(line)
    else:
        return False
    return bool(underline and previous.strip() and not _RULE_RE.match(previous))


def _is_prose(line: str) -> bool:
    stripped = line.strip()
    return bool(
        stripped
        and not _ATX_ANY_RE.match(line)
        and not _RULE_RE.match(line)
        and not _NOT_PROSE_RE.match(line)
        and not line.startswith(("    ", "\t"))  # an indented code block
    )


def plain(text: str) -> str:
    """``text`` (its first `MARKUP_CHARS`) with Markdown and RST inline markup taken out,
    its spaces collapsed."""
    text = _IMAGE_RE.sub("", text[:MARKUP_CHARS])
    text = _LINK_RE.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _RST_LINK_RE.sub(r"\1", text)
    text = _RST_ROLE_RE.sub(r"\1", text)
    text = _CODE_RE.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _EMPHASIS_RE.sub(lambda m: m.group(2) or m.group(3) or "", text)
    text = _HTML_TAG_RE.sub("", text)
    return _SPACE_RE.sub(" ", text).strip()


def cut(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """``text`` cut at the last word that fits in ``limit`` characters, "..." after it."""
    if len(text) <= limit:
        return text
    head = text[: limit - 3]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" ,;:.") + "..."
