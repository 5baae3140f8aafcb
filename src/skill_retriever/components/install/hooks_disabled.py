"""A target whose settings turn every hook off: ``"disableAllHooks": true``.

Claude Code runs no hook at all while a settings file in force sets ``disableAllHooks``
(the settings reference; the project's ``.claude/settings.local.json`` over its
``.claude/settings.json``, as settings of one key are read). An install that adds a hook
there writes one that never runs, and says "add hook" as if it would: the plan notes on
each hook component which file turns hooks off, and what to change. Only the files
install reads are judged (a user install: ``~/.claude/settings.json``; a project: its
two files), not a managed policy or the user file a project install does not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["disabled_by", "disabled_note"]


def disabled_by(files: Mapping[str, Mapping[str, Any] | None]) -> str | None:
    """The file of ``files`` (name -> its JSON object, None when unread; the one read last
    first, as it decides) whose ``disableAllHooks`` is in force and true; None when
    none turns hooks off."""
    for name, data in files.items():
        if data is not None and "disableAllHooks" in data:
            return name if data["disableAllHooks"] is True else None
    return None


def disabled_note(file: str) -> str:
    """What the plan says of a hook installed where ``file`` turns every hook off."""
    return (
        f'{file} sets "disableAllHooks": true, so Claude Code runs no hook, this one included: '
        "remove that key (or set it to false) for it to run"
    )
