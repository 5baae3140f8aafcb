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
    def rule(self) -> str:
        """The hook's ``if`` rule on one line (``Bash(git push *-f*)``); '' for none."""
        rule = self.hook.get("if")
        return " ".join(rule.split()) if isinstance(rule, str) else ""

    @property
    def group(self) -> str:
        """``hooks.<Event>[<matcher>]``: the group the hook is in (the key hooks had
        before `where` named the rule, which records of then may still hold)."""
        return f"hooks.{self.event}[{self.matcher or ''}]"

    @property
    def where(self) -> str:
        """The hook's key in plans and reports: its `group`, with `` if <rule>`` where it
        has an ``if`` rule (``hooks.PreToolUse[Bash] if Bash(rm *)``). Two hooks of one
        group that the rule alone tells apart had one key, so a report said one of them
        twice and could not say which was kept."""
        return self.group + (f" if {self.rule}" if self.rule else "")

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.event, "matcher": self.matcher, "hook": dict(self.hook)}
