"""Whether a name (a flag, a variable, a header, a query parameter, a frontmatter key, an
MCP server's argument) says its value is likely a secret: `secret_name`, which every
command rule asks before it reads a value (`secret_flags`, `shell_assignments`,
`secret_urls`, `redact_fields`); and the words of a name, `NAME_WORD_RE`.

A name holds one of the words secrets go by anywhere in it (`_SECRET_NAME_RE`: ``key``,
``token``, ``secret``, ``passw``, ``auth``, ``credential``, ``passphrase``), or ends in
``pass`` or ``pwd`` as a word of its own (`_PASS_WORDS`): ``DB_PASS``, ``--smtp-pass``,
``ansible_become_pass``, ``userPass``, ``MYSQL_PWD``. Read for ``passw`` alone, these kept
their values in commands and MCP arguments (``GPG_PASSPHRASE=X make``, ``--passphrase
X``, ``-Dgpg.passphrase=X``), where prose (`secret_values.secret_word_name`) took them.
A word that only holds them names none (``bypass``, ``compass``, ``OLDPWD``), nor does one
before another word (``--pass-through``, ``--pass-file``); ``pwd`` alone is the shell's
working directory (``PWD=/srv/app``: a connection string's ``Pwd=`` is
`connection_strings`'), so it names a secret only after another word. A ``pass`` flag
takes what is no password too (`pass_argument`): a pass's number, and where openssl
reads a pass phrase.
"""

from __future__ import annotations

import re

__all__ = ["NAME_WORD_RE", "pass_argument", "secret_name"]

#: Names with these anywhere in them: ``--author``, ``?author=``, ``skill-author`` (365
#: names in ../shared/data/skills) and ``keywords`` name none.
_SECRET_NAME_RE = re.compile(
    r"key(?!words?(?![a-z]))|token|secret|passw|passphrase|auth(?!ors?(?![a-z]))|credential", re.IGNORECASE
)
#: The words of a name: ``aws_secret_access_key`` -> aws secret access key, ``apiKey`` ->
#: api key, ``PGPASSWORD`` -> pgpassword.
NAME_WORD_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
#: A name's last word (digits aside) that names a password or a token on its own, and
#: whether it does so only after another word (``pwd``: `secret_name`); ``--bearer X``
#: takes a token, ``bearerFormat: JWT`` (OpenAPI) names none.
_PASS_WORDS = {"pass": False, "pwd": True, "bearer": False}


def secret_name(name: str) -> bool:
    """Whether a flag, variable, query parameter or frontmatter key names a secret (see
    the module docstring)."""
    if _SECRET_NAME_RE.search(name) is not None:
        return True
    words = [w.lower() for w in NAME_WORD_RE.findall(name) if not w.isdigit()]
    if not words or words[-1] not in _PASS_WORDS:
        return False
    return len(words) > 1 or not _PASS_WORDS[words[-1]]


#: A ``pass`` flag's value that is no password: a pass's number (ffmpeg's and x264's
#: ``-pass 2`` of a two-pass encode) or where openssl reads the pass phrase (``-pass
#: env:PW``, ``file:/run/pw``, ``fd:3``, ``stdin``; after ``pass:`` it is the phrase,
#: which the client rule redacts and keeps ``pass:``: `client_passwords`).
_PASS_ARGUMENT_RE = re.compile(r"[1-9]|(?:env|file|fd):\S++|stdin|pass:[^\n]*+")


def pass_argument(flag: str, value: str) -> bool:
    """Whether ``value`` after ``flag`` is no password though the flag's last word is
    ``pass`` (``-pass 2``, ``-pass env:PW``: `_PASS_ARGUMENT_RE`)."""
    return flag.lower().endswith("pass") and _PASS_ARGUMENT_RE.fullmatch(value) is not None
