"""The component ids that ``install_components`` and ``check_dependencies`` are given, as
the caller may see them; a name that answers to nothing is told the close names the CLI
offers (`suggest.close_names`, from the caller's view only: a hidden item is never named),
and every such name of one call is said at once, as ``install`` says them.
"""

from __future__ import annotations

from collections.abc import Sequence

from skill_retriever.adapters.mcp_arguments import ToolError, checked_ref, unknown_said
from skill_retriever.components.install.errors import (
    UnknownComponentError,
    UnknownNamesError,
    no_component,
    shown_ref,
)
from skill_retriever.components.install.not_installable import NotInstallableError
from skill_retriever.components.install.resolve import resolve_all
from skill_retriever.components.view import CallerView

__all__ = ["named_ids", "unknown_names_said"]


def named_ids(view: CallerView, refs: Sequence[str], arg: str) -> list[str]:
    """The node id of each of ``refs`` as ``view``'s caller may see it: an id, or a unique
    name (an item the caller may not see is no component, as one that does not exist).

    Raises:
        ToolError: A ref is empty, or names nothing the caller sees (with close names),
            several things, or an item of a kind install has no place for.
    """
    for i, ref in enumerate(refs):
        checked_ref(ref, f"{arg}[{i}]")
    try:
        return [node_id for node_id, _ in resolve_all(view, refs)]
    except UnknownComponentError as exc:
        raise ToolError(unknown_names_said(exc, arg)) from exc


def unknown_names_said(exc: UnknownComponentError, arg: str) -> str:
    """What an agent should do about names that answer to nothing (``arg``: the argument
    to pass ids as); any other refusal in `mcp_arguments.unknown_said`'s words."""
    search = f"call search_components with the task to find ids, then pass one of them as {arg}"
    if isinstance(exc, UnknownNamesError):
        offered = f", or pass a close name as {arg}" if any(names for _, names in exc.unknown) else ""
        return f"{no_component(exc.unknown)}; {search}{offered}"
    if exc.candidates or isinstance(exc, NotInstallableError) or not exc.suggestions:
        return unknown_said(exc, arg)
    # the words `unknown_said` uses for no close name, then the names to pass instead
    return f"no component {shown_ref(exc.ref)}; {search}, or one of these close names: {', '.join(exc.suggestions)}"
