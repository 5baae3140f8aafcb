"""A value in braces: a template's slot, which code fills in and which holds no secret
(`slot_inside`), or a secret written in braces (`braced_secret`).

A slot is a template's named hole: a name (``{password}``, ``{DB_PASSWORD}``), dotted
(``{self.db_password}``, Go's ``{{.Values.password}}``, ``{{secrets.X}}``), with
subscripts or a call (an f-string's ``{config["password"]}``, ``{os.environ['PW']}``,
``{get_password()}``), with a prefix (``{env:DB_PASS}``), a conversion or format spec
(``{token!r}``, ``{0:>10}``), Jinja's blanks and filters (``{{ db_password | b64encode
}}``), or a position (``{0}``, ``{}``); shell's brace expansion (``{a,b}.pem``,
``key{1..3}``) is none either. The slot check read any braces without a blank or
quote in them as one, so a secret in braces under a secret's name stayed: ``"Password":
"{p@ss;w0rd}"``, ``--password "{Xk9;2mQ}"``, ``"api_key": "{sk-live-...}"``. Braces that
hold anything else (a ``;``, ``@``, ``!`` or ``-`` no name holds, or a bare name that
reads as a password, `secret_values.literal_word`: ``{hunter2}``, not ``{api_key_v2}``)
hold a secret, unless what they hold only shows where one goes (a placeholder,
``{your-password}``, ``{<token>}``); words (a blank in them) go in a command, as any
value but a slot there, and in prose only as a passphrase (``{correct horse!}``, not
``{your password}``).

Prose read any braces as code (`secret_values.literal_word`), and a bare value only up
to its ``;`` or its first blank (``password: {correct horse battery!}``):
`literal_or_braced` and `redact_braced_values` are its tests. `literal_or_braced` is every
rule's test of a value written out, the command rule's too (a URL's query value, a
header's, an environment read's default, a call's argument): each asked
`literal_word`, which reads any braces as code, so ``?api_key={Xk9;2mQz7Lp}`` or
``${API_KEY:-{Xk9;2mQz7Lp}}`` stayed, whole or after its ``;``; `code_or_slot` and
`placeholder_or_slot` are their tests of a value that is code, or only shows where a
secret goes, braces judged the same way (`secret_values.is_placeholder` reads any name
in braces as a template's: ``-u admin:{Xk9s2mQz7Lp}`` stayed).
"""

from __future__ import annotations

import re

from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import (
    code_value,
    is_placeholder,
    is_reference,
    literal_phrase,
    literal_word,
    placeholder_part,
    secret_word_name,
)

__all__ = [
    "braced_holds",
    "braced_inside",
    "braced_secret",
    "code_or_slot",
    "literal_or_braced",
    "placeholder_or_slot",
    "redact_braced_values",
    "slot_inside",
]

