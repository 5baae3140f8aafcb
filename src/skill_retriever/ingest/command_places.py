"""Where a slash command sits below its ``commands/`` folder: its namespace and its name.

Claude Code reads commands from ``.claude/commands/`` (project) and ``~/.claude/commands/``
(user), subfolders included: ``commands/frontend/component.md`` is the command
``/component``, shown in /help as "(project:frontend)". Its name is the file's name
without ``.md``, never a frontmatter ``name``; the folders between ``commands/`` and the
file are its namespace (organisation, and the label in /help). So every command read from
a file records both (`command_place`):

- ``attrs["command_namespace"]``: those folders, ``/``-joined (``""`` directly in
  ``commands/``, ``"git"``, ``"a/b"``);
- ``attrs["command_stem"]``: the file's name without ``.md``, what Claude Code will call it
  (a frontmatter ``name: trailofbits:ct-check`` stays the node's name, for search, but
  the command is ``/ct-check``).

Install writes the command at ``.claude/commands/<namespace>/<stem>.md``. A plugin's
command gets the plugin's name as the first folder of its namespace (`in_plugin`). An
index built before these were recorded has neither: its commands install flat, under
their node name, as they did.

Each folder name must be one install can write as a file name: `name_problem`, the rule
of install's ``destination_name`` (kept here, in ingest, so that reading a catalogue does
not import the installer, which imports ingest). A folder that breaks it is left out of
the namespace, with a note: the command installs one folder up, never at a path made
of that name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from skill_retriever.ingest.result import Note

__all__ = ["COMMANDS_FOLDER", "SLUG_RE", "command_place", "in_plugin", "name_problem"]

COMMANDS_FOLDER = "commands"
#: Runs of characters a file name is not given: all but letters, digits, ``.``, ``_``, ``-``.
SLUG_RE = re.compile(r"[^\w.-]+")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a file or folder name install writes, or None.

    A path separator, a NUL or ``..`` anywhere is refused (it could lead out of the
    folder), and so is a name of which nothing usable is left once runs of other
    characters than letters, digits, ``.``, ``_`` and ``-`` are dropped.
    """
    if "\x00" in name:
        return "holds a NUL character"
    if "/" in name or "\\" in name or ".." in name:
        return "holds a path separator or '..'"
    if not SLUG_RE.sub("-", name.strip()).strip("-."):
        return "gives no usable file name"
    return None


def command_place(folders: Sequence[str], stem: str) -> tuple[dict[str, str], list[Note]]:
    """The attrs that place a command file (see the module), and notes on folders left out.

    Args:
        folders: The folder names above the file, outermost first; the namespace is what
            follows the last one named ``commands``.
        stem: The file's name without ``.md``.
    """
    parts = list(folders)
    below: list[str] = []
    if COMMANDS_FOLDER in parts:  # the nearest one, as the kind is the nearest kind folder's
        below = parts[len(parts) - parts[::-1].index(COMMANDS_FOLDER) :]
    kept: list[str] = []
    notes: list[Note] = []
    for part in below:
        why = name_problem(part)
        if why is None:
            kept.append(part)
        else:
            notes.append(
                Note(
                    f"its folder {part!r:.80} below commands/ {why}: it is left out of the "
                    "command's namespace, and installing puts the command one folder up; "
                    "rename the folder to keep it"
                )
            )
    return {"command_namespace": "/".join(kept), "command_stem": stem}, notes


def in_plugin(namespace: str, plugin: str) -> tuple[str, str | None]:
    """A plugin member's namespace with the plugin's name in front, or it unchanged and why.

    Inside its plugin a command is ``/<plugin>:<command>``; copied out of the plugin into
    ``.claude/commands`` there is no plugin to name it, and Claude Code calls it
    ``/<command>`` wherever it lies. The plugin's name as its folder keeps what the
    prefix did: /help labels it "(project:<plugin>)", and two plugins that both ship a
    ``commands/setup.md`` (as wshobson/agents' do) install two files, not one clash.
    """
    why = name_problem(plugin)
    if why is not None:
        return namespace, (
            f"plugin name {plugin!r:.80} {why}: its commands install without a folder of "
            "its name"
        )
    return (f"{plugin}/{namespace}" if namespace else plugin), None
