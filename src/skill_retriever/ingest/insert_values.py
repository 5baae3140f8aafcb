"""The values an SQL ``INSERT`` gives a secret-named column: `redact_insert_values`.

Seed data in a database skill names its columns once and gives the values by place:
``INSERT INTO users (name, password) VALUES ('bob', 'X'), ('amy', 'Y')``. No name stands
before a value, so no assignment rule read it. Each row's value under a column whose name
is a secret's (`secret_values.secret_word_name`: ``password``, ``api_key``, ``token``) is
handed to the caller's ``masked``, which decides as for any password code passes (a
literal secret goes; ``crypt('X', ...)`` or a placeholder is the caller's to judge). A row
whose values cannot be counted against the columns (a call's parentheses in it, another
number of values) is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.secret_values import secret_word_name

__all__ = ["redact_insert_values"]

#: ``INSERT INTO table (columns) VALUES`` and its rows, each in parentheses; bounded, so a
#: long run is scanned once.
_INSERT_RE = re.compile(
    r"(?i)\binsert\s++into\s++[\w.`\"\[\]]{1,128}+\s*+\((?P<cols>[^()]{1,1024}+)\)\s*+values\s*+"
    r"(?P<rows>\([^()]{0,4096}+\)(?:\s*+,\s*+\([^()]{0,4096}+\)){0,255}+)"
)
_ROW_RE = re.compile(r"\((?P<row>[^()]*+)\)")
#: One value of a row: a quoted string (SQL's doubled quote or a backslash escape inside),
#: or a bare word (a number, ``NULL``, ``DEFAULT``) up to its comma.
_VALUE_RE = re.compile(r"""(?P<val>'(?:[^'\\\n]|\\.|'')*+'|"(?:[^"\\\n]|\\.)*+"|[^,'"()\s][^,'"()]*+)""")


def redact_insert_values(text: str, masked: Callable[[re.Match[str]], str]) -> str:
    """``text`` with each ``INSERT``'s values under secret-named columns passed through
    ``masked`` (a match whose ``val`` group is the value, quotes and all)."""
    if "insert" not in text.lower():
        return text
    out: list[str] = []
    pos = 0
    for m in _INSERT_RE.finditer(text):
        columns = [c.strip().strip('`"[]') for c in m["cols"].split(",")]
        secret = [i for i, c in enumerate(columns) if secret_word_name(c)]
        if not secret:
            continue
        for row in _ROW_RE.finditer(text, m.start("rows"), m.end("rows")):
            values = list(_VALUE_RE.finditer(text, row.start("row"), row.end("row")))
            if len(values) != len(columns):
                continue
            for i in secret:
                out += [text[pos : values[i].start()], masked(values[i])]
                pos = values[i].end()
    return "".join(out) + text[pos:] if out else text
