"""Where a hook or an MCP server entry that an install writes holds what looks like a
credential.

Install writes a hook's command and a server's entry as their source file has them (a
command must run byte for byte), so a key a repository committed there reaches
``.claude/settings.json`` or ``.mcp.json``, files a project shares through git, as a key
in a copied file reaches ``.claude/`` (`credential_files` names those). Each spot of an
entry that the ingest secret rules change is a `SecretSpot`, named by where it is
(``command``, ``args[3]``, ``env LEAKY_TOKEN``, ``headers Authorization``), never by its
value: for a hook, the rules that index it (`hook_configs.redacted_hook`); for a server,
those of its command and arguments read as one (`secrets.redact_invocation`), its URL
(`secrets.redact_args`), and each header or environment value as a header's
(`secrets.redact_headers`: under a secret's name, whatever is no reference or
placeholder; under any name, a token of a well-known format or URL credentials; the
index keeps no such value at all). A reference (``${TOKEN}``) or a placeholder
(``YOUR_API_KEY``) is no spot, as the index keeps it.
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
    # Imported here: uninstall reads the plan's types without the secret rules (tests/test_cold_start.py).
    from skill_retriever.ingest.hook_configs import redacted_hook

    redacted = redacted_hook(hook)
    out: list[str] = []
    for key, value in hook.items():
        if redacted.get(key) == value:
            continue
        if isinstance(value, list):
            out += [f"{key}[{i}]" for i, (a, b) in enumerate(zip(value, redacted[key], strict=False)) if a != b]
        elif isinstance(value, Mapping):
            out += [f"{key} {k}" for k, v in value.items() if redacted[key].get(k) != v]
        else:
            out.append(str(key))
    return out


def _server_spots(entry: Mapping[str, Any]) -> list[str]:
    from skill_retriever.ingest.secrets import redact_args, redact_headers, redact_invocation

    out: list[str] = []
    command, args = entry.get("command"), entry.get("args")
    # arguments that are not all text are read by no rule (the index keeps them as written)
    words: list[str] = list(args) if isinstance(args, list) and all(isinstance(a, str) for a in args) else []
    if isinstance(command, str) or words:
        head, redacted = redact_invocation(command if isinstance(command, str) else None, words)
        out += ["command"] * (isinstance(command, str) and head != command)
        out += [f"args[{i}]" for i, (a, b) in enumerate(zip(words, redacted, strict=True)) if a != b]
    url = entry.get("url")
    if isinstance(url, str) and redact_args([url])[0] != url:
        out.append("url")
    for field in ("env", "headers"):
        values = entry.get(field)
        if not isinstance(values, Mapping):
            continue
        texts = {str(k): v for k, v in values.items() if isinstance(v, str)}
        redacted_values = redact_headers(dict(texts))
        out += [f"{field} {k}" for k, v in texts.items() if redacted_values[k] != v]
    return out
