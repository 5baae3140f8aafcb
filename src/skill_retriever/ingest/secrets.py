"""What the index keeps of a secret a config holds: `REDACTED` in its place.

Shared by MCP server configs (`skill_configs`: arguments, URLs) and hook configs
(`hook_configs`: shell commands). Every redaction writes `REDACTED`; the installer looks
for it to tell the user what to fill in, and never writes it into a settings file.

A shell command (`redact_command`) is redacted in place by regular expressions over its
text, not by parsing it: a command is arbitrary shell (quotes, ``&&``, pipes, scripts
inside ``bash -c '...'``, unclosed quotes in a broken file), and a pass over the text
cannot fail on any of it, reaches into nested scripts, and leaves every byte outside a
redacted value as written (a command without secrets comes back identical, which script
detection and install rewriting rely on). A value that is a variable reference or a
command substitution (``$TOKEN``, ``${API_KEY}``, ``"$TOKEN"``, ``$(cat key)``) is how a
user is meant to pass a secret, holds none, and is kept; so is a placeholder that only
shows where one goes (``your_token``, ``<api-key>``). In single quotes the shell expands
nothing: ``'$ecretP4ss'`` is literal text and goes, while a template written there
(``'${TOKEN}'``, ``'$TOKEN'``) is a placeholder and stays (`secret_values.is_reference`).

Prose the index keeps (a hook's ``prompt``, a description) is no shell: `redact_text`
takes out only what is a secret wherever it stands (`secret_formats`: tokens of
well-known formats, private keys; `secret_urls`: webhook URLs whose path is the
credential, URL user info and secret query parameters; `netrc_secrets`: a ``.netrc``
entry's password), so that ordinary prose comes back as written.

Every pattern runs in linear time on any input (a crafted file is no reason to stall an
index run): no pattern that can start anywhere in a long run rescans it from each start.
"""

from __future__ import annotations

import re
from typing import Any

from skill_retriever.ingest.app_settings import redact_app_settings
from skill_retriever.ingest.argv_text import on_word_runs, redact_joined
from skill_retriever.ingest.auth_params import (
    ANY_SCHEME,
    key_scheme,
)
from skill_retriever.ingest.auth_tuples import AUTH_TUPLE_RE
from skill_retriever.ingest.braced_values import literal_or_braced, placeholder_or_slot
from skill_retriever.ingest.client_passwords import (
    client_passwords,
    curl_users,
    password_starts,
    redact_client_passwords,
)
from skill_retriever.ingest.code_passwords import redact_code_passwords
from skill_retriever.ingest.connection_strings import first_value_end, redact_braced_passwords
from skill_retriever.ingest.cookie_secrets import COOKIE_LINE_RE, COOKIE_WORDS, redact_cookies
from skill_retriever.ingest.env_defaults import (
    env_default_read,
    redact_env_defaults,
)
from skill_retriever.ingest.env_references import env_reference
from skill_retriever.ingest.masked_values import braced_holds_secret, slot
from skill_retriever.ingest.masked_values import masked_value as _masked_value
from skill_retriever.ingest.netrc_secrets import redact_netrc, redact_pgpass
from skill_retriever.ingest.public_keys import ssh_public_key
from skill_retriever.ingest.quoted_pairs import redact_quoted_pairs
from skill_retriever.ingest.secret_commands import SHELL_SETTER_RE
from skill_retriever.ingest.secret_flags import NO_VALUE_FLAG_RE, glued_password, redact_flags
from skill_retriever.ingest.secret_formats import FORMAT_RULES, REDACTED, redact_formats
from skill_retriever.ingest.secret_headers import redact_header_lines, redact_header_text
from skill_retriever.ingest.secret_names import pass_argument
from skill_retriever.ingest.secret_setters import SECRET_COMMAND_WORDS_RE, redact_secret_commands
from skill_retriever.ingest.secret_urls import redact_shell_urls, redact_urls
from skill_retriever.ingest.secret_values import (
    AUTH_SCHEMES,
    AUTHORIZATION_NAME,
    is_placeholder,
    is_reference,
    scheme_name,
    secret_name,
)
from skill_retriever.ingest.setting_names import secret_own_name, setting_value
from skill_retriever.ingest.shell_assignments import (
    redact_assignments,
    secret_setting,
    switch_value,
)
from skill_retriever.ingest.word_lines import on_words