#: A name and what code reads from it: attributes, subscripts and calls (bounded, one
#: level of nesting), after Go's ``.`` or PHP's ``$`` or not.
_NAME_PATH = r"[.$]?+[A-Za-z_]\w{0,64}+(?:\.[A-Za-z_]\w{0,64}+|\[[^\[\]\n]{0,64}+\]|\([^()\n]{0,64}+\)){0,8}+"
#: A slot inside its braces: a name (`_NAME_PATH`) or a position, after a prefix
#: (``env:``) or not, then TypeScript's non-null ``!`` (JSX's ``{process.env.KEY!}``), a
#: conversion (``!r``), a format spec (Python's mini-language: ``:>10``, ``:.2f``, ``:,``)
#: and Jinja's filters (``| default('')``), each or not.
_SLOT_INSIDE_RE = re.compile(
    r"(?:(?P<prefix>[A-Za-z]\w{0,31}+):)?(?P<expr>" + _NAME_PATH + r"|\d{0,3}+)"
    r"(?:![rsa]|!)?+(?::(?:.?[<>=^])?+[-+ ]?+z?+\#?+0?+\d{0,3}+[,_]?+(?:\.\d{1,3}+)?+[bcdeEfFgGnosxX%]?+)?+"
    r"(?:[ \t]*+\|[ \t]*+[A-Za-z_]\w{0,64}+(?:\([^()\n]{0,64}+\))?+){0,8}+"
)
#: The start of a slot that the value's reading cut at a quote or a shell character
#: (``{os.environ[`` of ``{os.environ['PW']}``, ``{0:`` of ``{0:>10}``), or a brace alone
#: (``output = {'key': ...}``): no secret's.
_CUT_SLOT_RE = re.compile(r"(?:[.$]?+[A-Za-z_][\w.]{0,128}+|\d{0,3}+)[\[(:!]?+")
#: A word one pair of braces (or a template's two) closes around: what they hold, no
#: brace in it.
_BRACED_WORD_RE = re.compile(r"\{(\{)?(?P<inside>[^{}]*+)\}(?(1)\})")
#: Shell's brace expansion (``{a,b}.pem``, ``key{1..3}``): names or numbers, no secret's.
_EXPANSION_RE = re.compile(r"[\w.-]{0,64}+(?:,[\w.-]{0,64}+){1,16}+|\w{1,8}+\.\.\w{1,8}+")
#: A name of words joined by ``_`` (``api_key_v2``, ``DB_PASSWORD_2``): an identifier,
#: though digits in it would make `literal_word` read it as a password.
_IDENTIFIER_RE = re.compile(r"(?:[a-z]++|[A-Z]++|[A-Z][a-z]++)\d*+(?:_(?:[a-z]++|[A-Z]++|[A-Z][a-z]++|\d++)\d*+)++")


def braced_inside(word: str) -> str | None:
    """What ``word`` (quotes aside) holds when one pair of braces closes around all of it
    (``{x}``, ``{{ x }}``: ``x``, `` x ``; not ``{user}:{pw}``), else None."""
    inside = _BRACED_WORD_RE.fullmatch(word)
    return None if inside is None else inside["inside"]


def slot_inside(inside: str, *, closed: bool = True) -> bool:
    """Whether ``inside``, what braces hold, is a template's slot (see the module
    docstring); ``closed`` False: the start of one, cut where a quote begins
    (`_CUT_SLOT_RE`). A bare name that reads as a password (``hunter2``) is none."""
    inside = inside.strip()
    if not closed:
        return _CUT_SLOT_RE.fullmatch(inside) is not None and not _password_name(inside.rstrip("[("))
    if _EXPANSION_RE.fullmatch(inside) is not None:
        return not any(_password_name(part) for part in re.split(r",|\.\.", inside))
    m = _SLOT_INSIDE_RE.fullmatch(inside)
    return m is not None and not _password_name(m["expr"]) and not (m["prefix"] and literal_word(m["prefix"]))


def _password_name(expr: str) -> bool:
    """Whether a slot's ``expr`` is a bare name (no attribute, subscript or call) that
    reads as a literal secret and as no identifier of words (`_IDENTIFIER_RE`)."""
    return expr.isidentifier() and literal_word(expr) and _IDENTIFIER_RE.fullmatch(expr) is None


def braced_secret(inside: str, *, phrase: bool = False) -> bool:
    """Whether braces around ``inside`` hold a secret: something, no slot
    (`slot_inside`), no placeholder nor reference (``{your-password}``, ``{<token>}``,
    ``{YOUR_TOKEN}``, ``{$PW}``); with ``phrase``, words (a blank in them, no ``;``) only
    when they are a passphrase (`secret_values.literal_phrase`: ``{correct horse!}``,
    not ``{your password}``), as prose reads a connection string's; else any words go,
    as the command rule's any other value."""
    value = inside.strip()
    if value.startswith("{"):  # a template's double braces in ODBC's (``Pwd={{db_password}}``)
        value = value[1:].removesuffix("}").strip()
    if not value or REDACTED in value or is_placeholder(value) or placeholder_part(value) or is_reference(value):
        return False
    if ";" in value or "}" in value:
        return True  # only a value holds these, braced for them (ODBC's ``{a;b}``, ``}}``)
    if slot_inside(value):
        return False
    return not (phrase and any(c.isspace() for c in value)) or literal_phrase(f'"{value}"')


