"""The command rule's (`secrets.redact_command`) ``NAME=value`` assignments: their values
redacted where the name looks secret (`redact_assignments`), and the tests a quoted pair
shares with them (`secret_pair`, `secret_setting`).

An assignment's value is one shell word. In quotes (``-d "token=Bearer X"``, ``-e
'AUTH=Bearer X'``) an auth scheme and the word after it are one value, a scheme and its
credential; unquoted they are not: ``AUTH_TYPE=basic ./run`` sets ``AUTH_TYPE`` and runs
``./run``, and the command after the variable is no credential, unless the word is shaped
as one (`_CREDENTIAL_WORD`: ``AUTH_HEADER=Bearer q9W8...`` in a heredoc, a file's text).
A name before ``(`` is a call in a script's code, no value (``auth=get_auth()``: `_call_name`);
so is a name a call passes (``OAuth2Session(client_id, token=token)``: `call_arguments`),
and code that reads the environment (``password=os.environ['PW']``: `env_references`), but
for a literal default it holds (``password=os.getenv('PW', 'X')``: `env_defaults`).
A bare value ends at the brace that closes braces its assignment stands in (``--conn
{Server=db;Password=X}``: `_closing_brace`); read as a shell word, it took the ``}``.
A value in braces with a ``&`` in it is read whole (``API_TOKEN={Tr0ub&3;x9}``:
`named_values`), as it is after a secret's flag; so is a connection string's password
with a ``&`` in it (``"Server=db;Password=Tr0ub&3x9"``: `connection_strings.connection_pair`).
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.call_arguments import named_argument
from skill_retriever.ingest.connection_strings import (
    CONNECTION_VALUE,
    connection_pair,
    connection_password,
    redact_braced_passwords,
)
from skill_retriever.ingest.env_defaults import env_default_at, redact_env_defaults
from skill_retriever.ingest.env_references import env_reference_at
from skill_retriever.ingest.masked_values import STRING_PREFIX, masked_value
from skill_retriever.ingest.named_values import NAMED_ASSIGNED_VALUE
from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import (
    AUTH_SCHEMES,
    ESCAPE_BEFORE,
        literal_phrase,
    quoted,
    record_key,
    scheme_name,
    secret_name,
    secret_word_name,
    single_quoted,
)
from skill_retriever.ingest.setting_names import setting_value

__all__ = ["redact_assignments", "secret_pair", "secret_setting", "switch_value"]

#: ``NAME=value`` at the start of a shell word (an assignment, ``-d "token=..."``), after
#: a flag's ``=`` (``--env=API_TOKEN=X``) or in a comma list (``--set a=1,b=2``); the name
#: a setting's key too, dotted or with hyphens (``auth.rootPassword``, ``admin-password``),
#: or an ``.npmrc`` key under a registry's scope (``//registry.npmjs.org/:_authToken=X``),
#: or after a ``printf`` escape that ended the line before (``printf 'A=1\nTOKEN=X\n'``),
#: or after the brace that opens pairs (``--conn {Password=X;Server=db}``; not ``${``, a
#: parameter's default: `env_defaults`), or after PowerShell's ``$env:`` (``$env:API_KEY="X"``).
_ASSIGNMENT_NAME_RE = re.compile(
    r"""(?:(?<![^\s;&|(`'",={])(?<!\$\{)|(?<=/:)|(?<=\$(?i:env):)|""" + ESCAPE_BEFORE + r""")(?P<name>[A-Za-z_][\w-]*+(?:\.[A-Za-z_][\w-]*+)*+)=(?![=~])"""
)
#: A word after an unquoted scheme that is a credential, not the command the assignment
#: runs: 8 or more letters, digits and ``+/_-`` (base64's, ``=`` padding at its end), a
#: digit and a letter among them; no path from ``.``, ``/``, ``~`` or ``$`` (``./run``,
#: ``$HOME/bin/x``), no option, no assignment. Such a line is a file's text more often than
#: a command (a heredoc, ``echo ... >> .env``), and a command is seldom spelt so.
_CREDENTIAL_WORD = r"(?![-/])(?=[A-Za-z0-9+/_-]{8,}={0,2}(?![^\s;&|)]))(?=[^\s;&|)]*\d)(?=[^\s;&|)]*[A-Za-z])"
#: Its value: a word, a string's prefix before it in code (``AUTH=f"Bearer {KEY}"``), or an
#: auth scheme and a credential-shaped word.
_ASSIGNMENT_RE = re.compile(
    _ASSIGNMENT_NAME_RE.pattern + "(?P<val>" + STRING_PREFIX + "(?:(?i:" + AUTH_SCHEMES + ")[ \t]++" + _CREDENTIAL_WORD
    + ")?+" + NAMED_ASSIGNED_VALUE + ")"
)
#: Inside quotes, also an auth scheme and a word (``-d "token=Bearer X"``: the scheme is
#: kept, `masked_values`).
_QUOTED_ASSIGNMENT_RE = re.compile(
    _ASSIGNMENT_NAME_RE.pattern + "(?P<val>" + STRING_PREFIX + "(?:(?i:" + AUTH_SCHEMES + ")[ \t]++(?=[^\\s\"'-]))?+" + NAMED_ASSIGNED_VALUE + ")"
)
#: A connection string's pair (`connection_strings.connection_pair`) whose value a ``&``
#: ended: read on past it (``"Server=db;Password=Tr0ub&3x9"``), which kept ``&3x9``.
_CONNECTION_PAIR_RE = re.compile(_ASSIGNMENT_NAME_RE.pattern + "(?P<val>" + CONNECTION_VALUE + ")")
#: A config file's setting written ``name = value`` on a line of its own (a heredoc's
#: ``.pypirc``, ``client_secret = "X"`` of a Terraform file), at a quoted string's start,
#: after a ``printf`` format's ``\n`` or ``echo``'s word (``echo "password = X" >> f``): no
#: shell line (``NAME = x`` runs ``NAME``), so its value runs to a blank, ``;``, ``|`` or
#: a ``printf`` escape (``\n``; ``&`` is a password's) and is judged as prose judges an
#: assignment's (`_spaced_secret`). So is a statement of code a script runs
#: (``python -c "import os; api_key = 'X'"``, ``node -e 'const TOKEN = "X"'``): after a
#: ``;`` or a declaration's word (``const``, ``let``, ``var``), and a subscript's quoted
#: key the name (``os.environ["HF_TOKEN"] = "X"``, its quotes escaped in a double-quoted
#: command's: ``\\"X\\"``); before, only a line's or a string's
#: first statement was read, and such a value was kept. A PowerShell variable's name after
#: its ``$`` (``$env:API_KEY = "X"``) and a jq or yq path's after its ``.`` (``jq '.password
#: = "X"'``, ``yq -i ".db.password = \\"X\\""``) are such names too.
_SPACED_RE = re.compile(
    r"""(?m)(?:^|(?<=["'])|(?<=\\n)|(?<=\becho[ \t])|(?<=;)|(?<=\bconst[ \t])|(?<=\blet[ \t])|(?<=\bvar[ \t]))"""
    r"""[ \t]*+(?:\$(?i:env:)?+|\.)?+(?P<name>[A-Za-z_][\w.-]{0,128}+)(?:\[(?P<kq>\\?+["'])(?P<key>[A-Za-z_]\w{0,127}+)(?P=kq)\])?+[ \t]++=[ \t]*+"""
    r"""(?P<val>\\"(?:(?!\\")[^\n]){0,256}+\\"|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+'|(?:[^\s"'`;|\\]|\\(?![nrt]))++)"""
)
#: ``key="NAME" value=`` or ``key="NAME" />`` (a .NET setting's ``<add key="ApiKey" value="X"
#: />``, its attributes in either order): ``key`` names the value beside it, which is
#: `app_settings`' to judge; before, the name went and the value stayed.
_SETTING_KEY_RE = re.compile(r"""key=(?P<q>\\?["'])[^"'\\<>\n]{1,128}+(?P=q)(?:\s++value[ \t]*+=|\s*+/>)""")
#: The longest kept value `redact_assignments` reads again for assignments in it.
_REREAD = 256
#: A bare value that is a (dotted) name before ``(``: a call in code (``auth=HTTPBasicAuth(``
#: in a ``python -c`` script); in shell ``NAME=word(`` is no assignment at all.
_CALL_NAME_RE = re.compile(r"[A-Za-z_][\w.]*+")


def redact_assignments(text: str) -> str:
    """``text`` with the values of its secret-looking ``NAME=value`` assignments redacted
    (`secret_setting`; a dotted name by its last part, ``auth.enabled`` is no secret's),
    and of a config file's spaced ``name = value`` lines (`_SPACED_RE`).
    Only a secret-looking name's value is read: the search goes on after any other name's
    ``=``, so that a value may hold an assignment of its own (``--set
    image.tag=v1,auth.password=X``)."""
    text = redact_braced_passwords(text, in_command=True)  # ``PWD={a;b}``: the value runs past its ``;``
    masked = masked_value(secret_setting)
    out, pos = [], 0
    while (m := _ASSIGNMENT_NAME_RE.search(text, pos)) is not None:
        pair = None
        read = _env_read_at(text, m.end()) if secret_name(_last_part(m["name"])) else None
        if read is not None:  # ``password=os.environ['PW']``: where the secret lives, kept
            named = secret_word_name(_last_part(m["name"]))  # ``AUTH_ENABLED=${AUTH_ENABLED:-false}`` names none
            out.append(text[pos : m.end()] + redact_env_defaults(read[0], named=named))
            pos = read.end()
            continue
        argument = named_argument(text, m.start(), m.end()) if secret_name(_last_part(m["name"])) else None
        if argument is not None:
            # A call's ``token=token``: a variable's name is kept, one that reads as a
            # literal secret goes, and the comma after it stays either way.
            secret = literal_or_braced(argument[0])
            out.append(text[pos : m.end()] + (REDACTED if secret else argument[0]))
            pos = argument.end()
            continue
        password = connection_password(text, m["name"], m.start(), m.end())
        if (password or secret_name(_last_part(m["name"]))) and not _SETTING_KEY_RE.match(text, m.start()):
            value_re = _QUOTED_ASSIGNMENT_RE if quoted(text, m.start()) else _ASSIGNMENT_RE
            pair = value_re.match(text, m.start())
            if pair is not None and text.startswith("&", pair.end()) and connection_pair(text, m.start(), m.end()):
                pair = _CONNECTION_PAIR_RE.match(text, m.start()) or pair  # ``Server=db;Password=Tr0ub&3x9``
            if pair is not None and (end := _closing_brace(text, m.start(), pair.start("val"), pair.end())) < pair.end():
                pair = value_re.match(text, m.start(), end)  # ``{Server=db;Password=X}``: the ``}`` stays
            if pair is not None and _call_name(pair):
                pair = None  # the call's arguments are read on for names of their own
        new = "" if pair is None else _mask_password(pair) if password else masked(pair)
        if pair is None or new == pair[0]:
            # A kept value is read again for names in it, if short: a crafted word of
            # ``token=$a,token=$a,...`` would be read from each name to its end.
            end = m.end() if pair is None or len(pair["val"]) <= _REREAD else pair.end()
            out.append(text[pos:end])
            pos = end
        else:
            out.append(text[pos : m.start()] + new)
            pos = pair.end()
    text = "".join(out) + text[pos:] if out else text
    return _SPACED_RE.sub(_masked_spaced, text) if " =" in text or "\t=" in text else text


_mask_spaced = masked_value(lambda m: _spaced_secret(m))


def _masked_spaced(m: re.Match[str]) -> str:
    """A spaced setting's match with its secret value redacted (`_spaced_secret`), inside
    the escaped quotes of a double-quoted command's string (``\\"X\\"``) when it had them."""
    out = _mask_spaced(m)
    if out != m[0] and m["val"].startswith('\\"'):
        return replace_group(m, "val", f'\\"{REDACTED}\\"')
    return out


#: A connection string's password (`connection_strings.connection_password`) redacted as `secret_setting`
#: redacts a secret-looking name's value: all but a reference, placeholder or switch.
_mask_password = masked_value(lambda m: not scheme_name(m["val"]) and not switch_value(m["val"]))


#: How far before an assignment's name `_closing_brace` looks for braces it stands in.
_BRACES_BEFORE = 300


def _closing_brace(text: str, name: int, value: int, end: int) -> int:
    """Where a bare value read from ``value`` to ``end`` of ``text`` ends when its
    assignment (its name at ``name``) stands in braces opened before it on its line and
    not closed there (``tool --conn {Server=db;Password=X}``, ``{host=db,api_key=X}``):
    at the first ``}`` in it that closes none of its own braces (``{a;b}``, ``${X}``),
    the one that closes those; else at ``end``. A shell word runs on past a ``}``, and
    the brace went with the value it closed. A quoted value ends at its quote."""
    start = max(0, name - _BRACES_BEFORE)
    start = text.rfind("\n", start, name) + 1 or start
    if text.startswith(("\"", "'"), value) or text.count("{", start, name) <= text.count("}", start, name):
        return end
    depth = 0
    for i in range(value, end):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            if depth == 0:
                return i
            depth -= 1
    return end


def _env_read_at(text: str, pos: int) -> re.Match[str] | None:
    """Code that reads the environment at ``pos`` of ``text``: with a default, which the
    name before it says is a secret's (`env_defaults`: ``password=os.getenv('PW', 'X')``),
    or alone (`env_references`)."""
    return env_default_at(text, pos) or env_reference_at(text, pos)


def _call_name(m: re.Match[str]) -> bool:
    """Whether an assignment's value is the name of a call code makes (``auth=get_auth()``,
    ``auth=HTTPBasicAuth("user", "X")``: the password is `auth_tuples`'), not a value:
    a name right before ``(`` that does not read as a literal secret (``PASSWORD=Tr0ub4dor3Xq(x)``
    in a heredoc's ``.env`` still goes)."""
    value = m["val"]
    if not m.string.startswith("(", m.end("val")) or _CALL_NAME_RE.fullmatch(value) is None:
        return False
    return not literal_or_braced(value)


def _spaced_secret(m: re.Match[str]) -> bool:
    """A spaced setting's value that prose would redact: under a secret's name
    (`secret_values.secret_word_name`, a dotted name by its last part), a literal secret
    or a quoted phrase, not code (``os.environ["X"]``) nor a placeholder."""
    value = m["val"]
    if not secret_word_name(m["key"] or _last_part(m["name"])):  # ``os.environ["HF_TOKEN"]``: the key's
        return False
    return literal_or_braced(value, quoted=single_quoted(m.string, m.start("val"))) or literal_phrase(value)


def _last_part(name: str) -> str:
    """A dotted setting's own name (``auth.enabled`` -> ``enabled``): what it holds."""
    return name.rpartition(".")[2]


def secret_pair(m: re.Match[str]) -> bool:
    """A name that looks secret and a value that is no record's key under it
    (`secret_values.record_key`, as the URL rule reads ``&ods_key=pappg``) nor a
    setting's (`setting_names.setting_value`: ``MAX_TOKENS=4096``, ``TOKEN_FILE=/run/x``):
    an assignment's or a quoted pair's (``"sort_key": "name"`` stays)."""
    name = _last_part(m["name"])
    if not secret_name(name) or record_key(name, m["val"]):
        return False
    return not setting_value(name, m["val"], literal=single_quoted(m.string, m.start("val")))


def secret_setting(m: re.Match[str]) -> bool:
    """A pair `secret_pair` redacts, but for a value that is an auth scheme's name
    alone (`secret_values.scheme_name`: ``AUTH_TYPE=bearer`` picks a scheme) or a switch
    (`switch_value`: ``always-auth=true``)."""
    return secret_pair(m) and not scheme_name(m["val"]) and not switch_value(m["val"])


#: A switch's value: a boolean's word or a bit.
_SWITCH_RE = re.compile(r"(?i:true|false|yes|no|on|off|[01])")


def switch_value(value: str) -> bool:
    """Whether ``value`` (quotes and all) only turns something on or off (``true``,
    ``off``, ``1``): under a secret-looking name (``always-auth``, ``AUTH_ENABLED``) it
    is no secret."""
    return _SWITCH_RE.fullmatch(value.strip("\"'")) is not None