# `redact_urls` (`secret_urls`), `secret_name` (`secret_values`), `client_passwords` and
# `curl_users` (`client_passwords`) are re-exported: they lived here.
__all__ = [
    "REDACTED",
    "TEXT_RULES",
    "client_passwords",
    "curl_users",
    "redact_args",
    "redact_command",
    "redact_command_line",
    "redact_headers",
    "redact_invocation",
    "redact_text",
    "redact_urls",
    "secret_name",
]

#: Flags whose value, the next argument, is an HTTP header (``mcp-remote URL --header
#: "Authorization: Bearer X"``, curl's ``-H``).
_HEADER_FLAGS = frozenset({"-H", "--header", "--headers"})
#: An argument that is a header, ``name: value``, a header flag glued to it or not
#: (``--header=Authorization: Bearer X``, ``-HX-Api-Key: X``).
_HEADER_ARG_RE = re.compile(r"(?P<flag>--headers?+=|-H=?+)?+(?P<name>[A-Za-z][\w-]*+)[ \t]*+:[ \t]*+(?P<value>\S.*+)", re.DOTALL)


def redact_args(args: list[str]) -> list[str]:
    """Hide values that follow or sit inside secret-looking flags (``--api-key X``,
    ``TOKEN=X``, ``--password=X``, a secret-looking pair later in one, ``Server=x;Password=X``,
    a connection string's first value only, ``Password=X;Server=db``, a braced one whole,
    ``PWD={a;b}``: `connection_strings`;
    not a flag after one, ``--api-key --verbose``, nor the
    argument after one that takes no value, `_takes_value`, or a client's password flag
    with the password glued, ``mysql -psecret12 db``: `_glued_password_arg`; a reference or placeholder, ``${API_KEY}``,
    ``<your-key>``, stays: `_names_no_secret`; so does a number or a path under a name a secret
    word only qualifies, ``--max-tokens 4096``, ``TOKEN_FILE=/run/x``: `setting_names`), the credentials of secret-looking headers
    (`_header_arg`), the credentials of URLs (see `redact_urls`), tokens of
    well-known formats, and what the command rule's program rules (`_redact_programs`:
    ``sshpass -p X``, ``curl -u user:X``) and its text rules (`_redact_text_words`: a
    ``.netrc`` entry, ``password: X``) take out of the arguments read as one command
    line (`argv_text.redact_joined`). An argument with a blank in it is text, read by
    the command rule whole (`redact_command`: ``bash -c '... --token X'``, a YAML block)."""
    out = []
    for i, arg in enumerate(args):
        arg = redact_braced_passwords(redact_env_defaults(redact_formats(redact_urls(arg))), in_command=True)
        if _TEXT_ARG_RE.search(arg):  # a script (``bash -c '... --token X'``), ``.netrc`` line, YAML or JSON
            arg = redact_command(arg)
        flag, eq, _ = arg.partition("=")
        header = _header_arg(arg, after_flag=i > 0 and args[i - 1] in _HEADER_FLAGS)
        if header is not None:
            out.append(header)
        elif eq and not _NO_FLAG_RE.search(flag) and secret_name(flag) and "://" not in flag:  # a URL's own: redact_urls
            value = arg[len(flag) + 1 :]
            # A connection string's ``Password=X;Server=db``: the pairs after its value stay.
            end = len(value) if flag.startswith("-") else first_value_end(value)
            out.append(f"{flag}={_secret_value(flag, value[:end])}{redact_assignments(value[end:])}")
        elif i and _takes_value(args[i - 1]) and not arg.startswith("-") and not _glued_password_arg(args, i - 1):
            out.append(_secret_value(args[i - 1], arg))
        else:  # pairs after its first name: ``Server=x;Password=X``, ``host=db password=X``
            out.append(redact_assignments(arg) if "=" in arg else arg)
    return redact_joined(out, lambda line: _redact_programs(on_word_runs(line, _redact_text_words)))


#: An argument with a blank in it is text (a ``.netrc`` line, a YAML or JSON block, a
#: script), not one word; an ``=`` after a blank is no flag's (``--password=a b`` is one).
_TEXT_ARG_RE = re.compile(r"\s")
#: What no flag's name before its ``=`` holds: a blank (`_TEXT_ARG_RE`), a call's ``(``
#: in a script of one word (``print(connect(password=password))``: its assignments are
#: read as code's, `shell_assignments`), or braces around pairs (``{Password=X}``: read
#: as pairs, the closing brace kept, `shell_assignments`).
_NO_FLAG_RE = re.compile(r"[\s({]")


