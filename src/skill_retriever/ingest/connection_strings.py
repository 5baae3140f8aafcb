"""A connection string's password: where ``Pwd`` names one (`connection_password`), where
an MCP argument's first value ends (`first_value_end`), one in ODBC's braces
(`redact_braced_passwords`), and where a pair stands in a connection string, its value
read past a ``&`` (`connection_pair`, `CONNECTION_VALUE`).

``Pwd`` alone is no secret's name to the command rule (shell's ``PWD=/srv/app`` is the
working directory), so a ``Pwd=`` holds a password only beside another pair of a
connection string (``Server=db;Uid=sa;Pwd=X``, ``Pwd=X;Server=db``). An MCP argument
whose first name is a secret's (``Password=X;Server=db``, ``AccountKey=X;...``) loses
that value only: the pairs after it are no secret's, or are read as a command's.

ODBC lets a value hold a ``;`` when it is braced (``PWD={a;b}``, a ``}`` inside written
``}}``), so a braced password runs to its closing brace. The rules that read an
assignment's value read it up to the ``;`` (``{a``) and took it for a template's slot
(`masked_values.slot`: ``{API_KEY}``), so the password stayed, whole or after its
``;``. A braced value under ``Pwd`` or ``Password`` now goes whole, in a command, an MCP
argument and prose alike, unless it holds none: a template (``{password}``,
``{self.db_password}``, ``{{ db_password }}``, ``{0}``), a placeholder (``{<password>}``,
``{your password}``) or empty. A driver's name in braces (``DRIVER={ODBC Driver 18 for
SQL Server}``) is no password's and stays.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import braced_secret
from skill_retriever.ingest.secret_formats import REDACTED, replace_group

__all__ = ["CONNECTION_VALUE", "connection_pair", "connection_password", "first_value_end", "redact_braced_passwords"]

#: ODBC's braced value: any text to the closing brace, a ``}`` inside written ``}}``;
#: bounded, so no start rescans a long run.
_BRACED_VALUE = r"\{(?:[^}\n]|\}\}){0,256}\}"
#: A connection string's ``Name=value;`` pair that ends right before a name
#: (``Server=db;Uid=sa;Pwd=X``, ODBC's ``DRIVER={ODBC Driver 18 for SQL Server};PWD=X``):
#: its name may hold blanks (``User Id``), its value is one word or ODBC's braces, and a
#: ``connectionString`` attribute may break its pairs over lines. Searched
#: back from the ``;`` over `_PAIR_BEFORE` characters only, so no name reads a long run.
_PAIR_BEFORE_RE = re.compile(r"(?<!\w)[A-Za-z][\w ]{0,31}+=(?:" + _BRACED_VALUE + r"|[^;\s={}]{0,128}+)[ \t]*+;[ \t\r\n]{0,16}+\Z")
_PAIR_BEFORE = 300
#: The pair after a ``Pwd=X;`` that comes first (``"Pwd=X;Server=db;Uid=sa"``), read from
#: the value's start: a name only a connection string gives (a server's, a database's, a
#: user id's, a driver's; not shell's common ``HOST``, ``PORT`` or ``USER``), so that
#: ``PWD=build; CC=gcc make`` or ``PWD=build; PORT=3000 npm start`` is no connection string.
_CONNECTION_NAME = (
    r"(?i:server|data[ ]source|database|initial[ ]catalog|uid|user[ ]?id|driver|dsn|provider|addr(?:ess)?"
    r"|network[ ]address|encrypt|trusted_connection|integrated[ ]security|trustservercertificate)"
)
_PAIR_AFTER_RE = re.compile(
    r"""(?:""" + _BRACED_VALUE + r"""|[^;\s={}"']{0,128}+);[ \t\r\n]{0,16}+""" + _CONNECTION_NAME + r"[ \t]*+="
)
#: Such a name's pair earlier on the line, the ``;`` that ends a pair right before the
#: name read (``Server=db;Uid=sa;Password=``); searched over `_PAIR_BEFORE` characters.
#: The name starts a word, a quoted string, braces or a pair (not a URL's ``?server=``).
_NAMED_PAIR_BEFORE_RE = re.compile(r"""(?<![^\s"'{;=])""" + _CONNECTION_NAME + r"[ \t]*+=[^\n]*;[ \t]*+\Z")
#: A password's value in a connection string: up to the ``;`` of the next pair, a blank, a
#: quote or a brace; a ``&`` in it is the password's (``Password=Tr0ub&3x9;``), no shell
#: operator: the ``;`` between the pairs shows the string is one word to its author.
CONNECTION_VALUE = r"""[^\s;"'`{}\\]{1,256}+"""


def connection_pair(text: str, start: int, value: int) -> bool:
    """Whether the pair at ``start`` of ``text``, its value at ``value``, stands in a
    connection string: a pair only a connection string holds comes before it on its line
    (`_NAMED_PAIR_BEFORE_RE`: ``Server=db;Password=X``) or right after it
    (`_PAIR_AFTER_RE`: ``Password=X;Server=db``). Its value reads as `CONNECTION_VALUE`."""
    if _PAIR_AFTER_RE.match(text, value) is not None:
        return True
    return _NAMED_PAIR_BEFORE_RE.search(text, max(0, start - _PAIR_BEFORE), start) is not None


#: A value no password starts with: a path (``PWD=/srv/app``), the working directory's.
_PATH_START = ("/", "~", ".")


def connection_password(text: str, name: str, start: int, value: int) -> bool:
    """Whether the assignment ``name`` at ``start`` of ``text``, its value at ``value``,
    is ``Pwd`` in a connection string: after another pair's ``;`` (`_PAIR_BEFORE_RE`:
    ``...;Uid=sa;Pwd=X``), or first, before a pair only a connection string holds
    (`_PAIR_AFTER_RE`: ``Pwd=X;Server=db``). Shell's own ``PWD=/srv/app`` names the
    working directory, and ``pwd`` alone no secret (`secret_values.secret_name`), so
    only there does it hold a password."""
    if name.lower() != "pwd" or text.startswith(_PATH_START, value):
        return False
    if _PAIR_AFTER_RE.match(text, value) is not None:
        return True
    return _PAIR_BEFORE_RE.search(text, max(0, start - _PAIR_BEFORE), start) is not None


#: ``Pwd`` or ``Password`` and its braced value (``val``), a blank around the ``=`` or
#: not (``Password = {x}``); not a longer name's end (``DB_PASSWORD``, ``--password``,
#: ``$password``).
_BRACED_PASSWORD_RE = re.compile(r"(?<![\w.$-])(?P<name>(?i:pwd|password))[ \t]*+=[ \t]*+(?P<val>" + _BRACED_VALUE + ")")


def redact_braced_passwords(text: str, *, in_command: bool) -> str:
    """``text`` with the braced values of its ``Pwd=``/``Password=`` connection string
    passwords replaced by `REDACTED` (see the module docstring); ``in_command`` (a shell
    command, an MCP argument): a ``Pwd`` only where `connection_password` says it is one."""
    if "{" not in text:
        return text
    return _BRACED_PASSWORD_RE.sub(lambda m: _braced_password(m, in_command=in_command), text)


def _braced_password(m: re.Match[str], *, in_command: bool) -> str:
    """A braced password's match with its value redacted when it holds one (`_holds_none`);
    in a command a ``Pwd`` outside a connection string is the working directory."""
    if in_command and m["name"].lower() == "pwd" and not connection_password(m.string, m["name"], m.start(), m.start("val")):
        return m[0]
    return m[0] if _holds_none(m["val"][1:-1].replace("}}", "}")) else replace_group(m, "val", REDACTED)


def _holds_none(value: str) -> bool:
    """Whether a braced ``value`` (its ``}}`` read as ``}``) only shows where a password
    goes (`braced_values.braced_secret`): empty, a placeholder or a reference, a
    template's slot (``{password}``, not ``{hunter2}``; ``{{ db_password }}``) or, with
    no ``;`` or ``}`` in it (which only a value holds, the braces being there for it),
    words that are no passphrase (``{your password}``)."""
    return not braced_secret(value, phrase=True)


#: A connection string's first value before the ``;`` of another pair (``;Server=``,
#: ``; User Id=``): ADO.NET's quoted value (a quote inside written twice) or ODBC's
#: braced one, either of which may hold a ``;``, or a bare one, which holds none.
_FIRST_VALUE_RE = re.compile(
    r"""(?:"(?:[^"\n]|""){0,256}+"|'(?:[^'\n]|''){0,256}+'|""" + _BRACED_VALUE + r"""|(?![{"'])[^;\n]{0,256}+)"""
    r"""(?=;[ \t]*+[A-Za-z][\w ]{0,31}+=)"""
)


def first_value_end(value: str) -> int:
    """Where the first value of ``value``, an argument's text after its first name's
    ``=``, ends: at the ``;`` before another pair when it is a connection string's
    (``Password=X;Server=db``: ``X``; ``Password="a;b";Server=db``: ``"a;b"``), else at
    its end (a value that reads as no connection string's goes whole)."""
    m = _FIRST_VALUE_RE.match(value)
    return len(value) if m is None else m.end()
