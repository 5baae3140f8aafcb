"""Checking a langgraph-bigtool tool registry before ``adapters.bigtool.index_tool_registry``
mirrors it in an index: a bad one must fail before anything is written."""

from __future__ import annotations

from collections.abc import Mapping

from langchain_core.tools import BaseTool
from langchain_core.tools import tool as as_tool

from skill_retriever.exceptions import ConfigError

__all__ = ["check_registry"]


def check_registry(registry: object) -> None:
    """Refuse, in one line naming the first bad entry, a registry bigtool could not use.

    The registry is mirrored, so a bad one costs more than an error: a list failed as an
    AttributeError, and an entry LangChain cannot make a tool of (a lambda, a function
    without a docstring) was indexed, and the tools the registry held before were deleted
    as gone; bigtool's ``create_agent`` then failed on that entry anyway (its ``ToolNode``
    makes a tool of each function, and a tool needs a description).

    Raises:
        ConfigError: ``registry`` is not a mapping of string ids to tools, or an entry is
            neither a ``BaseTool`` nor a function LangChain's ``tool()`` takes.
    """
    if not isinstance(registry, Mapping):
        raise ConfigError(f"the tool registry must map registry ids to tools ({{id: tool}}, bigtool's "
                          f"tool_registry), got {type(registry).__name__}")
    for tool_id, entry in registry.items():
        if not isinstance(tool_id, str):
            raise ConfigError(f"registry id {tool_id!r} is not a string; bigtool's registry ids are strings")
        if isinstance(entry, BaseTool):
            continue
        if not callable(entry):
            raise ConfigError(f"registry entry {tool_id!r} is neither a BaseTool nor a function, "
                              f"got {type(entry).__name__}")
        try:
            as_tool(entry)  # as bigtool's ToolNode makes one of it
        except (ValueError, TypeError) as exc:
            name = getattr(entry, "__name__", type(entry).__name__)
            raise ConfigError(f"registry entry {tool_id!r} ({name}) is not a tool bigtool can bind "
                              f"({str(exc).rstrip('.')}); give it a docstring, or make it a BaseTool "
                              "with a description") from None
