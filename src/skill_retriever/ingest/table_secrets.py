"""Secrets in the cells of Markdown tables, redacted: `redact_tables`.

A runbook lists credentials as tables as often as assignments (``| DB_PASSWORD |
hunter2xyz9 |``). A cell is redacted when it reads as a literal secret
(`secret_values.literal_word`, a secret in braces: `braced_values.literal_or_braced`,
or a quoted passphrase: `literal_phrase`) and what
names it is secret-looking (`secret_values.secret_word_name`: ``DB_PASSWORD``, ``API
key``, ``token``): the cell right before it on its row, or, in a table whose header
names a value column (``| name | value |``, ``| Variable | Description | Example |``),
the row's name cell (the header's ``name`` / ``key`` / ``variable`` column, else any
cell before the value); or the header of its own column names a secret (``| User |
Password |``, ``| Service | API key |``: `_SECRET_HEADER_RE`), or a user and its password
(``| Login |`` over ``admin / X``: only the password goes). A header such as ``| Token |
Value |`` says nothing by itself: a design system's tokens are colours (``| primary-500 |
#3B82F6 |``). An ordinary table (``| timeout | 30 |``, ``| api_key | string | required |``)
names no secret or holds no literal one, and comes back byte for byte; so does every byte
of a table but a redacted value.

Only rows that start with ``|`` are read (a table written without its outer pipes is
left to the prose rules), and a cell's text is what lies between unescaped pipes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.masked_values import masked as _masked
from skill_retriever.ingest.secret_values import literal_phrase, secret_word_name
from skill_retriever.ingest.word_lines import has_word

__all__ = ["redact_tables"]

#: A run of lines that start with ``|`` (in a block quote too): one table, or a lone row.
_TABLE_RE = re.compile(r"(?m)^[ \t]*+(?:>[ \t]*+)*+\|[^\n]*+(?:\n[ \t]*+(?:>[ \t]*+)*+\|[^\n]*+)*+")
#: A header's delimiter row (``|---|:---:|``).
_SEPARATOR_RE = re.compile(r"[ \t>]*+\|(?:[ \t]*+:?-++:?[ \t]*+\|)*+(?:[ \t]*+:?-++:?[ \t]*+)?[ \t]*+")
#: A pipe that separates cells (``\|`` is a pipe inside one).
_PIPE_RE = re.compile(r"(?<!\\)\|")
#: A cell that names something: a name or a few words (``DB_PASSWORD``, ``API key``,
#: ``Session token``), not a sentence.
_NAME_CELL_RE = re.compile(r"[A-Za-z][\w.-]*+(?: [\w.-]++){0,3}")
#: Header cells of the column that holds a value, and of the one that names it.
_VALUE_HEADERS = frozenset(("value", "values", "example", "example value", "sample", "sample value"))
_NAME_HEADERS = frozenset(
    ("name", "key", "variable", "env var", "environment variable", "setting", "field", "parameter")
)
#: A header cell that says its column holds secrets, one to a row (``| User | Password |``,
#: ``| Service | API key |``, ``| Bot | Access token |``); not a bare ``Token`` or ``Key``,
#: whose column holds a design system's tokens or a keyboard's keys.
_SECRET_HEADER_RE = re.compile(
    r"(?i)(?:(?:default|initial|admin|user|db|database|root|login)[ _-])?(?:password|passwd|passphrase|pwd|pin)"
    r"|(?:api|access|auth|bearer|secret|private|client|app|bot|personal access)[ _-]?(?:key|token|secret)|secrets?"
)
#: A header cell whose column holds a user and its password in each cell (``| Login |``,
#: ``| Credentials |``, ``| User / Password |``), and such a cell: ``admin / X``, ``admin:X``.
_CREDENTIALS_HEADER_RE = re.compile(
    r"(?i)(?:default[ _-])?(?:logins?|credentials?|creds|user(?:name)?[ \t]*+/[ \t]*+pass(?:word)?)"
)
_USER_PASSWORD_CELL_RE = re.compile(r"(?P<user>[\w.@\\-]{1,64}+)(?:[ \t]*+/[ \t]*+|:)(?P<val>\S{1,256}+)")
#: What a line must hold to name a secret (as `prose_secrets` reads only such lines).
_SECRET_LINE_WORDS = ("key", "token", "secret", "pass", "pwd", "credential", "cred", "login")
_SECRET_LINE_RE = re.compile("(?i)" + "|".join(_SECRET_LINE_WORDS))
#: Markup around a cell's text: emphasis, code spans, quotes of a name.
_MARKUP = "`*_\"' \t"


def redact_tables(text: str) -> str:
    """``text`` with the literal secrets in its Markdown tables' cells replaced by
    ``[redacted]`` (see the module docstring); text without any comes back identical."""
    if "|" not in text:
        return text
    return _TABLE_RE.sub(_table, text)


def _table(m: re.Match[str]) -> str:
    """One table (or run of rows) with its rows' secret values redacted."""
    block = m[0]
    if not has_word(block, _SECRET_LINE_RE, _SECRET_LINE_WORDS):
        return block
    lines = block.split("\n")
    header = _Header()
    first = 0
    if len(lines) > 1 and _SEPARATOR_RE.fullmatch(lines[1]) and "-" in lines[1]:
        cells = [_bare(lines[0][s:e]) for s, e in _cells(lines[0])]
        header = _Header(
            values=tuple(i for i, h in enumerate(cells) if h.lower() in _VALUE_HEADERS),
            names=tuple(i for i, h in enumerate(cells) if h.lower() in _NAME_HEADERS),
            secrets=tuple(i for i, h in enumerate(cells) if _SECRET_HEADER_RE.fullmatch(h)),
            credentials=tuple(i for i, h in enumerate(cells) if _CREDENTIALS_HEADER_RE.fullmatch(h)),
        )
        first = 2
    return "\n".join(lines[:first] + [_row(line, header) for line in lines[first:]])


