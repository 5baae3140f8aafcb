"""The Claude folder of a root: where the layout's ``.claude/...`` paths lie on disk.

Every path an install plans, records and reports is relative to its root and names
Claude Code's folder ``.claude`` (`layout`): ``<project>/.claude`` for a project, and
``~/.claude`` for a user install. Claude Code reads the user's own folder from
``$CLAUDE_CONFIG_DIR`` instead when that is set; a user install then has that folder as
its root (`target.install_root`), and its ``.claude/...`` paths lie right in it
(``.claude/skills/x/SKILL.md`` -> ``$CLAUDE_CONFIG_DIR/skills/x/SKILL.md``). So the
plan, the record and the reports keep one shape whatever the folder, and only the step
from a path to the disk (`on_disk`, `safe_destination`) and back (`layout_rel`) differs.

A root is that folder when it is ``$CLAUDE_CONFIG_DIR`` (an absolute path, other than
``~/.claude``): a project install there is refused (`target`), so no project root is
mistaken for it.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "CLAUDE_DIR",
    "CONFIG_DIR_VAR",
    "claude_folder",
    "config_dir",
    "config_root",
    "home_folder",
    "layout_rel",
    "linked_claude",
    "on_disk",
    "same_folder",
    "shown_root",
]

CLAUDE_DIR = ".claude"
#: Where Claude Code reads the user's settings when set, instead of ``~/.claude``.
CONFIG_DIR_VAR = "CLAUDE_CONFIG_DIR"


def config_dir() -> Path | None:
    """``$CLAUDE_CONFIG_DIR`` when it is an absolute path, else None (unset, or a value
    a ``--user`` install refuses: `target`). ``~`` is not expanded: Claude Code reads the
    value as it is."""
    value = os.environ.get(CONFIG_DIR_VAR, "")
    return Path(value) if os.path.isabs(value) else None


def home_folder() -> Path | None:
    """The home folder, or None when ``$HOME`` is set but empty or relative (or no home
    folder is known at all)."""
    env = os.environ.get("HOME")
    if env is not None and not os.path.isabs(env):
        return None
    try:
        return Path.home()
    except (OSError, RuntimeError):
        return None


def same_folder(a: Path, b: Path) -> bool:
    """``a`` and ``b`` are one folder once links are resolved."""
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):
        return a == b


def config_root(root: Path) -> Path | None:
    """``root`` when it is Claude Code's user folder named by ``$CLAUDE_CONFIG_DIR``, other
    than ``~/.claude`` (the root of a user install there), else None."""
    config = config_dir()
    if config is None or not same_folder(root, config):
        return None
    home = home_folder()
    if home is not None and same_folder(config, home / CLAUDE_DIR):
        return None  # the usual folder: its root is the home folder
    return root


def on_disk(root: Path, rel: str) -> Path:
    """Where the layout path ``rel`` (relative to ``root``, POSIX; a folder may end in
    ``/``) lies: below ``root``, its ``.claude`` part dropped when ``root`` is the Claude
    folder itself (`config_root`). Checks nothing (`paths.safe_destination` does)."""
    parts = [p for p in rel.split("/") if p]
    if parts and parts[0] == CLAUDE_DIR and config_root(root) is not None:
        parts = parts[1:]
    return root.joinpath(*parts)


def layout_rel(root: Path, path: Path) -> str:
    """The layout path of ``path``, a file or folder below ``root`` (`on_disk` undone).

    Raises:
        ValueError: ``path`` is not below ``root``.
    """
    rel = path.relative_to(root).as_posix()
    if config_root(root) is None:
        return rel
    return CLAUDE_DIR if rel == "." else f"{CLAUDE_DIR}/{rel}"


def claude_folder(root: Path) -> Path:
    """The folder ``root``'s ``.claude/...`` paths lie in."""
    return on_disk(root, CLAUDE_DIR)


def linked_claude(root: Path) -> Path | None:
    """Where ``root``'s ``.claude`` leads when it is a symbolic link (dotfiles keep
    ``~/.claude`` in a repository, or projects share one folder), resolved as far as it
    goes (a link to nothing: where it points); None when it is no link (a folder, nothing
    yet, or the root itself: ``$CLAUDE_CONFIG_DIR``) or a link loop. Claude Code follows
    it, so an install follows it too (`paths.safe_destination`); what it may not lead to
    is refused before anything is written (`target.check_writable`)."""
    claude = claude_folder(root)
    if claude == root or not claude.is_symlink():
        return None
    try:
        return claude.resolve()
    except (OSError, RuntimeError):  # a loop: refused by name where it is written into
        return None


def shown_root(root: Path) -> str:
    """``root`` as a report's ``target:`` line names it, saying so when it is Claude Code's
    user folder ``$CLAUDE_CONFIG_DIR`` (the report's paths still read ``.claude/...``), or
    when its ``.claude`` is a link to another folder (the files go there)."""
    linked = linked_claude(root)
    if linked is not None:  # said once: every path below reads .claude/... all the same
        where = f": its {CLAUDE_DIR}/... paths lie there" if linked.is_dir() else ", which is no folder"
        return f"{root} ({CLAUDE_DIR} is a link to {linked}{where})"
    if config_root(root) is None:
        return str(root)
    return f"{root} (${CONFIG_DIR_VAR}, Claude Code's user folder: .claude/ below stands for it)"
