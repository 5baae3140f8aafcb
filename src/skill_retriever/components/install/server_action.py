"""What install does with one ``.mcp.json`` server, given what the file holds there now.

A server is written where the file has none, and left as it is when it is what install
would write, or that with only the values filled in that install told the user to set
(`filled_in`: "set the real one in .mcp.json"); reinstalling must not call that a
difference that only ``force`` (which would drop the user's values) gets past. An entry
an earlier install of this component wrote, filled in or not, is updated to a new version,
which keeps the user's values where it asks for the very same placeholder (`carried`).
Anything else there is the user's, or another component's (refused, force or not), and
stays unless ``force``.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.components.install.filled_in import carried, filled_in
from skill_retriever.components.install.plan import FileAction

__all__ = ["server_action", "values_note"]


def server_action(
    path: str,
    server: dict[str, Any],
    current: Any,
    mine: dict[str, Any] | None,
    force: bool,
    others: str | None,
) -> FileAction:
    """The action for ``server`` (the entry install renders) at ``path``
    (``.mcp.json#<name>``). ``current``: the entry there now (None: none); ``mine``: the
    entry the record says an earlier install of this component wrote there; ``others``:
    why it is refused when another recorded component wrote ``current`` exactly."""
    if current is None:
        return FileAction(path, "create", mcp_entry=server)
    if current == server:
        return FileAction(path, "unchanged", mcp_entry=server)
    set_here = filled_in(server, current)
    if set_here:
        return FileAction(path, "unchanged", values_note(set_here), mcp_entry=server, mcp_values=current)
    if mine is not None and filled_in(mine, current) is not None:
        values, kept, dropped = carried(server, current, mine)
        why = "updates what an earlier install of it wrote"
        why += f" ({values_note(kept)})" if kept else ""
        if dropped:
            why += f"; the new version no longer asks for {', '.join(dropped)}: the value you set goes"
        return FileAction(path, "overwrite", why, mcp_entry=server, mcp_values=values if kept else None)
    if others is not None:
        return FileAction(path, "refused", others, mcp_entry=server)
    if force:
        return FileAction(path, "overwrite", mcp_entry=server)
    why = f"server {path.split('#', 1)[1]!r} is configured differently; force replaces it"
    return FileAction(path, "blocked", why, mcp_entry=server)


def values_note(labels: list[str]) -> str:
    """``keeping the value you set for env KEY`` (uninstall's report says it alike)."""
    return f"keeping the value{'s' if len(labels) > 1 else ''} you set for {', '.join(labels)}"

