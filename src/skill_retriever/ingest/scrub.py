"""Secrets an index took in before they were redacted at ingest, taken out (``repair``).

Indexing redacts what a config holds of secrets (`ingest.secrets`): MCP servers' URL
credentials since ``cb33d75``, hook commands since this module came, and what a Markdown
component (a skill, agent, command, Markdown hook or OTHER file) quotes since
`redact_fields` came, and by the prose rules of `prose_secrets` (private keys, JWTs,
``Bearer`` credentials, ``DB_PASSWORD=...``) since they came, in these and in documents. An index built earlier still holds them verbatim in those items'
text (embedded, keyword-indexed and served to callers) and attributes. `scrubbed` gives
such an item's redacted copy, by the rules ingest now applies, so that ``repair`` can
write it back without the source files, which may be gone; re-indexing the source does
the same from the files.

Each field is redacted by the function ingest redacts it with: a hook's settings by
`hook_configs.redacted_hook`, its description by `redact_prose`; an MCP server's command
line, arguments, URL (`skill_configs`: scheme, host and path only) by theirs and its
description by `redact_prose`; a Markdown component's name, description, text, tags and
frontmatter by `redact_fields.redacted_item`, which ingest applies to them, and a document's (a page
or a section of a folder of documents) by the same. No version of the rules is stored:
an item is rewritten when redacting it by today's rules changes it. The text is rebuilt from the
redacted fields where it reads as ingest wrote it (a hook's body, an MCP server's
``Command:`` and ``URL:`` lines), so that an old item scrubbed equals the item ingest
writes now and an item ingest wrote is left as it is; text that reads otherwise is
redacted line by line (where an MCP server's text starts with its stored description, that
part is replaced by the redacted description whole, so that a PEM block spanning lines
goes as ingest takes it out).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from skill_retriever.ingest.hook_configs import hook_body, redacted_hook, settings_hooks
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.redact_fields import is_document, is_markdown_item, redacted_item
from skill_retriever.ingest.secrets import redact_command, redact_command_line, redact_invocation
from skill_retriever.ingest.skill_configs import bare_url
from skill_retriever.ingest.skill_records import RecordError
from skill_retriever.model import Node, NodeKind

__all__ = ["scrubbed", "scrubbed_kinds"]


def scrubbed(node: Node) -> Node | None:
    """``node`` with the secrets of a hook's settings, an MCP server's command line,
    arguments and URLs, or a Markdown component's or a document's fields replaced by
    ``[redacted]``; None when it holds none (or is of another kind)."""
    if is_markdown_item(node) or is_document(node):  # before hooks: a Markdown hook has no settings to redact
        clean = redacted_item(node)
        return None if clean is node else clean
    if node.kind is NodeKind.HOOK:
        attrs, description = _hook_attrs(node.attrs), redact_prose(node.description)
        text = _hook_text(node, attrs, description)
    elif node.kind is NodeKind.MCP_SERVER:
        attrs, description = _mcp_attrs(node.attrs), redact_prose(node.description)
        text = _mcp_text(node, attrs, description)
    else:
        return None
    if text == node.text and description == node.description and attrs == dict(node.attrs):
        return None
    return replace(node, text=text, description=description, attrs=attrs)


def _hook_text(node: Node, attrs: dict[str, Any], description: str) -> str:
    """A hook's text rebuilt from its redacted description and hooks (`hook_body`) when
    it is what ingest built from the stored ones; else redacted line by line: the command
    after a line's ``, runs: `` as shell, every other line as prose (`redact_prose`),
    since prose such as ``set API_KEY=your key`` is no command."""
    try:
        old = settings_hooks({"hooks": node.attrs.get("hooks")})
        if node.text == hook_body(node.description, old):
            return hook_body(description, attrs["hooks"])
    except RecordError:
        pass  # an older shape: read line by line
    out = []
    for line in node.text.split("\n"):
        head, runs, command = line.partition(", runs: ")
        out.append(head + runs + redact_command(command) if runs else redact_prose(line))
    return "\n".join(out)


def _mcp_text(node: Node, attrs: dict[str, Any], description: str) -> str:
    """An MCP server's text: its head, when it is the stored description as ingest wrote
    it, replaced by the redacted ``description``; its ``Command:`` and ``URL:`` lines
    rebuilt from the redacted attributes when they read as ingest wrote them from the
    stored ones (else a ``Command:`` line is redacted as a command line); every other
    line as prose (`redact_prose`)."""
    old, new = _mcp_lines(node.attrs), _mcp_lines(attrs)
    head, rest = "", node.text
    stored = node.description.strip()
    if stored and (rest == stored or rest.startswith(stored + "\n")):
        head, rest = description.strip(), rest[len(stored) :]
    out = []
    for line in rest.split("\n"):
        if line and line in old:
            line = new[old.index(line)]
        elif line.startswith("Command: "):
            line = "Command: " + redact_command_line(line.removeprefix("Command: "))
        else:
            line = redact_prose(line)
        out.append(line)
    return head + "\n".join(out)


def _mcp_lines(attrs: Mapping[str, Any]) -> list[str]:
    """The ``Command:`` and ``URL:`` lines ingest writes for these attributes (`""` for
    one it writes none of)."""
    command, args, url = attrs.get("command"), attrs.get("args"), attrs.get("url")
    words = [str(a) for a in args] if isinstance(args, list) else []
    return [
        f"Command: {' '.join([command, *words])}" if isinstance(command, str) and command else "",
        f"URL: {url}" if isinstance(url, str) and url else "",
    ]


def _hook_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """A hook's attributes redacted wherever the index keeps a hook's settings
    (``hooks``, ``runs``, the flat form's ``command``); the rest as stored."""
    out = dict(attrs)
    if isinstance(attrs.get("hooks"), Mapping):
        hooks = attrs["hooks"]
        out["hooks"] = {event: _walked(groups, redacted_hook) for event, groups in hooks.items()}
    if isinstance(attrs.get("runs"), list):
        out["runs"] = _walked(attrs["runs"], redacted_hook)
    if isinstance(attrs.get("command"), str):
        out["command"] = redact_command(attrs["command"])
    return out


def _walked(value: Any, redact: Callable[[Mapping[str, Any]], dict[str, Any]]) -> Any:
    """``value`` (lists and mappings of a hook's settings) with each mapping redacted by
    ``redact``; shapes an older index may hold are walked as they are, never refused."""
    if isinstance(value, list):
        return [_walked(v, redact) for v in value]
    if isinstance(value, Mapping):
        return redact({k: _walked(v, redact) for k, v in value.items()})
    return value


def _mcp_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """An MCP server's attributes redacted as `skill_configs` redacts them at ingest."""
    out = dict(attrs)
    command = attrs["command"] if isinstance(attrs.get("command"), str) else None
    args = [str(a) for a in attrs["args"]] if isinstance(attrs.get("args"), list) else []
    command, redacted_args = redact_invocation(command, args)
    if command is not None:
        out["command"] = command
    if isinstance(attrs.get("args"), list):
        out["args"] = redacted_args
    if isinstance(attrs.get("url"), str):
        out["url"] = _stored_url(attrs["url"])
    return out


def _stored_url(url: str) -> str:
    """A remote server's URL as ingest stores it (`skill_configs.bare_url`: no user
    info, query or fragment); one stored so already is kept as it is, byte for byte."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return bare_url(url)
    return bare_url(url) if "@" in parts.netloc or parts.query or parts.fragment else url


#: How ``repair`` names the kinds of the items it redacted, in this order.
_KIND_WORDS = {
    NodeKind.HOOK: "hook",
    NodeKind.MCP_SERVER: "MCP server",
    NodeKind.SKILL: "skill",
    NodeKind.AGENT: "agent",
    NodeKind.COMMAND: "command",
    NodeKind.OTHER: "Markdown",
    NodeKind.DOCUMENT: "document",
}


def scrubbed_kinds(nodes: Iterable[Node]) -> str:
    """The kinds of ``nodes`` in words, for ``repair``'s line ("hook or MCP server",
    "skill, agent or command")."""
    kinds = {n.kind for n in nodes}
    words = [word for kind, word in _KIND_WORDS.items() if kind in kinds] or ["other"]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
