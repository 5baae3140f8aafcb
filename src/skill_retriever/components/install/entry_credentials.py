"""Where a hook or an MCP server entry that an install writes holds what looks like a
credential.

Install writes a hook's command and a server's entry as their source file has them (a
command must run byte for byte), so a key a repository committed there reaches
``.claude/settings.json`` or ``.mcp.json``, files a project shares through git, as a key
in a copied file reaches ``.claude/`` (`credential_files` names those). Each value of an
entry that the rules a copied file is judged by change (`prose_secrets.redact_prose`,
which `secret_lines` runs: a token of a well-known format, URL credentials, ``Bearer X``,
``--api-key X``, ``NAME=X`` under a secret's name when X is written out) is a
`SecretSpot`, named by where it is (``command``, ``args[3]``, ``env LEAKY_TOKEN``,
``headers Authorization``), never by its value. An argument is read with the word before
it (``--api-key``, ``X``), an environment value as ``NAME=value``, a header as ``Name:
value``. A reference (``${TOKEN}``), a placeholder (``YOUR_API_KEY``) or a setting
(``MAX_TOKENS=4096``, ``--token-file /run/secrets/t``) is no spot. The shell rules the
index keeps a hook's command by are not used: they take any value under a secret's name
(``--password password``, ``KEY=value``), which the index may well drop but which is no
committed key to warn of.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["SecretSpot", "entry_spots"]


@dataclass(frozen=True, order=True)
class SecretSpot:
    """A value of a hook or server entry (``where``: ``env LEAKY_TOKEN``, ``args[3]``)
    that an ingest secret rule changes."""

    where: str


def entry_spots(mcp_entry: Mapping[str, Any] | None, hook: Mapping[str, Any] | None) -> tuple[SecretSpot, ...]:
    """The spots of a server entry (``mcp_entry``) or a hook (``hook``, one hook object)
    that hold what looks like a credential, in the entry's order; none for one the index
    would keep as written."""
    if mcp_entry is not None:
        return tuple(SecretSpot(w) for w in _server_spots(mcp_entry))
    if hook is not None:
        return tuple(SecretSpot(w) for w in _hook_spots(hook))
    return ()


def _hook_spots(hook: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("command", "url", "prompt"):
        value = hook.get(key)
        if isinstance(value, str) and _changed(value):
            out.append(key)
    out += _args_spots(hook.get("args"), hook.get("command"))
    out += _values_spots("headers", hook.get("headers"), ": ")
    return out


def _server_spots(entry: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    command = entry.get("command")
    if isinstance(command, str) and _changed(command):
        out.append("command")
    out += _args_spots(entry.get("args"), command)
    url = entry.get("url")
    if isinstance(url, str) and _changed(url):
        out.append("url")
    out += _values_spots("env", entry.get("env"), "=")
    out += _values_spots("headers", entry.get("headers"), ": ")
    return out


def _args_spots(args: object, command: object) -> list[str]:
    """``args[i]`` for each argument that holds a secret alone (``--api-key=X``) or as the
    value of the word before it (``--api-key``, ``X``; for the first, the command's last
    word)."""
    if not isinstance(args, list):
        return []
    before = command.rsplit(" ", 1)[-1] if isinstance(command, str) else ""
    out = []
    for i, arg in enumerate(args):
        if not isinstance(arg, str):
            before = ""
            continue
        if _changed(arg) or (before and _changed(f"{before} {arg}") and not _changed(before)):
            out.append(f"args[{i}]")
        before = arg
    return out


def _values_spots(field: str, values: object, sep: str) -> list[str]:
    """``<field> <name>`` for each value that holds a secret read as ``NAME=value``
    (environment) or ``Name: value`` (a header)."""
    if not isinstance(values, Mapping):
        return []
    return [f"{field} {k}" for k, v in values.items() if isinstance(v, str) and _changed(f"{k}{sep}{v}")]


def _changed(text: str) -> bool:
    """The rules a copied file is judged by (`secret_lines`) change ``text``."""
    # Imported here: uninstall reads the plan's types without the secret rules (tests/test_cold_start.py).
    from skill_retriever.ingest.prose_secrets import redact_prose

    return redact_prose(text) != text
