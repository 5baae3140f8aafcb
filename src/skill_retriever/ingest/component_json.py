"""Whether one JSON file given to ``index`` alone is a component of a skills repository.

A ``.json`` file given alone is read as a JSON graph (``{"nodes": [...], "edges": [...]}``).
A hook definition (``hooks/notify.json``) or an MCP configuration (``.mcp.json``) is no
graph: read as one, it was refused for its missing ``"nodes"``, which sent the user to fix
a file that is fine. Such a file is read with its repository, as a SKILL.md or an agent is,
so ``indexing.detect_source`` refuses it the same way, naming the folder to index
(`held_sources.component_file_advice`). Only the shapes the skills read takes (`walk`,
`hook_configs`) are recognised: a top-level ``"hooks"`` or ``"mcpServers"`` object, in a
file with no ``"nodes"``; anything else is left to the graph reader and its messages.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["component_json"]

#: The top-level key of each component file and what the refusal calls it.
_KINDS = {"hooks": "a hook definition", "mcpServers": "an MCP server configuration"}


def component_json(path: Path) -> str | None:
    """What component of a skills repository the JSON file ``path`` is ("a hook
    definition", "an MCP server configuration"); None for any other file, one that cannot
    be read or parsed included (the graph reader says what is wrong with it)."""
    try:
        raw = path.read_bytes()
        if not any(f'"{key}"'.encode() in raw for key in _KINDS):
            return None  # no parse of a large graph twice
        data = json.loads(raw)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or "nodes" in data:
        return None
    return next((what for key, what in _KINDS.items() if isinstance(data.get(key), dict)), None)
