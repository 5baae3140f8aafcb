"""What Claude Code will not read well in a skill's or agent's frontmatter: plan notes.

Claude Code documents the frontmatter it reads:

- a skill's ``SKILL.md``: ``name`` (lowercase letters, digits and hyphens, at most 64
  characters) and ``description`` (what it does and when to use it, at most 1024
  characters), both required: Claude Code picks a skill by its description;
- an agent's ``.md``: ``name`` (lowercase letters and hyphens; digits are accepted too)
  and ``description``, both required.

A file is installed as its author wrote it (the file is theirs to fix); the plan says what
Claude Code expects instead, so a skill that will never be picked is not a surprise.
Commands take their name from the file name and need no frontmatter: nothing is checked.
A file of any of the three that names paths by ``${CLAUDE_PLUGIN_ROOT}`` (set only inside
its plugin) gets a note too.
"""

from __future__ import annotations

import re

from skill_retriever.components.install.plugin_root import PLUGIN_VAR_RE
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.model import NodeKind

__all__ = ["claude_code_notes"]

_NAME_RE = re.compile(r"^[a-z0-9-]+$")
MAX_NAME = 64
MAX_DESCRIPTION = 1024


def claude_code_notes(kind: NodeKind, data: bytes) -> list[str]:
    """Notes on a skill's, agent's or command's file as it will be written: its
    frontmatter (skills and agents), and any ``${CLAUDE_PLUGIN_ROOT}`` in it, which names
    the plugin's folder and is set only inside the plugin."""
    notes = []
    if PLUGIN_VAR_RE.search(data.decode("utf-8", "replace")):
        notes.append(
            "its text names files by ${CLAUDE_PLUGIN_ROOT}, which is set only inside its "
            "plugin: outside it those paths lead nowhere (install the plugin with /plugin "
            "install, or copy the files and edit the paths)"
        )
    if kind not in (NodeKind.SKILL, NodeKind.AGENT):
        return notes
    try:
        fields = parse_frontmatter(data.decode("utf-8", "replace")).fields
    except FrontmatterError:
        return notes  # the index's reading says so already (`_frontmatter_note`)
    what = "a skill" if kind is NodeKind.SKILL else "an agent"
    name, description = fields.get("name"), fields.get("description")
    if not isinstance(name, str) or not name.strip():
        notes.append(f"its frontmatter has no name, which Claude Code requires of {what}")
    elif not _NAME_RE.match(name) or len(name) > MAX_NAME:
        notes.append(
            f"its name {name!r:.80} is not one Claude Code accepts for {what} (lowercase "
            f"letters, digits and hyphens, at most {MAX_NAME} characters): set its "
            "frontmatter name to one"
        )
    if not isinstance(description, str) or not description.strip():
        notes.append(
            f"its frontmatter has no description, which Claude Code requires of {what} "
            "(it decides from it when to use it)"
        )
    elif kind is NodeKind.SKILL and len(description) > MAX_DESCRIPTION:
        notes.append(
            f"its description is {len(description)} characters, over the {MAX_DESCRIPTION} "
            "Claude Code reads of a skill's"
        )
    return notes
