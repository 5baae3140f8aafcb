"""The value a secret-looking flag takes in shell text, redacted: `redact_flags`.

A command passes a secret after a flag that names one (``--api-key X``, ``--token=X``).
The value goes unless it holds none: a record's key under the flag (``--sort-key name``:
`secret_values.record_key`), an auth scheme's name (``--auth-type bearer``), a switch
(``--auth=false``), a flag that takes no value (``--password-stdin``, ``--no-auth``: the
word after it is the next argument), the next flag after a space (``--token --verbose``)
or code that reads the environment (``--password=os.environ['PW']``: `env_references`),
or a number or a path under a name a secret word only qualifies (``--max-tokens 4096``,
``--token-file /run/x``: `setting_names`); a client's short password flag with its
password glued to it is no flag named for a secret (``mysql -psecret12 db``: the client
rule's password, `client_passwords`, and ``db`` the next argument: `glued_password`);
a read with a literal default keeps the read and loses the default
(``--password=os.getenv('PW', '[redacted]')``: `env_defaults`). A quoted value goes
whole (``--password "a b c"``), and so does the value of a flag that opens a quoted word
(``"--password=Tr0ub&3x9"``: to the closing quote, a ``&`` in it the password's). A flag
that names no secret is read no further than its name, so that a secret's flag in its
value is read too (``bash -c "tool --password X"``; read with its value, the script was
skipped). `secrets.redact_command` applies these
among its rules; they lived there.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.client_passwords import password_starts
from skill_retriever.ingest.env_defaults import env_default_at, redact_env_defaults
from skill_retriever.ingest.env_references import env_reference_at
from skill_retriever.ingest.masked_values import masked_value
from skill_retriever.ingest.named_values import NAMED_VALUE
from skill_retriever.ingest.secret_names import pass_argument
from skill_retriever.ingest.secret_values import (
    record_key,
    scheme_name,
    secret_name,
    secret_word_name,
    single_quoted,
)
from skill_retriever.ingest.setting_names import setting_value
from skill_retriever.ingest.shell_assignments import switch_value

__all__ = ["NO_VALUE_FLAG_RE", "glued_password", "redact_flags"]

#: Flags that take no value though their name looks secret: the word after them is the
#: next argument (``docker login --password-stdin registry``, ``--no-auth``).
NO_VALUE_FLAG_RE = re.compile(r"^--no-|-stdin$", re.IGNORECASE)

#: Words that go on a sentence, never a secret: after a secret's flag and a space, the flag is
#: named in prose (a quoted message, ``echo "use --token to pass it"``), which the command
#: rules read since a quoted value is read on (``bash -c "tool --password X"``).
_PROSE_WORDS = frozenset(
    "a an and are as at be by can for from if in is it must not of on or should the to was will with".split()
)
#: A flag and the value after it: ``--api-key X``, ``--token=X``, ``--password={Tr0ub&3;x9}``
#: (braces with a ``&`` in them read whole: `named_values`); a flag's name may be dotted,
#: a Java or Maven system property's (``-Djavax.net.ssl.keyStorePassword=X``,
#: ``-Dgpg.passphrase=X``), which was read as ``-Djavax`` and kept its value.
_FLAG_HEAD = r"""(?<![\w$-])(?P<flag>--?[A-Za-z][\w-]*+(?:\.[A-Za-z][\w-]*+)*+)(?=[ \t=])"""
_FLAG_RE = re.compile(_FLAG_HEAD + r"""(?:(?P<eq>=)|[ \t]+)(?P<val>""" + NAMED_VALUE + ")")
#: A flag's name alone, before its value (`redact_flags` reads the value of a secret's).
_FLAG_HEAD_RE = re.compile(_FLAG_HEAD)
#: A flag that opens a quoted word, by its quote, and its value after ``=``
#: (``"--password=Tr0ub&3x9"``): the word is one argument, so the value runs to the closing
#: quote, a ``&`` or a blank in it the value's; read as a bare word it ended at the ``&``,
#: and the rest stayed. A quote left open on its line reads as `_FLAG_RE` reads it.
_QUOTED_WORD_FLAG_RES = {
    quote: re.compile(_FLAG_HEAD + r"(?P<eq>=)(?P<val>" + value + ")(?=" + quote + ")")
    for quote, value in (('"', r'(?:[^"\\\n]|\\.)*+'), ("'", r"[^'\n]*+"))
}


def redact_flags(text: str) -> str:
    """Shell ``text`` with the values of its secret-looking flags redacted (see the module
    docstring); text without one comes back unchanged."""
    text = _redact_flag_reads(text)
    passwords: list[frozenset[int]] = []  # `client_passwords.password_starts`, read when first asked

    def secret(m: re.Match[str]) -> bool:
        if not _secret_flag(m):
            return False
        if m["flag"].startswith("--"):
            return True  # a long flag holds no short flag's glued password
        if not passwords:
            passwords.append(password_starts(m.string))
        return not glued_password(m.start("flag"), m.end("flag"), passwords[0])

    masked = masked_value(secret)
    out, pos = [], 0
    while (head := _FLAG_HEAD_RE.search(text, pos)) is not None:
        # A flag that names no secret is read on after its name, into its value, which is
        # not read: a quoted script may hold a secret's flag (``bash -c "tool --password
        # X"``), which a flag read whole with its value hid.
        m = _flag_at(text, head.start()) if secret_name(head["flag"]) else None
        if m is None:
            out.append(text[pos : head.end("flag")])
            pos = head.end("flag")
        else:
            out.append(text[pos : m.start()] + masked(m))
            pos = m.end()
    return "".join(out) + text[pos:] if out else text


def _flag_at(text: str, start: int) -> re.Match[str] | None:
    """The flag at ``start`` of ``text`` and its value: to its word's closing quote when the
    flag opens a quoted word (`_QUOTED_WORD_FLAG_RES`), else one shell word (`_FLAG_RE`)."""
    quoted = _QUOTED_WORD_FLAG_RES.get(text[start - 1]) if start else None
    return (quoted.match(text, start) if quoted else None) or _FLAG_RE.match(text, start)


def glued_password(start: int, end: int, passwords: frozenset[int]) -> bool:
    """Whether the short flag from ``start`` to ``end`` is a client's password flag with
    its password glued to it (``-psecret12`` of ``mysql -psecret12 db``: a password starts
    inside it, `client_passwords.password_starts`), not a flag named for a secret: all it
    takes is that password, and the word after it is the next argument."""
    return any(at in passwords for at in range(start + 2, end))


def _secret_flag(m: re.Match[str]) -> bool:
    """A secret-looking flag with a value that is no record's key under it
    (`secret_values.record_key`: ``--sort-key name`` stays) nor an auth scheme's name
    (`secret_values.scheme_name`: ``--auth-type bearer``) nor a setting's (`setting_names`:
    ``--max-tokens 4096``); a word after a space that
    starts with ``-`` is the next flag, not the value (``--token --verbose``)."""
    flag = m["flag"]
    if not secret_name(flag) or NO_VALUE_FLAG_RE.search(flag) or record_key(flag.lstrip("-"), m["val"]):
        return False
    if scheme_name(m["val"]) or switch_value(m["val"]) or pass_argument(flag, m["val"]):
        return False  # ``--auth-type=bearer`` picks a scheme, ``--auth=false`` turns it off, ``-pass 2`` a pass
    if m["eq"] is None and m["val"] in _PROSE_WORDS:
        return False  # ``git commit -m "--password is required"``: a sentence that names the flag
    if env_reference_at(m.string, m.start("val")) or env_default_at(m.string, m.start("val")):
        return False  # ``--password=os.environ['PW']``: code reading the environment (`_redact_flag_reads`)
    if setting_value(flag, m["val"], literal=single_quoted(m.string, m.start("val"))):
        return False  # ``--max-tokens 4096``, ``--token-file /run/x``: a setting's value
    return m["eq"] is not None or not m["val"].startswith("-")


def _redact_flag_reads(text: str) -> str:
    """Shell ``text`` with the defaults of environment reads that secret-looking flags take
    redacted (`env_defaults`: ``--password=os.getenv('PW', '[redacted]')``), as a secret's
    where `secret_word_name` says the flag names one; `_secret_flag` keeps the read."""
    if "env" not in text and "ENV" not in text and "${" not in text:
        return text
    out, pos = [], 0
    for m in _FLAG_RE.finditer(text):
        read = env_default_at(text, m.start("val")) if m.start() >= pos and secret_name(m["flag"]) else None
        if read is not None:
            named = secret_word_name(m["flag"].lstrip("-"))
            out.append(text[pos : m.start("val")] + redact_env_defaults(read[0], named=named))
            pos = read.end()
    return "".join(out) + text[pos:] if out else text
