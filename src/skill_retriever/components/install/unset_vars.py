"""Environment variables a hook's command reads that Claude Code never sets.

Claude Code hands a command hook its event as JSON on stdin (an Edit's file is
``tool_input.file_path``) and sets only a few variables: ``CLAUDE_PROJECT_DIR``, a
plugin's ``CLAUDE_PLUGIN_ROOT`` and ``CLAUDE_PLUGIN_DATA``, SessionStart's
``CLAUDE_ENV_FILE`` (https://code.claude.com/docs/en/hooks). Catalogues ship hooks that read
``$CLAUDE_TOOL_FILE_PATH``, ``$CLAUDE_TOOL_NAME`` or ``$CLAUDE_FILE_PATHS`` (19 of
davila7/claude-code-templates' 62 hooks), which are never set
(https://github.com/anthropics/claude-code/issues/5489, /23742): such a hook runs and finds
them empty, so a formatter formats nothing, without an error. The plan says so; the hook
is written as its author wrote it (what they meant is theirs to fix).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["unset_vars_note"]

#: ``$CLAUDE_TOOL_*`` (any) and ``$CLAUDE_FILE_PATHS``, bare or braced.
_NEVER_SET = re.compile(r"\$\{?(CLAUDE_TOOL_[A-Z0-9_]+|CLAUDE_FILE_PATHS)\b")


#: Where the hook's stdin JSON holds what each variable was meant to give (Claude Code's
#: hooks reference: ``tool_name``, ``tool_input``, PostToolUse's ``tool_response``).
_ON_STDIN = {
    "CLAUDE_TOOL_NAME": "jq -r .tool_name",
    "CLAUDE_TOOL_FILE_PATH": "jq -r .tool_input.file_path",
    "CLAUDE_FILE_PATHS": "jq -r .tool_input.file_path",
    "CLAUDE_TOOL_INPUT": "jq -c .tool_input",
    "CLAUDE_TOOL_OUTPUT": "jq -c .tool_response",
    "CLAUDE_TOOL_RESPONSE": "jq -c .tool_response",
}


def unset_vars_note(commands: Iterable[str]) -> str | None:
    """The plan's note on the variables ``commands`` read that Claude Code never sets
    (None when they read none), with where stdin's JSON holds each (QA found the note
    offering ``.tool_input.file_path`` for ``$CLAUDE_TOOL_NAME``)."""
    found = list(dict.fromkeys(m[1] for c in commands for m in _NEVER_SET.finditer(c)))
    if not found:
        return None
    named = ", ".join(f"${v}" for v in found)
    reads = "; ".join(f"{_ON_STDIN[v]} for ${v}" for v in found if v in _ON_STDIN)
    return (
        f"its command reads {named}, which Claude Code does not set: a hook gets the tool call as "
        f"JSON on stdin{f' ({reads})' if reads else ''}, so as written it finds "
        f"{'that' if len(found) == 1 else 'those'} empty; edit the command to read stdin"
    )
