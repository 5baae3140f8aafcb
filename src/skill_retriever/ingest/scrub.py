"""Secrets an index took in before they were redacted at ingest, taken out (``repair``).

Indexing redacts what a config holds of secrets (`ingest.secrets`): MCP servers' URL
credentials since ``cb33d75``, hook commands since this module came. An index built
earlier still holds them verbatim in those items' text (embedded, keyword-indexed and
served to callers) and attributes. `scrubbed` gives such an item's redacted copy, by the
rules ingest now applies, so that ``repair`` can write it back without the source files,
which may be gone; re-indexing the source does the same from the files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from skill_retriever.ingest.secrets import (
    redact_args,
    redact_command,
    redact_command_line,
    redact_urls,
)
from skill_retriever.model import Node, NodeKind

__all__ = ["scrubbed"]


def scrubbed(node: Node) -> Node | None:
    """``node`` with the secrets of a hook's commands or an MCP server's command line,
    arguments and URLs replaced by ``[redacted]``; None when it holds none (or is of
    another kind)."""
    if node.kind is NodeKind.HOOK:
        attrs = _hook_attrs(node.attrs)
    elif node.kind is NodeKind.MCP_SERVER:
        attrs = _mcp_attrs(node.attrs)
    else:
        return None
    text, description = _text(node.text, node.kind), redact_urls(node.description)
    if text == node.text and description == node.description and attrs == dict(node.attrs):
        return None
    return replace(node, text=text, description=description, attrs=attrs)


def _text(text: str, kind: NodeKind) -> str:
    """An item's text redacted line by line as ingest writes it: the command after a
    hook line's ``, runs: `` and an MCP server's ``Command: `` line as commands, every
    other line (prose: a description) for URL credentials only, since prose such as
    ``set API_KEY=your key`` is no command."""
    out = []
    for line in text.split("\n"):
        head, runs, command = line.partition(", runs: ")
        if kind is NodeKind.HOOK and runs:
            line = head + runs + redact_command(command)
        elif kind is NodeKind.MCP_SERVER and line.startswith("Command: "):
            line = "Command: " + redact_command_line(line.removeprefix("Command: "))
        else:
            line = redact_urls(line)
        out.append(line)
    return "\n".join(out)


def _hook_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """A hook's attributes with every command redacted, wherever the index keeps one
    (``hooks``, ``runs``, the flat form's ``command``); the rest as stored."""
    out = dict(attrs)
    if isinstance(attrs.get("hooks"), Mapping):
        out["hooks"] = {event: _commands_redacted(groups) for event, groups in attrs["hooks"].items()}
    if isinstance(attrs.get("runs"), list):
        out["runs"] = _commands_redacted(attrs["runs"])
    if isinstance(attrs.get("command"), str):
        out["command"] = redact_command(attrs["command"])
    return out


def _commands_redacted(value: Any) -> Any:
    """``value`` (lists and mappings of a hook's settings) with each ``command`` string
    redacted; shapes an older index may hold are walked as they are, never refused."""
    if isinstance(value, list):
        return [_commands_redacted(v) for v in value]
    if isinstance(value, Mapping):
        return {
            k: redact_command(v) if k == "command" and isinstance(v, str) else _commands_redacted(v)
            for k, v in value.items()
        }
    return value


def _mcp_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """An MCP server's attributes redacted as `skill_configs` redacts them at ingest."""
    out = dict(attrs)
    if isinstance(attrs.get("command"), str):
        out["command"] = redact_command_line(attrs["command"])
    if isinstance(attrs.get("args"), list):
        out["args"] = redact_args([str(a) for a in attrs["args"]])
    if isinstance(attrs.get("url"), str):
        out["url"] = redact_urls(attrs["url"])
    return out
