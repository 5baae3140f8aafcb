"""What a command hook runs, read the same way by the hook reader (`hook_configs`) and
by the installer (`components.install`): the command line (`command_line`) and the
suffixes that name a script (`SCRIPT_EXTENSIONS`).

Its own module, without the secret redaction and YAML reading `hook_configs` imports:
``install`` and ``uninstall`` read commands from the install record and the hook's own
file, and start without those (tests/test_cold_start.py).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

__all__ = ["SCRIPT_EXTENSIONS", "SCRIPT_SUFFIX_PATTERN", "command_line", "text_list"]

#: What a command word must end with to name a script (a bare one: beside the hook) (``check.py``;
#: not ``python3``, ``echo`` or a data file).
SCRIPT_EXTENSIONS = frozenset({".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl"})
#: `SCRIPT_EXTENSIONS` as a regular expression's alternation (``sh|bash|...``), for the
#: installer's checks of the same commands (`install.render_hook`).
SCRIPT_SUFFIX_PATTERN = "|".join(sorted(e[1:] for e in SCRIPT_EXTENSIONS))


def text_list(value: Any) -> bool:
    """Whether ``value`` is a list of strings (an exec-form hook's ``args``)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def command_line(hook: Mapping[str, Any]) -> str | None:
    """What a command hook runs, on one line: its ``command``, followed by its exec-form
    ``args`` quoted as a shell would read them (Claude Code spawns ``command`` with them,
    no shell); None for a hook without a command."""
    command = hook.get("command")
    if not isinstance(command, str):
        return None
    args = hook.get("args")
    return f"{command} {shlex.join(args)}" if text_list(args) and args else command