def _redact_text_words(text: str) -> str:
    """``text`` with the secrets that stand words apart from their names redacted: a
    ``.netrc`` entry's password, an authorization header's credential and a written-out
    header or setting's (``password: X``, ``{BRAVE_API_KEY: X}``): MCP arguments read
    as one line, so that the words of such text split into arguments are read too."""
    return redact_header_lines(redact_header_text(redact_netrc(text)))


def _takes_value(flag: str) -> bool:
    """Whether ``flag`` is a secret-looking flag whose value is the next argument: not one
    written with its value (``--token=X``) nor one that takes none (`NO_VALUE_FLAG_RE`:
    ``--password-stdin``, ``--no-auth``)."""
    return flag.startswith("-") and "=" not in flag and secret_name(flag) and not NO_VALUE_FLAG_RE.search(flag)


def _glued_password_arg(args: list[str], i: int) -> bool:
    """Whether ``args[i]`` is a client's short password flag with its password glued to
    it (``-psecret12`` after ``mysql``: `secret_flags.glued_password`), read in the
    arguments joined as one command line: the next argument is none of its (a database)."""
    if args[i].startswith("--"):
        return False
    start = sum(len(arg) + 1 for arg in args[:i])
    return glued_password(start, start + len(args[i]), password_starts(" ".join(args)))


#: A variable the client expands in an argument: Claude Code's ``${API_KEY}``, VS Code's
#: ``${env:API_KEY}`` and ``${input:api-key}`` (not ``${X:-default}``: the default is a value).
_EXPANDED_RE = re.compile(r"\$\{(?:env:|input:)?+[A-Za-z_][\w.-]*+\}")


def _secret_value(name: str, value: str) -> str:
    """A secret-named argument's ``value`` under ``name`` as kept: whole when it holds no
    secret or is a setting's number or path (`setting_names`: ``--max-tokens 4096``,
    ``TOKEN_FILE=/run/x``; no shell reads an argument, so it is literal text), its default
    redacted when it reads the environment with one (`env_defaults`; any default under a
    secret's own name, only a literal secret under a setting's), `REDACTED` otherwise."""
    if _names_no_secret(value) or pass_argument(name, value):
        return value
    if env_default_read(value):
        return redact_env_defaults(value, named=secret_own_name(name))
    return value if setting_value(name, value, literal=True) else REDACTED


def _names_no_secret(value: str) -> bool:
    """Whether an argument's ``value`` holds no secret: empty, a variable the client
    expands (`_EXPANDED_RE`), a placeholder (`secret_values.is_placeholder`: ``<your-key>``,
    ``YOUR_TOKEN``, ``$API_KEY``), a format's slot (`masked_values.slot`: ``%s``,
    ``{}``; braces only around a template's, `braced_values`: ``{password}``, not
    ``{p@ss;w0rd}`` or ``{hunter2}``), an auth scheme's name (``--auth-type bearer``) or code that reads the
    environment (`env_references`: ``os.environ['PW']``). No shell reads an argument, so a ``$`` before other
    text (``$ecretP4ss``) is a password's own."""
    bare = value.strip("\"'")
    if ssh_public_key(bare):
        return True  # ``--ssh-key "ssh-ed25519 AAAA..."``: public
    if not bare or switch_value(bare):
        return True  # ``--auth=false``
    if env_reference(value):
        return True  # ``token=process.env.TOKEN`` in a ``node -e`` script: code, no secret
    if (held := braced_holds_secret(value)) is not None:  # ``{password}`` stays, ``{p@ss;w0rd}`` goes
        return not held
    return _EXPANDED_RE.fullmatch(bare) is not None or is_placeholder(bare) or scheme_name(bare) or slot(bare)


def _header_arg(arg: str, *, after_flag: bool) -> str | None:
    """``arg`` as a secret-looking header (``Authorization: Bearer X``, ``X-Api-Key: X``)
    with its credential redacted as `redact_headers` redacts it (the scheme kept, a
    reference or placeholder kept whole), or a ``Cookie`` header with its cookies'
    literal secrets redacted as a command's are (`_redact_cookies`); None when it is no such header. Without a
    header flag before or glued to it, only a value of two words at most is a header's:
    ``Note: authorization is read from the environment`` is prose."""
    m = _HEADER_ARG_RE.fullmatch(arg)
    if m is not None and m["name"].lower() in ("cookie", "set-cookie"):
        return _redact_cookies(arg)  # as in a command's ``-H "Cookie: sid=X"``
    if m is None or not secret_name(m["name"]):
        return None
    if not (after_flag or m["flag"]) and len(m["value"].split()) > 2:
        return None
    value: str = redact_headers({m["name"]: m["value"]})[m["name"]]
    return arg[: m.start("value")] + value