@dataclass(frozen=True)
class _Header:
    """What a table's header says of its columns (by index): which hold values and
    which name them."""

    values: tuple[int, ...] = ()
    names: tuple[int, ...] = ()
    #: Columns whose header says they hold secrets (`_SECRET_HEADER_RE`).
    secrets: tuple[int, ...] = ()
    #: Columns whose header says they hold a user and a password (`_CREDENTIALS_HEADER_RE`).
    credentials: tuple[int, ...] = ()


def _row(line: str, header: _Header) -> str:
    """One row with the value after a secret-named cell, and the value columns' cells
    of a row whose name cell names a secret, redacted when they are literal secrets."""
    spans = _cells(line)
    named = [_names_secret(line[s:e]) for s, e in spans]
    targets = {i for i in range(1, len(spans)) if named[i - 1]} | {i for i in header.secrets if i < len(spans)}
    values, names = header.values, header.names
    for col in values:
        before = [i for i in (names or range(col)) if i < col and i < len(spans)]
        if col < len(spans) and any(named[i] for i in before):
            targets.add(col)
    logins = {i for i in header.credentials if i < len(spans)} - targets
    for i in sorted(targets | logins, reverse=True):  # from the right: earlier spans stay valid
        start, end = spans[i]
        redact = _redacted_login if i in logins else _redacted_cell
        line = line[:start] + redact(line[start:end]) + line[end:]
    return line


def _cells(line: str) -> list[tuple[int, int]]:
    """The spans of a row's cells: between its unescaped pipes, and after the last one
    when a row has no closing pipe."""
    pipes = [p.start() for p in _PIPE_RE.finditer(line)]
    spans = [(a + 1, b) for a, b in pairwise(pipes)]
    if pipes and line[pipes[-1] + 1 :].strip():
        spans.append((pipes[-1] + 1, len(line)))
    return spans


def _bare(cell: str) -> str:
    """A cell's text without the markup around it."""
    return cell.strip(_MARKUP)


def _names_secret(cell: str) -> bool:
    """Whether a cell is a secret's name (``DB_PASSWORD``, ``API key``)."""
    name = _bare(cell)
    return _NAME_CELL_RE.fullmatch(name) is not None and secret_word_name(name)


def _redacted_login(cell: str) -> str:
    """A user-and-password cell (``admin / X``, `` `admin:X` ``) with its password redacted
    when it is a literal secret, the user and the rest as written."""
    core = cell.strip().strip("`")
    m = _USER_PASSWORD_CELL_RE.fullmatch(core)
    if m is None or not literal_or_braced(m["val"]):
        return cell
    at = cell.index(core) + m.start("val")
    return cell[:at] + _masked(m["val"]) + cell[at + len(m["val"]) :]


def _redacted_cell(cell: str) -> str:
    """A value cell with its value redacted when it is a literal secret (in a code span
    or not, quoted or not), its padding and markup as written."""
    core = cell.strip()
    lead = cell[: len(cell) - len(cell.lstrip())]
    trail = cell[len(lead) + len(core) :]
    tick = "`" if len(core) > 2 and core[0] == core[-1] == "`" else ""
    value = core[1:-1] if tick else core
    if not (literal_or_braced(value) or literal_phrase(value)):
        return cell
    return f"{lead}{tick}{_masked(value)}{tick}{trail}"
