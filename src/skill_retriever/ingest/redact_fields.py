"""What the index keeps of a Markdown component: its fields with no secret in them.

A SKILL.md, an agent, a command, a Markdown hook or an OTHER file (`skill_links` builds
their nodes from `skill_records.markdown_record`) is prose its author wrote, and what it
holds is embedded, keyword-indexed and served to every caller. `redacted_item` takes out
of its name, description, text and tags what is a secret wherever it stands
(`prose_secrets.redact_prose`: tokens of well-known formats, PEM private keys, URL
credentials and secret query parameters, webhook paths, ``Bearer`` credentials and the
values of secret-looking assignments such as ``export DB_PASSWORD=...``), and redacts the values its frontmatter
keeps in ``attrs["frontmatter"]`` (`redact_frontmatter`); ingest applies it to every such
node and to every document (`documents`), and ``repair`` (`scrub`) to an item an older
index holds, so that the two agree.

Only free text goes: the attributes the installer and the graph read (``path``,
``source_root``, ``plugin``, ``command_namespace``, ``files``, ``unresolved_requires``
...) are left as they are, and so is the file on disk, which install copies. Text
without secrets comes back identical, so an ordinary item's content hash is unchanged
and re-indexing it embeds nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from skill_retriever.ingest.item_origin import is_document, is_markdown_item
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import redact_args, redact_command, redact_headers, secret_name
from skill_retriever.ingest.setting_names import setting_value
from skill_retriever.model import Node

__all__ = ["is_document", "is_markdown_item", "redact_frontmatter", "redacted_item"]

def redacted_item(node: Node) -> Node:
    """``node`` with its name, description, text and tags redacted as prose
    (`redact_prose`) and its ``frontmatter`` attribute as `redact_frontmatter` redacts it
    (the parser's ``frontmatter_recovered`` reason as prose); ``node`` itself when it
    holds no secret. Applying it twice changes nothing more."""
    name, description, text = (redact_prose(s) for s in (node.name, node.description, node.text))
    tags = tuple(redact_prose(t) for t in node.tags)
    attrs = dict(node.attrs)
    if "frontmatter" in attrs:
        attrs["frontmatter"] = redact_frontmatter(attrs["frontmatter"])
    if isinstance(attrs.get("frontmatter_recovered"), str):
        attrs["frontmatter_recovered"] = redact_prose(attrs["frontmatter_recovered"])
    if (name, description, text, tags, attrs) == (
        node.name, node.description, node.text, node.tags, dict(node.attrs)
    ):
        return node
    return replace(node, name=name, description=description, text=text, tags=tags, attrs=attrs)


def redact_frontmatter(value: Any, key: str | None = None) -> Any:
    """Frontmatter values (``value`` under ``key``), lists and mappings walked, with
    their secrets replaced by ``[redacted]``; anything that is not text as it is.

    A ``command`` is shell (`redact_command`, as a hook's command: a skill or agent may
    declare hooks in its frontmatter) and ``args`` an argument list (`redact_args`, as an
    MCP server's); text under a key whose name looks secret (`secrets.secret_name`:
    ``api_key``, ``token``, ``Authorization``, not ``author`` or ``keywords``) is a secret
    however it reads, unless it is a reference or a placeholder (``$TOKEN``,
    ``<api-key>``), or a setting's number or path under a name a secret word only
    qualifies (``max_tokens: "4096"``, ``token_file: /run/x``: `setting_names.setting_value`,
    as a command's), and an auth scheme before it is kept (`redact_headers`, whose rule it is); so
    is the ``value`` of an environment entry whose ``name`` looks secret (``env: [{name:
    API_KEY, value: ...}]``); every other text is prose (`redact_prose`).
    """
    if isinstance(value, str):
        if key == "command":
            return redact_command(value)
        if key is not None and secret_name(key):
            if setting_value(key, value):  # ``max_tokens: "4096"``, ``token_file: /run/x``
                return value
            return redact_headers({key: value})[key]
        return redact_prose(value)
    if isinstance(value, list):
        if key == "args" and all(isinstance(v, str) for v in value):
            return redact_args(value)
        return [redact_frontmatter(v, key) for v in value]
    if isinstance(value, Mapping):
        # An environment entry (``{name: API_KEY, value: ...}``): its value is under the name.
        name = value.get("name")
        named = isinstance(name, str) and secret_name(name)
        return {k: redact_frontmatter(v, name if named and k == "value" else str(k)) for k, v in value.items()}
    return value
