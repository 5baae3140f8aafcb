"""One hook of a ``settings.json`` (`plan` re-exports it: it was defined there first)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["HookEntry"]


@dataclass(frozen=True)
class HookEntry:
    """One hook of a ``settings.json`` ``hooks`` mapping: its event, its group's matcher
    (None: the group has none) and the hook object itself (``{"type": "command", ...}``)."""

    event: str
    matcher: str | None
    hook: Mapping[str, Any]

    @property
    def where(self) -> str:
        """``settings.json#hooks.<Event>[<matcher>]``-style label for plans."""
        return f"hooks.{self.event}[{self.matcher or ''}]"

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.event, "matcher": self.matcher, "hook": dict(self.hook)}
