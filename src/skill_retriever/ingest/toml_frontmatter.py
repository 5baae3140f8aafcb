"""Hugo's TOML frontmatter: the block between a first line ``+++`` and the next ``+++``.

Hugo writes a page's frontmatter as TOML as often as YAML (``title = "..."``, ``date =
2026-10-01``, ``lastmod = ...``): read only as YAML, such a runbook was named after its
file, undated without a word (every since/until window left it out), and its TOML block
was read as its text. Parsed by the standard library's ``tomllib``, whose dates come as
``date`` / ``datetime`` values, read as a YAML block's are.
"""

from __future__ import annotations

import re
import tomllib

from skill_retriever.ingest.frontmatter import (
    MAX_FRONTMATTER_BYTES,
    FrontmatterError,
    FrontmatterResult,
)

__all__ = ["toml_frontmatter"]

_OPEN_RE = re.compile(r"\A\+\+\+[ \t]*\n")
_CLOSE_RE = re.compile(r"^\+\+\+[ \t]*$", re.MULTILINE)


def toml_frontmatter(text: str) -> FrontmatterResult | None:
    """The fields and body of ``text`` when it opens with a ``+++`` line; None otherwise.

    Raises:
        FrontmatterError: The block is never closed, too large, or not valid TOML.
    """
    normal = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")  # as split_frontmatter reads it
    opened = _OPEN_RE.match(normal)
    if opened is None:
        return None
    close = _CLOSE_RE.search(normal, opened.end())
    if close is None:
        raise FrontmatterError("frontmatter opened with '+++' but never closed; add a closing '+++' line")
    block = normal[opened.end() : close.start()]
    if len(block.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES:
        raise FrontmatterError(f"frontmatter is over {MAX_FRONTMATTER_BYTES // 1024} KB; refused unparsed")
    try:
        data = tomllib.loads(block)
    except tomllib.TOMLDecodeError as exc:
        raise FrontmatterError(f"frontmatter is not valid TOML: {exc}") from exc
    except RecursionError as exc:  # arrays nested thousands deep
        raise FrontmatterError("frontmatter is nested too deeply to parse") from exc
    return FrontmatterResult(dict(data), normal[close.end() :].lstrip("\n"), has_frontmatter=True)