def redact_invocation(command: str | None, args: list[str]) -> tuple[str | None, list[str]]:
    """An MCP server's ``command`` and ``args`` redacted as one argument list, so that a
    secret flag at the end of the command hides the first argument after it
    (``"command": "server --token", "args": ["X"]``); the command is split at spaces as
    `redact_command_line` splits it, and comes back joined."""
    words = redact_header_text(command).split(" ") if command else []
    redacted = redact_args(words + args)
    head = " ".join(redacted[: len(words)]) if command else command
    return head, redacted[len(words) :]


def redact_command_line(command: str) -> str:
    """An MCP server's ``command`` (a whole command line may sit in it) redacted word by
    word as its arguments are (`redact_args`), after the header rules of shell text
    (`redact_header_text`: a quoted header's value is words apart); ingest and ``repair``
    both use it."""
    return " ".join(redact_args(redact_header_text(command).split(" ")))


def redact_text(text: str) -> str:
    """Prose (a hook's prompt, a description) with what is a secret wherever it stands
    replaced by `REDACTED`: secrets of well-known formats (`secret_formats`: tokens,
    PEM private keys, JWTs), what `redact_urls` takes out of URLs, a ``.netrc``
    entry's password (`netrc_secrets`) and the literal default of code that reads the
    environment (`env_defaults`: ``os.getenv('DB_PASSWORD', 'X')``), by `TEXT_RULES`. Shell rules (``--api-key X``, ``API_KEY=X``) are not
    applied: prose such as ``pass --token when asked`` names no secret."""
    for _, rule in TEXT_RULES:
        text = rule(text)
    return text


#: `redact_text`'s rules in order, each with the kind of secret it takes out (`secret_lines`).
TEXT_RULES = (*FORMAT_RULES, ("credentials or a secret in a URL", redact_urls), ("a .netrc password", redact_netrc),
              ("a .pgpass password", redact_pgpass),
              ("a literal default of code that reads the environment", redact_env_defaults))


def redact_headers(headers: dict[str, Any]) -> dict[str, Any]:
    """HTTP headers (an ``http`` hook's) with the value of every secret-looking one
    (``Authorization``, ``X-Api-Key``) replaced by `REDACTED` after its auth scheme, and
    the rest run through `redact_text` (a ``Cookie`` header's literal values too, as a
    command's are: `cookie_secrets`); a reference (``Bearer $TOKEN``, code that reads
    the environment, ``process.env.TOKEN``: `env_references`) or placeholder is kept, and
    so is a value that is not text; a read with a default loses the default (`env_defaults`)."""
    out: dict[str, Any] = {}
    for name, value in headers.items():
        if isinstance(value, str) and secret_name(str(name)):
            any_scheme = re.fullmatch(AUTHORIZATION_NAME, str(name), re.IGNORECASE) is not None
            scheme = re.match((ANY_SCHEME if any_scheme else AUTH_SCHEMES + r"\s+"), value, re.IGNORECASE)
            scheme = scheme or key_scheme(str(name), value)  # ``X-Api-Key: SSWS X``
            secret = value[scheme.end() if scheme else 0 :]
            if env_default_read(secret):  # ``api_key: os.getenv('API_KEY', 'X')``: the read stays
                value = value[: len(value) - len(secret)] + redact_env_defaults(secret, named=True)
            elif secret.strip() and not (
                is_reference(secret) or placeholder_or_slot(secret) or ssh_public_key(value) or env_reference(secret)
            ):
                value = value[: len(value) - len(secret)] + REDACTED
        if isinstance(value, str) and str(name).lower() in ("cookie", "set-cookie"):  # its values, as in -H "Cookie: ..."
            value = _redact_cookies(f"{name}: {value}")[len(str(name)) + 2 :]
        out[name] = redact_text(value) if isinstance(value, str) else value
    return out


