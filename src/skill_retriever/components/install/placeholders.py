"""Which values of an ``.mcp.json`` server entry its author left to fill in
(``YOUR_API_KEY``, ``postgresql://user:password@localhost/db``, VS Code's
``${input:...}``, an environment value left ``""``): install's notes on them
(`unfilled_notes`, said when `render_mcp` writes the entry) and where they sit
(`placeholder_spots`, read by uninstall's `filled_in`).

Its own module, apart from `render_mcp`, which reads the index's redaction and plugin
manifests: ``uninstall`` judges the recorded entries without importing those
(tests/test_cold_start.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["Spot", "placeholder_spots", "unfilled_notes"]


#: VS Code's prompt for a value (``${input:api-key}``), which Claude Code does not read.
_VSCODE_INPUT_RE = re.compile(r"\$\{input:([^}]*)\}")
#: A URL that still holds its author's placeholder (``https://mcp.example.com/{minimal | mcp}``).
_URL_PLACEHOLDER_RE = re.compile(r"[{}<>|]")
#: A command, argument, header or environment value its author left to fill in
#: (``Bearer <YOUR_HF_TOKEN>``, ``YOUR_API_KEY``, ``your-token-here``, a token masked
#: as ``ntn_****``, an example path: ``/path/to/mcp-server-box``, ``/abs/path/to/uv``);
#: ``${VAR}`` references are values, not these.
_VALUE_PLACEHOLDER_RE = re.compile(
    r"<[^<>]*>|\b(?:YOUR|your)[_-]\w*|\b\w*[_-](?:HERE|here)\b|\bx{6,}\b|\bchangeme\b|(?:^|/)path/to/|\*{3,}"
)
#: A URL's user info (``postgresql://user:password@host``): what `_placeholder_login` judges.
_URL_LOGIN_RE = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://([^/?#@\s]+)@")
#: A user name or password that is its author's example, not a real one: a generic word
#: (in a pair of such words), ``<user>``, ``{password}``, ``[user]``, ``YOUR_...``, ``xxx``.
_LOGIN_WORDS = (
    frozenset({"user", "username", "usr", "login", "name"}),
    frozenset({"password", "pass", "passwd", "pwd", "secret"}),
)
_LOGIN_PLACEHOLDER_RE = re.compile(r"<[^<>]*>|\{[^{}$]*\}|\[[^\[\]]*\]|(?:YOUR|your)[_-]?\w*|x{3,}|X{3,}")


def _placeholder_login(text: str) -> str | None:
    """The first URL in ``text`` whose user info is its author's placeholder
    (``postgresql://user:password@localhost/db``, ``<user>:<password>``, ``YOUR_USER``),
    cut to ``scheme://user:password@`` (a part that is no placeholder shown as ``***``: it
    may be real); None when there is none. A real-looking login (``alice:s3cret``,
    ``postgres:postgres``) or ``${VAR}`` references are left alone."""
    for found in _URL_LOGIN_RE.finditer(text):
        user, colon, password = found.group(1).partition(":")
        words = user.casefold() in _LOGIN_WORDS[0] and password.casefold() in _LOGIN_WORDS[1]
        marked = [bool(_LOGIN_PLACEHOLDER_RE.fullmatch(part)) for part in (user, password)]
        if words or any(marked):
            shown = [p if words or m or not p else "***" for p, m in zip((user, password), marked, strict=True)]
            return f"{text[found.start():found.start(1)]}{shown[0]}{colon}{shown[1]}@"
    return None


def _placeholder_value(value: str) -> bool:
    """A header or environment value its author left to fill in."""
    return bool(_VALUE_PLACEHOLDER_RE.search(value)) or _placeholder_login(value) is not None


def _placeholder_url(url: str) -> bool:
    """A URL its author left to fill in: a ``{...}``, ``<...>`` or ``|`` in it, an example
    login, or a value placeholder anywhere in it (``?token=YOUR_BRIGHTDATA_API_TOKEN``)."""
    return bool(_URL_PLACEHOLDER_RE.search(url)) or _placeholder_value(url)


def _left_empty(field: str, value: object) -> bool:
    """An environment or header value its author left empty (``"BROWSERBASE_API_KEY": ""``,
    davila7's browserbase and dynatrace servers): Claude Code passes it on as the empty
    string, so it is one to fill in as much as ``YOUR_API_KEY`` is."""
    return field in ("env", "headers") and isinstance(value, str) and not value.strip()


#: Where in an entry a value sits: ``("url",)``, ``("args", 2)``, ``("env", "KEY")``,
#: ``("headers", "Authorization")``.
Spot = tuple[str] | tuple[str, str | int]


def placeholder_spots(entry: Mapping[str, Any]) -> list[Spot]:
    """Where ``entry`` holds a value that `unfilled_notes` tells the user to fill in (judged by
    its rules: the command, the URL, an argument, a header or environment value): uninstall counts a
    server whose only changes are there as unchanged (`filled_in`)."""
    spots: list[Spot] = []
    command = entry.get("command")
    if isinstance(command, str) and _placeholder_value(command):
        spots.append(("command",))
    url = entry.get("url")
    if isinstance(url, str) and (_placeholder_url(url) or _VSCODE_INPUT_RE.search(url)):
        spots.append(("url",))
    args = entry.get("args")
    for i, a in enumerate(args if isinstance(args, list) else []):
        if isinstance(a, str) and (_placeholder_value(a) or _VSCODE_INPUT_RE.search(a)):
            spots.append(("args", i))
    for field in ("env", "headers"):
        values = entry.get(field)
        for k, v in sorted(values.items() if isinstance(values, Mapping) else []):
            if isinstance(v, str) and (_placeholder_value(v) or _VSCODE_INPUT_RE.search(v) or _left_empty(field, v)):
                spots.append((field, str(k)))
    return spots


def unfilled_notes(entry: Mapping[str, Any]) -> list[str]:
    """Notes on what the entry leaves to fill in that Claude Code would pass on as written:
    a command that is a placeholder, VS Code's ``${input:...}`` prompts (Claude Code expands ``${VAR}`` from the environment
    only), a URL still holding a placeholder, a URL (the server's, an argument, a header
    or environment value) whose user and password are its author's example, an
    argument, header or environment value that is one (``--read-token=YOUR-TOKEN``,
    ``ntn_****``), and a header or environment value left empty."""
    notes = []
    inputs = sorted(set(_VSCODE_INPUT_RE.findall(json.dumps(entry))))
    if inputs:
        notes.append(
            f"it uses VS Code's ${{input:...}} prompts ({', '.join(inputs)}), which Claude Code does not "
            "read: in .mcp.json, put the value there or name an environment variable (${VAR})"
        )
    command = entry.get("command")
    if isinstance(command, str) and _placeholder_value(command):
        # Claude Code runs the command as written: "<path of binary aks-mcp>" starts nothing
        notes.append(f"its command holds a placeholder ({command!r:.80}): set the real program in .mcp.json")
    # Shown as the index would keep them (a real secret beside the placeholder redacted);
    # imported here, install's alone: uninstall reads this module without the secret rules.
    from skill_retriever.ingest.secrets import redact_args

    url = entry.get("url")
    if isinstance(url, str) and _placeholder_url(url):
        notes.append(f"its URL holds a placeholder ({redact_args([url])[0]!r:.120}): set the real one in .mcp.json")
    args = [a for a in entry.get("args") or [] if isinstance(a, str)] if isinstance(entry.get("args"), list) else []
    logins = [found for a in args if (found := _placeholder_login(a))]
    if logins:
        notes.append(
            f"its args hold a URL with a placeholder user and password ({', '.join(logins)}): set the "
            "real ones in .mcp.json, or name an environment variable (${VAR})"
        )
    marked = [f"{redact_args([a])[0]!r:.80}" for a in args if _VALUE_PLACEHOLDER_RE.search(a) and not _placeholder_login(a)]
    if marked:
        notes.append(
            f"its args {', '.join(marked)} still hold(s) a placeholder value: set the real one in "
            ".mcp.json, or name an environment variable (${VAR})"
        )
    for field in ("headers", "env"):
        values = entry.get(field)
        left = sorted(
            k for k, v in (values.items() if isinstance(values, Mapping) else [])
            if isinstance(v, str) and _placeholder_value(v)
        )
        if left:
            notes.append(
                f"its {field} {', '.join(left)} still hold(s) a placeholder value: set the real "
                "one in .mcp.json, or name an environment variable (${VAR})"
            )
        empty = sorted(k for k, v in (values.items() if isinstance(values, Mapping) else []) if _left_empty(field, v))
        if empty:
            notes.append(
                f"its {field} {', '.join(empty)} {'is' if len(empty) == 1 else 'are'} left empty, which Claude "
                "Code passes on as written: set the value in .mcp.json, or name an environment variable (${VAR})"
            )
    return notes
