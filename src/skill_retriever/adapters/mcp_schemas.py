"""What the MCP server's tool list tells a client's model about each tool, beyond its
description: each argument's ``description`` in the input schema, and the tool's
annotations (read-only, destructive, idempotent; MCP ``ToolAnnotations``).

A model reads an argument's help where its client puts it: some show the JSON Schema's
property ``description`` and not the tool's text, and none had one (the help was only in
the description's ``Args:`` lines). The schema's descriptions are read from those lines
(`arg_descriptions`), so the two are written once, in the tool function's docstring,
and cannot drift apart; a tool whose argument has no line there is a bug the tests catch.
"""

from __future__ import annotations

import re
from typing import Any

from mcp.types import ToolAnnotations

__all__ = ["ANNOTATIONS", "arg_descriptions", "described"]

#: Each tool's hints. ``openWorldHint`` is false throughout: the tools read one local
#: index and write one local project folder, no outside service. The searches and the
#: checks only read. An install may overwrite a user's files (``force``) and an uninstall
#: removes files: destructive, for a client that asks before running such tools (both are
#: dry runs unless ``dry_run`` is false). Called again with the same arguments, either
#: finds its work done and changes nothing more: idempotent.
#: Written as the protocol spells them: mcp 1.x names the fields so, mcp 2 takes them as aliases.
_READS = ToolAnnotations.model_validate({"readOnlyHint": True, "openWorldHint": False})
_WRITES = ToolAnnotations.model_validate(
    {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": False}
)
ANNOTATIONS: dict[str, ToolAnnotations] = {
    "search": _READS,
    "search_components": _READS,
    "get_component": _READS,
    "check_dependencies": _READS,
    "install_components": _WRITES,
    "uninstall_components": _WRITES,
}

#: An ``Args:`` entry's first line, as Google-style docstrings write it (dedented).
_ENTRY = re.compile(r"^    (\w+): (.*)$")


def arg_descriptions(description: str) -> dict[str, str]:
    """Each argument's help from the ``Args:`` section of a dedented tool description:
    name -> its text, continuation lines joined with spaces."""
    out: dict[str, str] = {}
    name = None
    lines = description.splitlines()
    start = lines.index("Args:") + 1 if "Args:" in lines else len(lines)
    for line in lines[start:]:
        if (entry := _ENTRY.match(line)) is not None:
            name = entry.group(1)
            out[name] = entry.group(2).strip()
        elif name is not None and line.startswith("        ") and line.strip():
            out[name] += " " + line.strip()
        else:  # a blank or dedented line ends the section
            break
    return out


def described(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """``schema`` (a tool's input schema, not changed) with each property's
    ``description`` from ``description``'s ``Args:`` lines (`arg_descriptions`)."""
    helps = arg_descriptions(description)
    properties = {
        name: prop | ({"description": helps[name]} if name in helps else {})
        for name, prop in schema.get("properties", {}).items()
    }
    return schema | {"properties": properties}
