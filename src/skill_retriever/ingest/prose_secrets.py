"""What the index keeps of a Markdown text: the text with no secret in it (`redact_prose`).

A skill, agent, command or document is prose, and often a runbook: it quotes the line
that sets a secret (``export DB_PASSWORD=...``, ``aws_secret_access_key = ...`` in a
credentials file, ``Authorization: Bearer ...``) as well as a token of a well-known
format. `redact_prose` takes out what `secrets.redact_text` takes out wherever it stands,
and the value of such an assignment or header, by the header and shell-value rules hook
commands are redacted with (`secrets`); after an auth scheme (`secret_values.AUTH_SCHEMES`:
``'auth': 'Basic X'``, ``X-Auth: Token X``) only the credential goes, the scheme stays.

Prose is no shell, so an assignment's value goes only when it reads as a literal secret
(`secret_values.literal_word`): a word of 8 or more characters, quoted or bare, with
letters and digits (6 or 7 that name no encoding or version: ``hunter2``, not
``sha256``; or 20 or more with upper and lower case), that is no reference (``$DB_PASSWORD``,
``${{ secrets.X }}``), placeholder (``<your-key>``, ``YOUR_KEY``, ``xxxx``, ``changeme``,
``...``), path, URL (`secrets.redact_urls` takes what a URL holds), number or code
(``getpass()``, ``os.environ["X"]``, ``settings.API_KEY``); a value in braces when they
hold a secret, not a template's slot (`braced_values.literal_or_braced`: ``"{p@ss;w0rd}"``
and ``{Xk9mQ2pL7vR4}`` go, ``{password}`` stays; one with a ``;`` in it bare too, and
bare words in braces that are a passphrase, ``password: {correct horse battery!}``, not
``{your password}``: `braced_values.redact_braced_values`); a quoted value with spaces
in it goes whole, quote to quote, when it is no placeholder text (`literal_phrase`:
``PASSWORD="correct horse battery staple"`` goes, ``api_key: "your API key"`` stays). So
``password = getpass()`` and "the password = the user's choice" stay as written, and so
does every text without a secret, byte for byte. The cells of Markdown tables are read
by the same tests (`table_secrets`: ``| DB_PASSWORD | hunter2xyz9 |``), and so are a
value a command sets or a client takes (`secret_commands`: ``ENV API_KEY X``, ``set -gx
API_KEY X``, Gradle's ``storePassword "X"``, ``--password X``, ``mysql -pX``,
``docker login -p X``; and, whatever the name, ``gh secret set NAME --body X``, ``fly
secrets set NAME=X``, ``kubectl create secret generic``'s ``--from-literal``), a cookie's
(`cookie_secrets`, curl's ``-b`` too), one on the line after its name (`secret_blocks`: ``- name:
API_KEY`` then ``value: X``, ``api_key: |``, ``api_key:`` then ``  X``), a .NET setting's (`app_settings`: ``<add
key="ApiKey" value="X" />``) and a call's bare ``key="X"`` when only a machine writes
such a value (`key_arguments`: ``wandb.login(key="<40 hex>")``, not ``key='result'``). A name is
secret-looking (`secret_word_name`) when its last word is one (``DB_PASSWORD``,
``apiKey``, ``aws_secret_access_key``, ``PGPASSWORD``), not ``max_tokens``,
``TOKEN_URL``, ``public_key`` or ``sort_key``; ``auth`` alone only over basic credentials,
base64 of ``user:password`` (``.npmrc``'s ``_auth=X``, Docker's ``{"auth": "X"}``).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from skill_retriever.ingest.app_settings import redact_app_settings
from skill_retriever.ingest.auth_params import redact_auth_params
from skill_retriever.ingest.auth_tuples import AUTH_TUPLE_RE
from skill_retriever.ingest.braced_values import literal_or_braced, redact_braced_values
from skill_retriever.ingest.code_passwords import redact_code_passwords
from skill_retriever.ingest.connection_strings import redact_braced_passwords
from skill_retriever.ingest.cookie_secrets import COOKIE_LINE_RE, COOKIE_WORDS, redact_cookies
from skill_retriever.ingest.key_arguments import redact_key_arguments
from skill_retriever.ingest.masked_values import masked as _masked
from skill_retriever.ingest.prose_values import PROSE_ASSIGNED_VALUE, PROSE_VALUE
from skill_retriever.ingest.public_keys import ssh_public_key
from skill_retriever.ingest.secret_blocks import NAME_VALUE_RE, redact_blocks, same_item
from skill_retriever.ingest.secret_commands import (
    CALL_RE,
    CLIENT_LINE_RE,
    CLIENT_WORDS,
    FLAG_RE,
    SETTER_RE,
    redact_clients,
)
from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_headers import AUTH_HEADER_RE
from skill_retriever.ingest.secret_maps import redact_secret_maps
from skill_retriever.ingest.secret_setters import redact_continued_commands
from skill_retriever.ingest.secret_values import (
    ESCAPE_BEFORE,
    SCHEME_BEFORE_RE,
    SCHEME_WORD,
    literal_phrase,
    secret_name,
    secret_word_name,
    single_quoted,
)
from skill_retriever.ingest.secrets import TEXT_RULES
from skill_retriever.ingest.section_keys import redact_section_keys
from skill_retriever.ingest.sentence_secrets import (
    SENTENCE_LINE_RE,
    SENTENCE_WORDS,
    redact_sentence_line,
)
from skill_retriever.ingest.table_secrets import redact_tables
from skill_retriever.ingest.word_lines import on_words, sub_at_word

__all__ = ["PROSE_RULES", "redact_prose", "secret_word_name"]

#: ``NAME=value``, ``NAME: value``, ``name = value``, ``NAME := value``, make's ``NAME ?=
#: value``, R's ``name <- value``, a flag's ``--name=value`` (a Java property's
#: ``-Dname=value``), a PHP, Perl or PowerShell variable (``$apiKey = "..."``: one ``$``,
#: not ``$$``), a jq or yq path (``.db.password = "..."``: one ``.``), a quoted key
#: (``"password": "..."``, ``**Token**: ...``, ``**Password:** ...``), a name with its type
#: (``token: str = ...``, Rust's ``&str``, Go's ``var token string = ...``), a kind of key in
#: two words (``API key: value``: `_KIND_OF_KEY`) and a list item's ``Password - value`` (a
#: dash between blanks, the name first on its line). A YAML tag before the value
#: (``!!str``) is skipped, and a value in a code span (``Password: `X```) is read inside its
#: backticks. The name starts a word or follows a ``printf`` escape (``printf
#: 'A=1\nTOKEN=X\n'``: so each name is read once); the value is one word of prose up to such
#: an escape (`prose_values.PROSE_ASSIGNED_VALUE`: `_assignments` looks again inside a value).
#: A word that makes the ``key`` after it a secret's, a blank between (``API key: X``,
#: ``Secret key = X``; as `secret_values` reads ``api_key``).
_KIND_OF_KEY = (
    r"(?i:api|secret|access|private|license|licence|encryption|signing|master|client|app|auth|webhook|deploy"
    r"|service|account|consumer|subscription|shared|ssh|gpg|pgp|hmac|jwt|session)"
)
_ASSIGNMENT_RE = re.compile(
    r"""(?:(?<![\w$.-])|(?<=(?<![\w$.-])[$.])|""" + ESCAPE_BEFORE + r""")(?:-D(?=[a-z])|--?)?(?P<name>(?:""" + _KIND_OF_KEY + r"""[ \t](?=(?i:key)\b))?+[A-Za-z_][\w-]*+(?:\.[A-Za-z_][\w-]*+)*+)[*`'"]{0,2}\]?"""
    r"""(?:[ \t]*:[ \t]*&?+(?:'static[ \t]++)?+[A-Za-z_][\w.]*+(?:\[[\w., |]*+\])?+(?=[ \t]*=(?![=>~]))"""
    r"""|[ \t]++(?:string|\[\]byte)(?=[ \t]*=(?![=>~])))?"""
    r"""[ \t]*(?::=|=>|=(?![=>~])|\?=|:(?![:/])|<-(?!-)|(?<=[ \t])(?P<dash>[-\u2013\u2014])(?=[ \t]))(?:\*\*|__)?+[ \t]*"""
    r"""(?:!![A-Za-z]++[ \t]++)?+(?P<tick>`)?+(?P<val>""" + PROSE_ASSIGNED_VALUE + ")(?(tick)`)"
)
#: The same written as code rather than ``NAME = value``: a call's first two arguments
#: (``os.environ.setdefault("API_KEY", "...")``, ``putenv``); an XML element's is
#: `app_settings`' (``<password>...</password>``). The subscript
#: (``os.environ["API_KEY"] = ...``), a type (``token: str = ...``) and ``=>`` (a PHP
#: or Ruby hash) are `_ASSIGNMENT_RE`'s.
_CODE_PAIR_RE = re.compile(
    r"""\([ \t]*(?P<q>["'])(?P<name>[A-Za-z_][\w.-]{0,128}+)(?P=q)[ \t]*,[ \t]*(?P<val>""" + PROSE_VALUE + ")"
)
#: ``Bearer <token>`` without its header (the header's own form is `AUTH_HEADER_RE`).
_BEARER_RE = re.compile(r"(?i)(?<![\w-])bearer[ \t]+(?P<val>[A-Za-z0-9._~+/-]++=*+)")
#: Any auth scheme and its credential (``val``: one token68 word) set under a name, which
#: `_scheme_pair` asks to be secret-looking (`secret_name`, as the command rule's quoted
#: pair asks): a quoted pair, a header line, an assignment, a call's two arguments or a
#: server's header directive, name and quoted value a blank apart (``'auth': 'Basic X'``,
#: ``X-Auth: Token X``, ``-H "X-Auth: Basic X"``, ``AUTH = "Negotiate X"``,
#: ``setRequestHeader('auth', 'Basic X')``, nginx's ``proxy_set_header Authorization "Basic
#: X"``). "Basic" or "Token" in prose is a word, so the name must say it is a credential.
#: The credential ends at the quote
#: that opened the value, or unquoted at a space, punctuation or a closing quote:
#: ``realm="x"`` of a ``WWW-Authenticate`` challenge is a parameter, no credential.
_SCHEME_PAIR_RE = re.compile(
    r"""(?i)(?<![\w.-])(?P<name>[A-Za-z_][\w-]*+)(?P<nq>\\?["'])?[ \t]*"""
    r"""(?::=|=>|=(?!=)|:(?!:)|(?(nq),|[ \t](?=[ \t]*+["'])))[ \t]*(?P<vq>\\?["'`])?"""
    + r"(?P<scheme>"
    + SCHEME_WORD
    + r""")[ \t]++(?P<val>[A-Za-z0-9._~+/-]++=*+)(?(vq)(?=(?P=vq))|(?!["'`]?[^\s,;)\]}"'`]))"""
)

#: A line that may hold a header's or an assignment's secret names one of these; the
#: rules run over such lines only (most of a page names none: a scan of it is wasted).
#: (`word_lines.on_words` finds them: the pattern is their alternation.)
_SECRET_LINE_WORDS = ("key", "token", "secret", "pass", "pwd", "credential", "auth", "bearer")
_SECRET_LINE_RE = re.compile("(?i)" + "|".join(_SECRET_LINE_WORDS))
#: A scheme's word before a credential redacted already (``x-api-key: 1Password
#: [redacted]``, `_scheme_pairs`): the scheme, kept, not an assignment's value.
_SCHEME_BEFORE_REDACTED_RE = re.compile(SCHEME_WORD + r"[ \t]++" + re.escape(REDACTED))
#: Punctuation that ends a sentence, an inline code span or a YAML flow mapping, not a
#: value (``set TOKEN=abc123def.``, ```Bearer abc123def```, ``{api_key: abc123def}``).
_TRAILING = ".,;:!?`)]}"


def redact_prose(text: str) -> str:
    """Markdown text (a document's or a component's name, description, text, tags,
    frontmatter prose) with its secrets replaced by ``[redacted]``: all `redact_text`
    takes out, then the credentials of an ``Authorization`` header, after ``Bearer``,
    and after any auth scheme a secret-looking name sets (``'auth': 'Basic X'``), the passwords of clients' flags (`secret_commands`), cookies (`cookie_secrets`), the
    values of secret-looking assignments (see the module docstring), also where name
    and value stand on two lines (`secret_blocks`: ``- name: API_KEY`` then ``value:
    ...``, ``api_key: |``, ``api_key:`` then the value) and the secret values of Markdown tables (`table_secrets`), by `PROSE_RULES`.
    Text without secrets comes back identical; applying it twice changes nothing more."""
    for _, rule in PROSE_RULES:
        text = rule(text)
    return text


def _entry(m: re.Match[str]) -> str:
    """An environment entry with its value redacted as an assignment's, when its name,
    other keys and value lines are one item (`secret_blocks.same_item`)."""
    return _assignment(m) if same_item(m) else m[0]


def _redact_clients(line: str) -> str:
    """One line with the literal secrets after its clients' password flags redacted
    (`secret_commands.redact_clients`: ``mysql -pX``, ``docker login -p X``)."""
    return redact_clients(line, _redact_literal, lambda password: literal_or_braced(_split_trailing(password)[0]))


def _redact_line(line: str) -> str:
    """One line with the credentials of its headers and ``Bearer`` and the values of its
    secret-looking assignments, written ``NAME=value`` or set by a command
    (`secret_commands`: ``ENV API_KEY value``), redacted."""
    line = AUTH_HEADER_RE.sub(_redact_literal, redact_auth_params(line))
    line = _BEARER_RE.sub(_redact_literal, line)
    line = _scheme_pairs(line)
    line = SETTER_RE.sub(_assignment, line)
    line = FLAG_RE.sub(_assignment, line)
    line = CALL_RE.sub(_assignment, line)
    return _assignments(_CODE_PAIR_RE.sub(_assignment, line))


def _scheme_pairs(line: str) -> str:
    """One line with the credentials after the auth schemes its secret-looking names set
    redacted (`_SCHEME_PAIR_RE`)."""
    return _SCHEME_PAIR_RE.sub(_scheme_pair, line)


def _scheme_pair(m: re.Match[str]) -> str:
    """A secret-looking name's auth scheme and credential with the credential redacted
    when it reads as one (`_redact_literal`), the scheme kept. Under such a name any word
    is a scheme, as under ``Authorization`` (``{'auth': 'SSWS X'}``, ``x-api-key: Hawk
    X``): the credential after it must read as a literal secret, so prose (``api_key:
    Stored in Vault``) stays."""
    return _redact_literal(m) if secret_name(m["name"]) else m[0]


def _assignments(line: str) -> str:
    """A line with the values of its secret-looking assignments redacted (`_assignment`).
    An assignment left as it is may hold one in its value (``Note: DB_PASSWORD=X``,
    ``description: "set API_KEY=X"``), and so may what read as its type (``Note:
    DB_PASSWORD=X``): the search goes on from the end of its name, not past it."""
    out, pos = [], 0
    while (m := _ASSIGNMENT_RE.search(line, pos)) is not None:
        new = _assignment(m)
        if new == m[0]:
            out.append(line[pos : m.end("name")])
            pos = m.end("name")
        else:
            out.append(line[pos : m.start()] + new)
            pos = m.end()
    return "".join(out) + line[pos:] if out else line


def _redact_literal(m: re.Match[str]) -> str:
    """A header's or ``Bearer``'s credentials redacted when they read as a secret (a
    scheme before them says they are credentials: `literal_or_braced`'s ``after_scheme``)."""
    value, end = _split_trailing(m["val"])
    if ssh_public_key(value, m.string, m.start("val")):
        return m[0]  # ``public_key: ssh-ed25519 AAAA...``: the key type is no scheme
    scheme = SCHEME_BEFORE_RE.search(m.string, m.start(), m.start("val")) is not None
    if not literal_or_braced(value, after_scheme=scheme, quoted=single_quoted(m.string, m.start("val"))):
        return m[0]
    return replace_group(m, "val", _masked(value) + end)


def _command_secret(m: re.Match[str]) -> str:
    """A value a secret-setting command sets (``gh secret set NAME --body X``), redacted
    as `_assignment` redacts a secret-looking name's: the command says it is a secret."""
    return _assignment(m, named=True)


def _assignment(m: re.Match[str], *, named: bool = False) -> str:
    """An assignment with its value redacted when the name is secret-looking (or
    ``named``: the caller knows it is a secret's, or ``auth`` holds basic credentials:
    `_basic_credentials`) and the value a literal secret or a
    quoted phrase (`literal_phrase`: ``PASSWORD="correct horse battery staple"``); a
    value followed by ``(`` or ``[`` is code (``getpass()``)."""
    if not (named or secret_word_name(m["name"]) or _basic_credentials(m["name"], m["val"])):
        return m[0]
    if m.groupdict().get("dash") and _LIST_START_RE.fullmatch(m.string, m.string.rfind("\n", 0, m.start()) + 1, m.start()) is None:
        return m[0]  # ``Hardcoded JWT secret — src/auth.js:42``: a dash joins a name only as a list's item
    follows = m.string[m.end() : m.end() + 1]
    value, end = _split_trailing(m["val"])
    if follows in ("(", "[") and not end:
        return m[0]
    if _SCHEME_BEFORE_REDACTED_RE.match(m.string, m.start("val")):
        return m[0]
    if ssh_public_key(value, m.string, m.start("val")):
        return m[0]
    # A quoted phrase goes whole, quote to quote, unless the quote was an apostrophe
    # (``'the user's choice'`` reads ``'the user'`` up to it).
    phrase = literal_phrase(value) and not follows.isalnum()
    if not (phrase or literal_or_braced(value, quoted=single_quoted(m.string, m.start("val")))):
        return m[0]
    return replace_group(m, "val", _masked(value) + end)


#: What may stand before a name a dash joins to its value: a list item's or a quote's marks
#: (``- Password - X``, ``* **Token** — X``).
_LIST_START_RE = re.compile(r"[ \t>*+-]*+(?:\*\*|__)?+")
#: ``auth`` alone (``.npmrc``'s ``_auth``, a Docker ``config.json``'s ``"auth"``): a
#: name that holds basic credentials there, and a switch or a scheme's name elsewhere.
_AUTH_NAME_RE = re.compile(r"_?+auth", re.IGNORECASE)
#: A base64 word, long enough for ``user:password``.
_BASE64_RE = re.compile(r"(?:[A-Za-z0-9+/]{4}){3,}+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?+")


def _basic_credentials(name: str, value: str) -> bool:
    """Whether ``value`` under ``auth`` alone is basic credentials (base64 of
    ``user:password``, what ``_auth`` and Docker's ``auth`` hold): base64 that decodes to
    printable text, which a word such as ``basicAuth1234567`` does not."""
    word = value.strip("\"'").rstrip(_TRAILING)
    if _AUTH_NAME_RE.fullmatch(name) is None or _BASE64_RE.fullmatch(word) is None:
        return False
    try:
        return base64.b64decode(word, validate=True).decode("ascii").isprintable()
    except (binascii.Error, UnicodeDecodeError):
        return False  # no base64 of text: a word of the same letters


def _block_value(value: str) -> bool:
    """Whether a YAML value on the lines after its key (`secret_blocks.redact_blocks`)
    reads as a secret: a word or braces as an assignment's (`literal_or_braced`), or a
    quoted passphrase (`literal_phrase`: ``password:`` then ``"correct horse battery"``)."""
    return literal_phrase(value) or literal_or_braced(value)


def _split_trailing(value: str) -> tuple[str, str]:
    """A bare value, to be judged, and the sentence punctuation after it that stays when
    the value goes; a quoted value whole, and a value that ends in an ellipsis too
    (``lsv2_pt_...,`` shows a key's prefix only: the ellipsis makes it a placeholder,
    `literal_or_braced`). A ``!`` right after the value is judged apart from it
    (``process.env.API_TOKEN!`` is code) but goes with it: passwords end in one
    (``Test123!``, ``P@ssw0rd!``) far more often than prose exclaims right after a secret."""
    if value[:1] in "\"'":
        return value, ""
    core = value.rstrip(_TRAILING)
    if core.startswith("{"):  # a value in braces keeps its own closing ones (``{Xk9mQ2pL7vR4}.``)
        after = value[len(core) :]
        core += "}" * min(len(core) - len(core.lstrip("{")), len(after) - len(after.lstrip("}")))
    if "..." in value[len(core) :]:
        core = value.rstrip(",;:!?`)]}")
    return core, value[len(core) :].lstrip("!")


#: `redact_prose`'s rules in the order it applies them, each with the kind of secret it
#: takes out, as a person reads it: one list, so that `secret_lines` (which rule fired on
#: which line of a file install copies as written) can never differ from what the index keeps.
PROSE_RULES: tuple[tuple[str, Callable[[str], str]], ...] = (
    *TEXT_RULES,
    # before the assignment rules, which read such a value only up to its ``;``
    ("a connection string's password in ODBC's braces (PWD={...})", lambda t: redact_braced_passwords(t, in_command=False)),
    ("a secret value in braces that holds a ; or a passphrase (DB_PASSWORD={...;...}, password: {... ...})", redact_braced_values),
    ("a secret value on the line after its name", lambda t: redact_blocks(t, secret_word_name, _block_value)),
    # an entry starts at its name or its name's quote
    ("an environment entry's secret value", lambda t: sub_at_word(NAME_VALUE_RE, _entry, t, "name", "\"'")),
    ("a client's password flag", lambda t: on_words(t, CLIENT_LINE_RE, CLIENT_WORDS, _redact_clients, fold=False)),
    ("a cookie", lambda t: on_words(t, COOKIE_LINE_RE, COOKIE_WORDS, lambda line: redact_cookies(line, _redact_literal))),
    # over lines: a formatter puts each of a long call's values on a line of its own
    ("basic auth's password in code", lambda t: AUTH_TUPLE_RE.sub(_redact_literal, t)),
    ("a password SQL or a call passes (IDENTIFIED BY 'X', login(user, 'X'))", lambda t: redact_code_passwords(t, _redact_literal)),
    # ``gh secret set NAME \`` goes on a line
    ("a value a secret-setting command sets", lambda t: redact_continued_commands(t, _command_secret)),
    (
        "a credential in a header or a secret-looking assignment",
        lambda t: on_words(t, _SECRET_LINE_RE, _SECRET_LINE_WORDS, _redact_line),
    ),
    ("a secret a sentence gives (the password is X)", lambda t: on_words(t, SENTENCE_LINE_RE, SENTENCE_WORDS, redact_sentence_line)),
    ("a secret value in a Markdown table", redact_tables),
    ("a secret value of a .NET config's <add key=... value=...> setting", redact_app_settings),
    ("a credential passed as a call's key= argument", redact_key_arguments),
    ("a key in a JSON section named for a credential (Jwt: {Key: ...})", redact_section_keys),
    ("a value of a map named for secrets (passwords: then admin: X)", redact_secret_maps),
)
