"""Where each kind of component goes under a root (a project, or the home folder): ONE
table, read both to write a component and to find what a root already holds.

::

    .claude/skills/<name>/SKILL.md   a skill, plus every other file of its folder
    .claude/agents/<name>.md         an agent
    .claude/commands/[<folder>/]<name>.md   a slash command, in its folders below commands/
    .claude/settings.json  "hooks"   a hook's entries, merged by event and matcher; the
    .claude/hooks/<script>           scripts they run, copied beside
    .mcp.json  "mcpServers"          an MCP server, merged by `server_key` of its name
                                     (project scope only)
    .claude/.skill-retriever/installed.json   what each install added (for uninstall)
    .claude/.skill-retriever/backups/<path>   a user's file that ``force`` replaced

``<name>`` is `destination_name` of the component's name; a skill's is the folder Claude
Code will call it by, its name when Claude Code takes that, else its source folder's
or a slug of its name (`skill_folder`); a command's ``{name}`` is its folders and its file's stem
(``git/commit``: `command_folders`). A hook has no file of its own
(Claude Code reads hooks from ``settings.json`` only), so installed hooks are known from
the install record. A user install into ``$CLAUDE_CONFIG_DIR`` has that folder as its
root, and ``.claude/`` stands for it (`claude_folder`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from skill_retriever.components.install.claude_folder import CLAUDE_DIR, on_disk
from skill_retriever.components.install.paths import fold
from skill_retriever.model import NodeKind

__all__ = [
    "BACKUP_DIR",
    "CLAUDE_DIR",
    "HOOK_SCRIPTS_DIR",
    "LAYOUT",
    "MCP_FILE",
    "RECORD_FILE",
    "RECORD_IGNORE",
    "RECORD_IGNORE_TEXT",
    "SETTINGS_FILE",
    "Place",
    "place_of",
    "reserved_reason",
    "scan_files",
]

MCP_FILE = ".mcp.json"
SETTINGS_FILE = f"{CLAUDE_DIR}/settings.json"
HOOK_SCRIPTS_DIR = f"{CLAUDE_DIR}/hooks"
RECORD_FILE = f"{CLAUDE_DIR}/.skill-retriever/installed.json"
#: Where ``force`` keeps what it replaced (a user's own file), by its path under the root.
BACKUP_DIR = f"{CLAUDE_DIR}/.skill-retriever/backups"
#: Keeps the record and the backups out of git: they may hold the text of a git-ignored
#: ``.mcp.json`` (its servers' keys) and of files ``force`` replaced, and they describe
#: this checkout only.
RECORD_IGNORE = f"{CLAUDE_DIR}/.skill-retriever/.gitignore"
RECORD_IGNORE_TEXT = (
    "# skill-retriever's install record and backups: local to this checkout, and they may\n"
    "# hold copies of your .mcp.json and of files install --force replaced\n*\n"
)
#: Files no component may ship as a file of its own, whatever its ``supportingFiles``
#: say: the settings Claude Code reads (hooks, permissions: a file there would replace
#: the user's, merged entries and all), its MCP configuration, and this tool's record and
#: backups (a file there would forge what uninstall removes or restores). Compared
#: without case, as macOS and Windows compare them.
_RESERVED_FILES = {
    SETTINGS_FILE: "Claude Code's settings (hooks are merged into it, never copied over it)",
    f"{CLAUDE_DIR}/settings.local.json": "Claude Code's local settings",
    MCP_FILE: "the project's MCP servers (servers are merged into it, never copied over it)",
    ".claude.json": "Claude Code's user configuration",
}
_RESERVED_FOLDER = f"{CLAUDE_DIR}/.skill-retriever/"


@dataclass(frozen=True)
class Place:
    """Where one kind goes.

    Attributes:
        pattern: The component's main path with ``{name}`` in it, or, for an entry of a
            shared JSON file, ``<file>#<key>`` (``.mcp.json#{name}``: the server entry).
        folder: The folder its files go below (kept when uninstalling empties it).
    """

    pattern: str
    folder: str

    def path(self, name: str) -> str:
        return self.pattern.format(name=name)

    @property
    def shared_file(self) -> str | None:
        """The JSON file the component is an entry of (None: it has its own file)."""
        return self.pattern.split("#", 1)[0] if "#" in self.pattern else None


LAYOUT: Mapping[NodeKind, Place] = {
    NodeKind.SKILL: Place(f"{CLAUDE_DIR}/skills/{{name}}/SKILL.md", f"{CLAUDE_DIR}/skills"),
    NodeKind.AGENT: Place(f"{CLAUDE_DIR}/agents/{{name}}.md", f"{CLAUDE_DIR}/agents"),
    # ``{name}`` may hold folders (``git/commit``): Claude Code reads commands in subfolders,
    # named by the file, labelled by the folder (`command_folders`).
    NodeKind.COMMAND: Place(f"{CLAUDE_DIR}/commands/{{name}}.md", f"{CLAUDE_DIR}/commands"),
    NodeKind.HOOK: Place(f"{SETTINGS_FILE}#hooks", HOOK_SCRIPTS_DIR),
    NodeKind.MCP_SERVER: Place(f"{MCP_FILE}#{{name}}", ""),
}

#: Folders that uninstalling never removes, even when it leaves them empty.
KEPT_FOLDERS = frozenset({CLAUDE_DIR, *(p.folder for p in LAYOUT.values() if p.folder)})


def reserved_reason(rel: str) -> str | None:
    """Why a component may not write the file ``rel`` (a path under the root), or None."""
    key = fold(rel)
    for path, what in _RESERVED_FILES.items():
        if key == fold(path):
            return f"{rel} is {what}; a component may not ship a file there"
    if key.startswith(fold(_RESERVED_FOLDER)):
        return f"{rel} is in skill-retriever's own folder (its install record and backups); a component may not ship a file there"
    return None


def place_of(kind: NodeKind) -> Place | None:
    """Where ``kind`` goes; None for a kind with no place (documents, plugins, ...)."""
    return LAYOUT.get(kind)


def scan_files(root: Path) -> Iterator[tuple[NodeKind, str, Path]]:
    """``(kind, name, file)`` for every component file the table's own-file patterns find
    under ``root``: the name is the part ``{name}`` stands for."""
    for kind, place in LAYOUT.items():
        if place.shared_file is not None:
            continue
        head, tail = place.pattern.split("{name}", 1)
        base = on_disk(root, head)  # the Claude folder may be $CLAUDE_CONFIG_DIR itself
        if not base.is_dir():
            continue
        if "/" in tail:  # a folder per component: <base>/<name>/SKILL.md
            found = ((p, p.parent.name) for p in base.glob(f"*{tail}"))
        else:  # a file per component, also in sub-folders (namespaced commands)
            found = ((p, p.name[: -len(tail)]) for p in base.rglob(f"*{tail}"))
        for path, name in sorted(found):
            if path.is_file():
                yield kind, name, path
