"""Whether a secret-looking name in a command names the secret itself or a setting that a
secret word only qualifies (`secret_own_name`), and so whether the value under it stays
(`setting_value`).

The command rules (`secrets.redact_command`, `secrets.redact_args`: hook commands, MCP
server arguments) take any value under a secret's own name (``--password 1234``,
``GITHUB_TOKEN=X``, ``--api-key X``): a shell runs what is written, so a value there is
meant, and a number can be a password. But a name that holds a secret word
(`secret_values.secret_name`: key, token, secret, passw, auth, credential) is as often a
setting's, the word only saying what it is about: ``--max-tokens 4096``, ``TOKEN_LIMIT``,
``TOKEN_FILE=/run/secrets/token``, ``--password-file``, ``KEY_PATH``, ``TOKEN_TTL``,
``SECRET_NAME=prod/db``. Each such value went, and search showed, and an MCP server
rebuilt from the index ran, a ``[redacted]`` where a number or a path was.

A name is a secret's own by its last word, as prose reads it
(`secret_values.secret_word_name`: ``DB_PASSWORD``, ``apiKey``, ``PGPASSWORD``, not
``max_tokens``, ``TOKEN_URL`` or ``sort_key``), read as an environment variable's too
(``--stripe-key`` as ``STRIPE_KEY``) and by its last word alone (``sort_token``); and
``auth`` (``--auth user:pass``). Under any other secret-looking name only a setting's
value stays: a number (``4096``, ``3600``, ``1h``; not under a password's name,
``DB_PASSWORD_PROD=4096``, where it may be a PIN) or a path, file name or URL
(`secret_values.code_value`; ``/run/secrets/token``, ``./server.pem``), or a plain word
under a name whose last word says it is a setting's choice (``--authenticationDatabase
admin``: `_SETTING_NOUNS`); a word, a pair
(``user:pass``) or a literal secret still goes (``TOKEN_V2=hunter``, ``--key pappg``,
``TOKEN_FILE=Xk9mQ2pL7vR4``), as a reference or placeholder stays under any name
(`masked_values`). A name such as ``DB_PASSWORD_PROD`` or ``API_KEY_V2`` reads as a
setting's by its last word: so it loses no path, and no number but under a password's name.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.secret_values import NAME_WORD_RE, code_value, secret_word_name

__all__ = ["secret_own_name", "setting_value"]

#: A last word that says the name holds credentials, which prose reads as a secret's only
#: over base64 (``_auth``): in a command ``--auth user:pass`` (httpie), ``BASIC_AUTH=u:p``,
#: ``--proxy-auth``, ``AUTHORIZATION=X`` pass them as written.
_AUTH_WORDS = frozenset({"auth", "authorization"})
#: A setting's number: a count, a size or a time (``4096``, ``1.5``, ``100ms``, ``1h``, ``4k``,
#: ``512MB``).
_NUMBER_RE = re.compile(r"[0-9]++(?:[.,_][0-9]++)*+(?:ms|[smhdw]|[kKMGT]i?+B?+)?+")
#: A password's name, under which a number may be the password (a PIN): ``DB_PASSWORD_PROD``,
#: ``--password-v2``, ``PASSCODE_OLD``, ``pwd``.
_PASSWORD_RE = re.compile(r"(?i)pass(?:w|phrase|code)|pwd")


#: A last word that says the name is a setting's choice, a database or a mechanism, which a
#: secret word only qualifies: mongo's ``--authenticationDatabase admin``, ``--authSource
#: admin``, ``--authenticationMechanism SCRAM-SHA-256``, ``--auth-user bob``, ``--token-type
#: bearer``. A plain word under it (`_PLAIN_WORD_RE`) stays, as a path does.
_SETTING_NOUNS = frozenset({
    "database", "db", "mechanism", "method", "source", "type", "mode", "scheme", "provider", "realm",
    "domain", "server", "host", "user", "username", "name", "region", "version",
})
#: A plain word: letters, digits and ``-``, ``_``, ``.`` (``admin``, ``SCRAM-SHA-256``).
_PLAIN_WORD_RE = re.compile(r"[A-Za-z][\w.-]{0,63}")


def secret_own_name(name: str) -> bool:
    """Whether a command's flag or variable ``name`` (dashes and all) names a secret itself,
    not a setting about one (see the module docstring): ``--api-key``, ``GITHUB_TOKEN``,
    ``--client-secret``, ``PGPASSWORD``, ``SECRET_KEY``, ``--stripe-key``, ``--auth``; not
    ``--max-tokens``, ``TOKEN_FILE``, ``--api-key-env``, ``key_id`` or a bare ``key``."""
    words = [w.lower() for w in NAME_WORD_RE.findall(name) if not w.isdigit()]  # ``--basic-auth``: basic auth
    if not words:
        return False
    # Read as an environment variable's name (``--stripe-key`` as ``STRIPE_KEY``): prose
    # takes any kind of key there, and a flag or a script's variable passes a vendor's key
    # as one does. The last word alone too: prose's words that make a name a record's or a
    # public key's (``sort``, ``cache``, ``primary``) are a key's, not a token's or a
    # password's (``sort_token``, ``REDIS_CACHE_PASSWORD``).
    if secret_word_name("_".join(words).upper()) or secret_word_name(words[-1]):
        return True
    return words[-1] in _AUTH_WORDS


def setting_value(name: str, value: str, *, literal: bool = False) -> bool:
    """Whether ``value`` (quotes and all) under the secret-looking ``name`` is a setting's
    and stays: the name is no secret's own (`secret_own_name`) and the value a number (not
    under a password's name) or a path, file name or URL (`secret_values.code_value`) that
    reads as no secret (`braced_values.literal_or_braced`: braces that hold one).
    ``literal``: no shell expands the value (an MCP argument, a single-quoted word)."""
    if secret_own_name(name):
        return False
    bare = value.strip("\"'")
    if _NUMBER_RE.fullmatch(bare) is not None:
        return _PASSWORD_RE.search(name) is None
    words = NAME_WORD_RE.findall(name)
    setting = code_value(bare) or (bool(words) and words[-1].lower() in _SETTING_NOUNS and _PLAIN_WORD_RE.fullmatch(bare) is not None)
    return setting and not literal_or_braced(value, quoted=literal)
