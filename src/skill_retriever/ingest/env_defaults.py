"""The literal default of code that reads the environment, redacted: `redact_env_defaults`.

A read of a variable names where a secret lives and is kept (`env_references`), but a
default written with it is a value the code uses when the variable is unset, and is
often the very secret (``password = os.getenv('PW', 'Tr0ub4dor3Xq')``, ``const token =
process.env.TOKEN || 'X'``, ``export PASSWORD=${PW:-hunter2}``). Every rule kept it: the
read before it is code, no literal, and the assignment rules read no further. The default
goes and the read and the default's quotes stay (``os.getenv('PW', '[redacted]')``,
``${PW:-[redacted]}``) where the variable's name is a secret's
(`secret_values.secret_word_name`: ``DB_PASSWORD``, ``OPENAI_API_KEY``, not ``PW``) or
the caller knows the read is set under one (``named``: an MCP argument's ``--password=``,
a secret-named frontmatter key, a command's ``PASSWORD=``), unless the default holds none
(empty, a placeholder such as ``your-key`` or ``sk-...``, or code, a path, a URL or a
template's slot: `braced_values.code_or_slot`); under any other name where it reads as
a literal secret (`braced_values.literal_or_braced`: ``os.getenv('PW', 'Tr0ub4dor3Xq')``).
A default in braces is judged by what they hold (``${PW:-{Xk9;2mQz7Lp}}`` goes, a slot's
``${API_KEY:-{api_key}}`` stays); before, any braces read as code and it stayed. A
default that names no secret stays (``os.getenv('PORT', '8080')``, ``${HOME:-/tmp}``).

The forms read: a call's second argument (``os.getenv(KEY, X)``, ``os.environ.get(KEY,
X)``, ``default=X``, Ruby's ``ENV.fetch(KEY, X)``); a read and ``||``, ``??`` or ``or``
before X, or a Ruby block (``ENV.fetch(KEY) { X }``), X a quoted string in each; and a
shell expansion's default (``${NAME:-X}``, ``${NAME-X}``, ``${NAME:=X}``,
``${NAME=X}``), one without ``$``, a backquote or braces in it (``${PW:-$(cat f)}``
names where the value is) but for one pair around it all, quoted or not (``${PW:-{Xk9;2mQ}}``,
``${PW:-"{Xk9;2mQ}"}``; before, quotes around braces kept the default whole). Each
pattern starts at a fixed word and reads 256 characters of a default at most: linear on
any text.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import (
    code_or_slot,
    literal_or_braced,
    placeholder_or_slot,
)
from skill_retriever.ingest.env_references import ENV_NAME, ENV_READ, QUOTED_ENV_NAME
from skill_retriever.ingest.masked_values import STRING_PREFIX, masked
from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import secret_word_name

__all__ = ["env_default_at", "env_default_read", "redact_env_defaults"]

#: A quoted string as code writes it, its quotes escaped or not (a double-quoted command's
#: ``\\"X\\"``), a Python prefix before it (``f"X"``); ``val`` what is inside. In quotes
#: written bare, a backslash and the character after it are one (``'it\'s'``, ``"a\"b"``):
#: an escaped quote of the string's own kind does not end it, or the default was cut there
#: and what followed it kept.
_STRING = STRING_PREFIX + (
    r"""(?P<q>(?P<qe>\\)?+["'`])"""
    r"""(?P<val>(?:(?(qe)(?!(?P=q))[^\n]|(?:\\[^\n]|(?!(?P=q))[^\n\\]))){0,256}+)(?P=q)"""
)
#: A call that reads a variable with a default: ``os.getenv("PW", "X")``, ``default="X"``.
_CALL_RE = re.compile(
    r"(?<![\w.])(?:os\.getenv|os\.environ\.get|ENV\.fetch)\([ \t]*+(?P<key>" + QUOTED_ENV_NAME + r")[ \t]*+,[ \t]*+"
    r"(?:default[ \t]*+=[ \t]*+)?+" + _STRING + r"[ \t]*+\)"
)
#: A read and a default after it: ``process.env.TOKEN || "X"``, ``?? "X"``, Python's
#: ``or "X"``, a Ruby block's ``ENV.fetch("TOKEN") { "X" }``.
_AFTER_READ_RE = re.compile(
    r"(?<![\w.])(?P<key>" + ENV_READ + r")(?:[ \t]*+(?:\|\||\?\?|(?P<block>\{))|[ \t]++or)[ \t]*+"
    + _STRING + r"(?(block)[ \t]*+\})"
)
#: A shell expansion's default: ``${PW:-X}``, ``${PW-X}``, ``${PW:=X}``, ``${PW=X}``; X
#: in braces too (``${PW:-{Xk9;2mQ}}``, ``${API_KEY:-{api_key}}``), judged by what they hold,
#: and braces in quotes (``${PW:-"{Xk9;2mQ}"}``), which the first form reads to ``{`` only.
_SHELL_RE = re.compile(
    r"\$\{(?P<key>" + ENV_NAME + r"):?+[-=]"
    r"""(?P<val>[^{}$`\n]{1,256}+|(?P<bq>["']?+)\{[^{}$`\n]{1,256}+\}(?P=bq))\}"""
)


def redact_env_defaults(text: str, *, named: bool = False) -> str:
    """``text`` with the literal defaults of its environment reads redacted (see the
    module docstring); ``named``: every read in it is set under a secret's name."""
    if "env" in text or "ENV" in text:
        text = _CALL_RE.sub(lambda m: _redacted(m, named), text)
        text = _AFTER_READ_RE.sub(lambda m: _redacted(m, named), text)
    if "${" in text:
        text = _SHELL_RE.sub(lambda m: _redacted(m, named), text)
    return text


def env_default_read(value: str) -> bool:
    """Whether ``value`` is an environment read with a default and nothing else (an MCP
    argument's ``--password=os.getenv('PW','X')``)."""
    return any(rule.fullmatch(value) is not None for rule in (_CALL_RE, _AFTER_READ_RE, _SHELL_RE))


def env_default_at(text: str, pos: int) -> re.Match[str] | None:
    """The environment read with a default that starts at ``pos`` of ``text`` (an
    assignment's value, ``password=os.getenv('PW', 'X')``), ended where its expression
    does not go on (as `env_references` ends a read); None otherwise."""
    for rule in (_CALL_RE, _AFTER_READ_RE, _SHELL_RE):
        m = rule.match(text, pos)
        if m is not None and not text.startswith(_GOES_ON, m.end()):
            return m
    return None


#: What goes on with an expression after it (``os.getenv('PW', 'X').strip()``).
_GOES_ON = (".", "[", "(")


def _redacted(m: re.Match[str], named: bool) -> str:
    """A read's match with its default redacted when it may be a secret (`_secret_default`)."""
    value = m["val"]
    quoted = "q" not in m.re.groupindex and value[:1] in "\"'" and value[-1:] == value[:1] and len(value) > 1
    inner = value[1:-1] if quoted else value  # a shell default in quotes: ``${PW:-"X"}``
    if not _secret_default(m["key"], inner, named):
        return m[0]
    return replace_group(m, "val", masked(value) if quoted else REDACTED)


def _secret_default(read: str, value: str, named: bool) -> bool:
    """Whether a default ``value`` of the variable ``read`` names (its last word: ``PW``
    of ``os.environ['PW']``) may be a secret: see the module docstring."""
    if not value.strip() or REDACTED in value or placeholder_or_slot(value):
        return False
    if named or secret_word_name(re.findall(r"\w+", read)[-1]):
        return not code_or_slot(value)
    return literal_or_braced(value, quoted=True)
