"""The password of a ``.netrc`` entry (`redact_netrc`) and of a ``.pgpass`` line
(`redact_pgpass`).

curl, git, pip, ftp and Heroku's CLI read credentials from ``~/.netrc``, ``machine HOST
login USER password PASSWORD`` on one line or several, and a runbook quotes the file or
a setup hook writes it (``echo "machine ... password X" >> ~/.netrc``, a heredoc,
``printf '...\\npassword X\\n'``). The keyword and its value are words apart, so no
assignment rule reads it, and the value is a secret whatever it looks like (Heroku's
API key there is a UUID, which no literal-secret test takes for one): after ``machine
HOST`` (or ``default``) and ``login USER`` the word after ``password`` goes, unless it is
a reference or placeholder (`masked_values.masked_value`). Prose that names a machine, a
login and a password in other words is no such entry.

PostgreSQL's clients read ``~/.pgpass`` (``PGPASSFILE``): one line per server,
``host:port:database:user:password``, a field ``*`` for any. A runbook quotes it or a hook
writes it (``echo "db:5432:shop:bob:X" >> ~/.pgpass``); no name says the last field is a
password, so it stayed. Read only in a text that names the file, in a line of exactly five
fields whose host holds a letter (or is ``*``) and whose port is a number or ``*``.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.masked_values import masked_value

__all__ = ["redact_netrc", "redact_pgpass"]

#: Between two tokens: spaces and line breaks, or a ``printf`` string's ``\n``.
_SEP = r"(?:[ \t\r\n]|\\[nt])++"
#: A host, user or account: one word, up to a quote or a ``printf`` escape.
_WORD = r"""[^\s\\"'`]++"""
#: An entry up to its password (``val``: quoted or one bare word, up to a backslash).
_NETRC_RE = re.compile(
    r"(?<![\w.-])(?:machine" + _SEP + _WORD + r"|default)"
    + r"(?:" + _SEP + r"account" + _SEP + _WORD + r")?+"
    + _SEP + r"login" + _SEP + _WORD
    + r"(?:" + _SEP + r"account" + _SEP + _WORD + r")?+"
    + _SEP + r"""password[ \t]++(?P<val>"[^"\\\n]*+"|'[^'\n]*+'|[^\s"'`;&|()<>\\]++)"""
)
_redact = masked_value(lambda m: True)


def redact_netrc(text: str) -> str:
    """``text`` with the password of each ``.netrc`` entry in it redacted (see the module
    docstring); text without one comes back as it is."""
    if "password" not in text or "login" not in text:
        return text  # most texts hold no entry: no scan
    return _NETRC_RE.sub(_redact, text)


#: A ``.pgpass`` line up to its password (``val``), at a line's or a quoted string's start:
#: host (a letter in it, or ``*``; an IPv4 address too), port, database, user, no blank.
_PGPASS_RE = re.compile(
    r"""(?m)(?:^[ \t]*+|(?<=["']))(?:(?=[^:\s]{0,253}?[A-Za-z*])|(?=[0-9]{1,3}+(?:\.[0-9]{1,3}+){3}+:))[^:\s"'`]{1,253}+:(?:[0-9]{1,5}+|\*):"""
    r"""[^:\s"'`]{1,128}+:[^:\s"'`]{1,128}+:(?P<val>[^:\s"'`]{1,256}+)(?=["'`]|[ \t]*+$)"""
)


def redact_pgpass(text: str) -> str:
    """``text`` with the password of each ``.pgpass`` line in it redacted (see the module
    docstring), when it names the file; other text comes back as it is."""
    if "pgpass" not in text.lower():
        return text
    return _PGPASS_RE.sub(_redact, text)