def braced_holds(value: str, *, phrase: bool = True) -> bool | None:
    """Whether braces that close around all of ``value`` (quotes aside) hold a secret
    (`braced_secret`; with ``phrase``, words only a passphrase); None when no one pair
    does, for the caller to judge ``value`` its own way (`literal_or_braced`,
    `placeholder_or_slot`, `code_or_slot`, `masked_values.braced_holds_secret`)."""
    inside = braced_inside(value.strip("\"'"))
    return None if inside is None else braced_secret(inside, phrase=phrase)


def literal_or_braced(value: str, *, after_scheme: bool = False, quoted: bool = False) -> bool:
    """Whether ``value`` (one word, quotes and all) reads as a secret written out, to any
    rule: in braces that close around it all, when they hold one (`braced_secret`, words
    only a passphrase: ``"{p@ss;w0rd}"``, ``{Xk9mQ2pL7vR4}``, not ``{password}`` or
    ``{your password}``), else as `secret_values.literal_word` reads it, which takes any
    braces for code. No loop: `braced_secret` asks `literal_word` only of a name braces
    hold, which holds none."""
    held = braced_holds(value)
    return literal_word(value, after_scheme=after_scheme, quoted=quoted) if held is None else held


def placeholder_or_slot(value: str) -> bool:
    """Whether ``value`` (quotes aside) only shows where a secret goes: in braces that
    close around it all, when they hold no secret (a template's slot, ``{password}``,
    ``{{ secrets.X }}``; not ``{hunter2}`` or ``{Xk9;2mQz7Lp}``: `braced_secret`), else as
    `secret_values.is_placeholder` reads it (``<token>``, ``YOUR_KEY``, ``$TOKEN``)."""
    held = braced_holds(value)
    return is_placeholder(value) if held is None else not held


def code_or_slot(value: str) -> bool:
    """Whether ``value`` (quotes aside) is code rather than a value written out: in braces
    that close around it all, when they hold no secret (a template's slot, ``{default}``,
    ``{api_key}``; not ``{Xk9;2mQz7Lp}``: `braced_secret`), else as
    `secret_values.code_value` reads it (a path, a URL, a file name, any braces)."""
    held = braced_holds(value)
    return code_value(value) if held is None else not held


#: A name and a value in braces with a ``;`` in it and no blank (``DB_PASSWORD={p@ss;w0rd}``,
#: ``api_key: {Xk9;2mQ}``), which prose's assignment rule reads whole only when it is a
#: `named_values.NAMED_BRACED_RUN` (no quote in it: ``{p"w;x9}`` it cuts at the quote); or
#: (``phrase``) words in one pair of braces, no ``;`` (``password: {correct horse
#: battery!}``), which it reads only up to the first blank.
_BRACED_VALUE_RE = re.compile(
    r"""(?<![\w$.-])(?P<name>[A-Za-z_][\w.-]{0,64}+)["'`*]{0,2}+[ \t]*+(?::=|=(?![=>~])|:(?![:/]))[ \t]*+"""
    r"(?P<val>\{[^\s{};]{0,128}+;[^\s{}]{0,128}+\}|\{(?P<phrase>[^\s{};][^{};\n]{0,128}+)\}(?!\}))"
)


def redact_braced_values(text: str) -> str:
    """Prose ``text`` with each secret-looking name's value in braces that holds a ``;``,
    or words (`_BRACED_VALUE_RE`), replaced by `REDACTED` when it is a secret
    (`braced_secret`; words only a passphrase), the rest as written."""
    if "{" not in text:
        return text

    def sub(m: re.Match[str]) -> str:
        if m["phrase"] is not None and not any(c.isspace() for c in m["phrase"]):
            return m[0]  # one word: the assignment rule's (`literal_or_braced`)
        if not secret_word_name(m["name"]) or not braced_secret(m["val"][1:-1], phrase=True):
            return m[0]
        return replace_group(m, "val", REDACTED)

    return _BRACED_VALUE_RE.sub(sub, text)
