"""A result's one-line snippet as a person reads it (``query``'s text output).

Agent descriptions of some catalogues hold escape text: a YAML plain scalar keeps
``\\n`` as a backslash and an ``n`` (davila7's ``kubernetes-specialist``: "Specifically:
\\n\\n<example>\\nContext: ..."), and Claude Code's own agent files wrap worked examples in
``<example>``/``<commentary>`` tags. Printed as is, the one line shows ``\\n\\n<example>``.
Display only: the index keeps the text as written (the embeddings and the benchmarks
read it so), and ``--json`` keeps the snippet as the search returned it.
"""

from __future__ import annotations

import re

__all__ = ["readable_snippet"]

#: A written-out escape of a line break or tab (two characters), not ``\\n``; a
#: Windows path (``C:\new\tools``) is matched first and kept as written.
_ESCAPE_RE = re.compile(r"(?<!\w)[A-Za-z]:\\\S*|(?<!\\)\\[nrt]")
#: Tags that wrap a part of an agent's description (Claude Code's examples), dropped
#: wherever they stand: the snippet is cut, so the closing tag is often gone.
_BLOCK_TAGS = frozenset({"example", "examples", "commentary", "context", "reasoning", "user_request"})
#: An opening or closing tag without attributes: ``<example>``, ``</commentary>``.
_TAG_RE = re.compile(r"<(/?)([A-Za-z][\w-]*)>")


def readable_snippet(snippet: str) -> str:
    """``snippet`` with written-out ``\\n``, ``\\r`` and ``\\t`` read as spaces and the
    tags of a description's blocks dropped, on one line.

    A tag is dropped when its name is one of the block tags, or when the snippet holds it
    both opened and closed (a pair is markup); a lone ``<T>`` or ``<repo>`` is a
    placeholder of the text (``List<T>``, ``git clone <repo>``) and stays.
    """
    text = _ESCAPE_RE.sub(lambda m: m.group(0) if len(m.group(0)) > 2 else " ", snippet)
    closed = {m.group(2) for m in _TAG_RE.finditer(text) if m.group(1)}
    opened = {m.group(2) for m in _TAG_RE.finditer(text) if not m.group(1)}
    paired = closed & opened

    def drop(m: re.Match[str]) -> str:
        name = m.group(2)
        return " " if name.casefold() in _BLOCK_TAGS or name in paired else m.group(0)

    return " ".join(_TAG_RE.sub(drop, text).split())
