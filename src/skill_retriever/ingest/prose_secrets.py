"""What the index keeps of a Markdown text: the text with no secret in it (`redact_prose`).

A skill, agent, command or document is prose, and often a runbook: it quotes the line
that sets a secret (``export DB_PASSWORD=...``, ``aws_secret_access_key = ...`` in a
credentials file, ``Authorization: Bearer ...``) as well as a token of a well-known
format. `redact_prose` takes out what `secrets.redact_text` takes out wherever it stands,
and the value of such an assignment or header, by the header and shell-value rules hook
commands are redacted with (`secrets`).

Prose is no shell, so an assignment's value goes only when it reads as a literal secret
(`literal_secret`): a word of 8 or more characters, quoted or bare, with letters and
digits (or 20 or more with upper and lower case), that is no reference (``$DB_PASSWORD``,
``${{ secrets.X }}``), placeholder (``<your-key>``, ``YOUR_KEY``, ``xxxx``, ``changeme``,
``...``), path, URL (`secrets.redact_urls` takes what a URL holds), number or code
(``getpass()``, ``os.environ["X"]``, ``settings.API_KEY``). So ``password = getpass()``
and "the password = the user's choice" stay as written, and so does every text without
a secret, byte for byte. A name is secret-looking (`secret_word_name`) when its last
word is one (``DB_PASSWORD``, ``apiKey``, ``aws_secret_access_key``, ``PGPASSWORD``),
not ``max_tokens``, ``TOKEN_URL``, ``public_key`` or ``sort_key``.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.secret_formats import on_lines
from skill_retriever.ingest.secrets import (
    _AUTH_HEADER_RE,
    _SCHEMES,
    _is_placeholder,
    _is_reference,
    _masked,
    _replace_group,
    redact_text,
)

__all__ = ["literal_secret", "redact_prose", "secret_word_name"]

#: ``NAME=value``, ``NAME: value``, ``name = value``, ``NAME := value``, a flag's
#: ``--name=value`` and a quoted key (``"password": "..."``, ``**Token**: ...``). The
#: name starts a word (so each name is read once); the value is one word as
#: `secrets._VALUE` reads a shell word (quoted, bare, a quote left open), on the same
#: line, but for ``&``, which in prose is part of a password (``Tr0ub4dor&3``), not a
#: shell operator.
_PROSE_VALUE = r"""(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s"'`;|()<>]+|["'][^\s"']*)"""
_ASSIGNMENT_RE = re.compile(
    r"""(?<![\w$.-])(?:--?)?(?P<name>[A-Za-z_][\w-]*+(?:\.[A-Za-z_][\w-]*+)*+)[*`'"]{0,2}"""
    r"""[ \t]*(?::=|=(?![=>~])|:(?![:/]))[ \t]*(?P<val>""" + _PROSE_VALUE + ")"
)
#: ``Bearer <token>`` without its header (the header's own form is `_AUTH_HEADER_RE`).
_BEARER_RE = re.compile(r"(?i)(?<![\w-])bearer[ \t]+(?P<val>[A-Za-z0-9._~+/-]++=*+)")

#: The words of a name: ``aws_secret_access_key`` -> aws secret access key, ``apiKey`` ->
#: api key, ``PGPASSWORD`` -> pgpassword.
_WORD_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
#: A last word that names a secret, alone or run together with what it is for
#: (``pgpassword``, ``authtoken``).
_SECRET_WORD_RE = re.compile(
    r"(?:api|access|secret|auth|private|client|app|master|session|refresh|bot|pg|db|mysql"
    r"|admin|root|user|sql)?(?:token|secret|secrets|password|passwd|pwd|pass|passphrase"
    r"|credential|credentials)"
)
#: A key is a secret's only as a kind of key that is one (``api_key``, ``apiKey``,
#: ``aws_secret_access_key``, ``PRIVATE_KEY``) or in an environment variable's name
#: (``STRIPE_KEY``): a bare ``key``, ``citation_key``, ``fileKey`` or a header's
#: ``"key": "X-Frame-Options"`` names a record, a file or a setting.
_SECRET_KEY_RE = re.compile(
    r"(?:api|secret|private|access|auth|client|signing|encryption|master|license|app|service"
    r"|session|ssh|gpg|pgp|hmac|jwt|webhook|deploy|account|consumer|subscription|shared)key"
)
#: An environment variable's name: upper case words joined by ``_``.
_ENV_NAME_RE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
#: Words that make a name no secret's: a public key's, or a record's.
_NOT_SECRET_WORDS = frozenset("public pub publishable primary foreign sort partition cache".split())

#: A value that only shows where a secret goes, beyond `secrets._is_placeholder`'s:
#: ``sk-xxxx1234``, ``ab...yz``, ``changeme``, ``REPLACE_WITH_KEY1``, ``****``, ``<token>``.
_PLACEHOLDER_PART_RE = re.compile(
    r"(?i)x{4,}|\.{3}|\u2026|\*{3,}|[<>]|(?:^|[-_.])(?:your|my)[-_]|change[-_]?me|replace"
    r"|placeholder|dummy"
)
#: Code rather than a value: a path (absolute, or of words: ``models/exp-42.pkl``,
#: ``Desktop/Title/H1``, not base64's mixed case), a URL, a file name, a template, a
#: subscript or a call (`_assignment` also looks at what follows the value), a dotted
#: attribute, a hex number.
_PATH_WORD = r"(?>[A-Z0-9]{1,3}(?=/|$)|[A-Za-z0-9]?[a-z0-9_.-]*+)"  # atomic: one way to read
_CODE_RE = re.compile(
    r"^(?:[~.]{0,2}/|[A-Za-z]:\\)|://|[{}\[\]()%]|\.(?:pem|key|json|txt|env|crt|cer|p12|pfx"
    r"|ya?ml|toml|ini|cfg|conf|gpg|asc|pub|pkl)$|^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$|^0[xX][0-9a-fA-F]+$"
    r"|^" + _PATH_WORD + r"(?:/" + _PATH_WORD + r")+$"
)
#: A line that may hold a header's or an assignment's secret names one of these; the
#: rules run over such lines only (most of a page names none: a scan of it is wasted).
_SECRET_LINE_RE = re.compile(r"(?i)key|token|secret|pass|pwd|credential|authorization|bearer")
#: A value that is a word or an environment variable's name, not a credential, even
#: after an auth scheme (``Bearer authentication``, ``Bearer ACCESS_TOKEN``).
_WORD_VALUE_RE = re.compile(r"[A-Za-z][a-z]*|[A-Z]+(?:_[A-Z]+)+")
#: An auth scheme right before a header's value (``Authorization: Bearer X``).
_SCHEME_BEFORE_RE = re.compile(r"(?i)(?<![\w-])" + _SCHEMES + r"[ \t]+$")
#: Punctuation that ends a sentence or an inline code span, not a value (``set
#: TOKEN=abc123def.``, ```Bearer abc123def```).
_TRAILING = ".,;:!?`)]"