def redact_command(command: str) -> str:
    """Shell text with the secrets it holds replaced by `REDACTED` (see the module
    docstring: references are kept; text without secrets comes back unchanged).

    Caught: tokens of well-known formats and webhook URLs whose path is the credential;
    a ``.netrc`` entry's password (`netrc_secrets`); URL user info and secret-looking query parameters; HTTP auth headers
    (``Authorization: Bearer X``, ``-H "X-Api-Key: X"``, curl's ``-u user:pass``, a
    call's ``setRequestHeader('Authorization', 'Bearer X')``: `header_calls`; all in `secret_headers`);
    quoted ``"api_key": "X"`` pairs and the pairs of code's maps (`quoted_pairs`); a .NET setting's value (`app_settings`: ``<add key="ApiKey"
    value="X" />``, the key kept); basic auth's password in code (`auth_tuples`:
    ``auth=("user", "X")``, ``HTTPBasicAuth("user", "X")``); a literal password SQL or code passes
    (`code_passwords`: ``psql -c "ALTER USER bob PASSWORD 'X'"``); values after or inside secret-looking flags
    (``--api-key X``, ``--token=X``: `secret_flags`; under a setting's name, in which a secret
    word only qualifies, a number or a path stays: ``--max-tokens 4096``, ``TOKEN_FILE=/run/x``,
    `setting_names`, in ``NAME=value`` too); ``NAME=value`` where the name looks secret
    (``SLACK_TOKEN=X ./notify.sh``, ``-d "token=X"``, ``--env=API_TOKEN=X``, helm's
    ``--set auth.password=X``; or set by a command, the name and value words apart, ``npm
    config set //host/:_authToken X``, ``git config github.token X``; a scheme and its credential only in quotes, ``AUTH_TYPE=basic
    ./run`` runs ./run: `shell_assignments`; a record's key in a lower-case word stays in these, in a
    flag's and in a quoted pair, ``&ods_key=pappg``, ``--sort-key name``, ``"sort_key":
    "name"``, as the URL rule keeps it: `secret_values.record_key`); and the password flags of
    well-known clients (``mysql -pX``, ``sshpass -p X``, ``redis-cli -a X``); cookies
    (``-H "Cookie: session=X"``, ``--cookie 'sid=X'``) whose value reads as a literal
    secret, as in prose (`cookie_secrets`: ``theme=dark`` stays). A quoted value goes
    whole (``--password "a b c"``). So does a value a command says is a secret, whatever
    its name, when it reads as a literal secret (`secret_setters`: ``gh secret set NAME
    --body X``, ``echo X | gh secret set NAME``, ``fly secrets set NAME=X``, ``kubectl create secret generic
    --from-literal=KEY=X``).
    """
    text = redact_env_defaults(redact_formats(command))
    text = redact_pgpass(redact_netrc(redact_shell_urls(text)))
    text = redact_header_lines(redact_header_text(text))
    text = redact_app_settings(redact_quoted_pairs(text))  # ``"api_key": "X"``, ``<add key="ApiKey" value="X" />``
    text = AUTH_TUPLE_RE.sub(_masked_value(lambda m: True), text)  # ``auth=("user", "X")``
    text = redact_code_passwords(text, _masked_value(lambda m: literal_or_braced(m["val"])))  # ``PASSWORD 'X'``
    text = redact_flags(text)  # ``--api-key X``, ``--token=X``: `secret_flags`
    text = redact_assignments(text)
    text = on_words(text, COOKIE_LINE_RE, COOKIE_WORDS, _redact_cookies)
    return _redact_programs(text)


def _redact_programs(text: str) -> str:
    """Shell text with the secrets that programs take in words of their own redacted:
    a value a command sets under a secret's name, the two words apart
    (`secret_commands.SHELL_SETTER_RE`: ``npm config set //host/:_authToken X``), and,
    whatever the words' names, values a command says are secrets (`secret_setters`) and
    the password flags of well-known clients (`client_passwords`). MCP arguments are
    read by these too (`redact_args`), as one command line."""
    text = SHELL_SETTER_RE.sub(_masked_value(secret_setting), text)
    if SECRET_COMMAND_WORDS_RE.search(text):  # every command `redact_secret_commands` reads says one of these
        text = redact_secret_commands(text, _masked_value(lambda m: literal_or_braced(m["val"])))
    return redact_client_passwords(text)


def _redact_cookies(line: str) -> str:
    """One line of a command with its cookies' literal secrets redacted: a cookie's
    name says nothing, so only its value decides (`braced_values.literal_or_braced`:
    `secret_values.literal_word`, or a secret in braces)."""
    return redact_cookies(line, _masked_value(lambda m: literal_or_braced(m["val"])))
