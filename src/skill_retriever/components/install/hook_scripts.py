"""The hook commands of a ``settings.json``, and which installed files they run.

Uninstall keeps an installed file that a hook left in ``settings.json`` still runs,
whatever else it takes back: the hook may be the user's own, or one an install added and
the user changed since (the user's now, so it stays). A hook whose script is gone fails
each time it fires, and a PreToolUse hook failing with exit 2 (``python3`` on a missing
file exits 2) blocks the tool call it guards: every Bash call, for a secret scanner.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from skill_retriever.ingest.hook_commands import command_line
from skill_retriever.ingest.shell_paths import escaped

__all__ = ["hook_commands", "run_by", "runs"]


def hook_commands(hooks: Mapping[str, Any]) -> list[str]:
    """Every command line of a ``hooks`` mapping (an exec-form hook's with its ``args``:
    `command_line`), whatever its shape (`render_hook` checks the shape of what it
    installs; a user's file may hold anything)."""
    found = []
    for groups in hooks.values():
        for group in groups if isinstance(groups, list) else [groups]:
            inner = group.get("hooks") if isinstance(group, Mapping) else None
            for hook in inner if isinstance(inner, list) else []:
                line = command_line(hook) if isinstance(hook, Mapping) else None
                if line is not None:
                    found.append(line)
    return found


def runs(rel: str, command: str) -> bool:
    """Whether ``command`` names the installed file ``rel`` (``.claude/hooks/x.py``) in any
    of the forms an installed command points at it: ``.claude/hooks/x.py``, after
    ``"$CLAUDE_PROJECT_DIR"/`` or ``"$HOME"/``, or ``hooks/x.py`` under a config folder.
    The name must stand whole: ``myhooks/x.py`` or ``hooks/x.pyc`` is another file. A
    name with a blank counts as written in quotes or with the blank escaped
    (``hooks/scan\\ staged.py``)."""
    tail = rel.removeprefix(".claude/")
    forms = "|".join(re.escape(f) for f in dict.fromkeys([tail, escaped(tail, "")]))
    return re.search(rf"(?<![\w.+-])(?:{forms})(?![\w.+-])", command) is not None


def run_by(rel: str, commands: Iterable[str]) -> str | None:
    """The first of ``commands`` that runs ``rel``, or None."""
    return next((c for c in commands if runs(rel, c)), None)