def redact_prose(text: str) -> str:
    """Markdown text (a document's or a component's name, description, text, tags,
    frontmatter prose) with its secrets replaced by ``[redacted]``: all `redact_text`
    takes out, then the credentials of an ``Authorization`` header or after ``Bearer``
    and the values of secret-looking assignments (see the module docstring). Text without
    secrets comes back identical; applying it twice changes nothing more."""
    return on_lines(redact_text(text), _SECRET_LINE_RE, _redact_line)


def _redact_line(line: str) -> str:
    """One line with the credentials of its headers and ``Bearer`` and the values of its
    secret-looking assignments redacted."""
    line = _AUTH_HEADER_RE.sub(_redact_literal, line)
    line = _BEARER_RE.sub(_redact_literal, line)
    return _ASSIGNMENT_RE.sub(_assignment, line)


def secret_word_name(name: str) -> bool:
    """Whether an assignment's name reads as a secret's: its last word (digits aside)
    names one (`_SECRET_WORD_RE`) and no word makes it a record's key or a public one."""
    words = [w.lower() for w in _WORD_RE.findall(name) if not w.isdigit()]
    if not words or not _NOT_SECRET_WORDS.isdisjoint(words):
        return False
    if words[-1] == "key" and len(words) > 1:
        return _SECRET_KEY_RE.fullmatch(words[-2] + "key") is not None or _ENV_NAME_RE.fullmatch(name) is not None
    return (_SECRET_WORD_RE.fullmatch(words[-1]) or _SECRET_KEY_RE.fullmatch(words[-1])) is not None


def literal_secret(value: str, *, after_scheme: bool = False) -> bool:
    """Whether ``value`` (one word, quotes and all) reads as a secret written out, not
    as a reference, placeholder, path, URL, number or code (module docstring). After an
    auth scheme (``Bearer X``) a value is a credential unless it is a word
    (``Bearer authentication``), so letters alone do."""
    word = value.strip("\"'")
    if len(word) < 8 or any(c.isspace() for c in word) or _is_reference(value) or _is_placeholder(value):
        return False
    if _PLACEHOLDER_PART_RE.search(word) or _CODE_RE.search(word) or "[redacted]" in word:
        return False
    if after_scheme:
        return _WORD_VALUE_RE.fullmatch(word) is None
    letters, digits = any(c.isalpha() for c in word), any(c.isdigit() for c in word)
    if letters and digits:
        return True
    return len(word) >= 20 and any(c.islower() for c in word) and any(c.isupper() for c in word)


def _redact_literal(m: re.Match[str]) -> str:
    """A header's or ``Bearer``'s credentials redacted when they read as a secret (a
    scheme before them says they are credentials: `literal_secret`'s ``after_scheme``)."""
    value, end = _split_trailing(m["val"])
    scheme = _SCHEME_BEFORE_RE.search(m.string, m.start(), m.start("val")) is not None
    if not literal_secret(value, after_scheme=scheme):
        return m[0]
    return _replace_group(m, "val", _masked(value) + end)


def _assignment(m: re.Match[str]) -> str:
    """An assignment with its value redacted when the name is secret-looking and the
    value a literal secret; a value followed by ``(`` or ``[`` is code (``getpass()``)."""
    if not secret_word_name(m["name"]):
        return m[0]
    follows = m.string[m.end() : m.end() + 1]
    value, end = _split_trailing(m["val"])
    if (follows in ("(", "[") and not end) or not literal_secret(value):
        return m[0]
    return _replace_group(m, "val", _masked(value) + end)


def _split_trailing(value: str) -> tuple[str, str]:
    """A bare value and the sentence punctuation after it; a quoted value whole."""
    if value[:1] in "\"'":
        return value, ""
    core = value.rstrip(_TRAILING)
    return core, value[len(core) :]
