"""The MCP tools' argument types and how a bad argument is said (`mcp_server._Server`).

A tool call's JSON is validated by pydantic against the tool function's signature. The
types here are stricter than Python's own where a lenient reading would hide a client's
bug: a count is never ``true`` or ``"5"``, and a switch is never ``"false"`` (read as
true, that string turned a dry run into a real install).
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BeforeValidator, Field, ValidationError, WithJsonSchema

from skill_retriever.adapters.tool_arguments import Flag, WholeNumber, whole_number

try:  # mcp >= 2; one import for every module that refuses a tool call or a resource read
    from mcp.server.mcpserver.exceptions import ResourceError, ToolError
except ImportError:  # pragma: no cover - mcp 1.x
    from mcp.server.fastmcp.exceptions import ResourceError, ToolError  # type: ignore[no-redef]

__all__ = [
    "Budget", "Count", "Flag", "Ids", "Kind", "Kinds", "ResourceError", "ToolError", "WholeNumber",
    "argument_error", "one_or_more", "whole_number",
]  # fmt: skip

#: ``k`` and ``budget`` as the schema shows them, with their least values (1 and 0): a
#: client that checks its arguments before sending knows. A smaller one is still refused
#: by the tool itself, in its own words (`mcp_search.checked_counts`), not pydantic's.
Count = Annotated[WholeNumber, WithJsonSchema({"type": "integer", "minimum": 1})]
Budget = Annotated[WholeNumber, WithJsonSchema({"type": "integer", "minimum": 0})]


def one_or_more(kinds: list[str]) -> dict[str, object]:
    """The JSON schema of a ``kinds`` argument: a list of at least one of ``kinds``, or one
    alone as a string (which the validator reads as a list of one); a client that checks
    its arguments against the schema before sending would refuse the string otherwise."""
    kind = {"type": "string", "enum": kinds}
    return {"anyOf": [{"type": "array", "items": kind, "minItems": 1}, kind]}


#: Component kinds (an enum in the schema; one alone is a list of one) and ids: at least one.
Kind = Literal["skill", "agent", "command", "hook", "mcp_server"]  # `COMPONENT_KINDS`
Kinds = Annotated[
    list[Kind],
    BeforeValidator(lambda v: [v] if isinstance(v, str) else v),
    Field(min_length=1),
    WithJsonSchema(one_or_more(list(get_args(Kind)))),
]
Ids = Annotated[list[str], Field(min_length=1)]


def argument_error(exc: ValidationError, takes: str) -> str:
    """The first problem with a call's arguments, in one line naming the argument
    (pydantic's own text spans lines and ends in a URL an agent cannot use)."""
    err, *more = exc.errors()
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".")
    said = {
        "missing": f"{where} is required; {takes}",
        "too_short": f"{where} is empty; pass at least one",
        "whole_number": str(err["msg"]),  # names the argument itself
    }.get(err["type"], f"{where}: {err['msg'][:1].lower()}{err['msg'][1:]}")
    return said + (f" (and {len(more)} more problem(s))" if more else "")
