"""The root an install writes into (or an uninstall reads), whether it may be made, and
whether the folders a change touches may be written (`check_writable`).

Kept apart from planning and writing because both ends of an install share it: `planner`
resolves the root when it plans, `apply` checks it again right before the first write,
and `uninstall` resolves the same root (which must then exist). The rule: a target
project folder or the home folder (``user``), never both; an empty target, one inside a
``.claude`` folder, and the home folder itself without ``user`` are refused; a root that does not exist yet may be made only right inside an existing folder. A
path the OS cannot take (a NUL byte, a name too long) is refused the same way, in one
line, wherever it comes from (the CLI, the Python API, an MCP tool).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from skill_retriever.components.install.layout import CLAUDE_DIR
from skill_retriever.components.install.plan import InstallError, Scope

__all__ = [
    "GIVE_FOLDER",
    "check_creatable",
    "check_writable",
    "existing_folder",
    "install_root",
]


def install_root(
    target: str | Path | None,
    user: bool,
    home: str | Path | None,
    *,
    must_exist: bool = False,
) -> tuple[Path, Scope]:
    """The root to write into and its scope.

    An empty target is refused: it would mean the working folder of whoever runs the
    install (an MCP server's, say). Whether a missing root may be made is checked when
    writing (`check_creatable`): a plan of a folder yet to be made writes nothing.

    Args:
        must_exist: The root itself must exist (uninstalling).

    Raises:
        InstallError: Neither or both of a target and ``user`` were given, the target is
            empty, a file or (to install into) inside a ``.claude`` folder, or (with
            ``must_exist``) the folder is missing.
    """
    if user == (target is not None):
        raise InstallError(
            "give either a target project folder or user=True (--user), not both or neither"
        )
    if not user and not str(target).strip():
        raise InstallError("the target folder is empty; give the project folder to install into")
    root = (
        Path(home).expanduser()
        if user and home is not None
        else Path.home()
        if user
        else Path(str(target))
    )
    root = _usable(root.expanduser().absolute(), str(target) if target is not None else str(root))
    if root.exists() and not root.is_dir():
        raise InstallError(f"target {root} is a file; give the project folder to install into")
    if not user and not must_exist:
        _outside_claude(root)
        _not_home(root)
    if not root.exists() and must_exist:
        what = "home folder" if user else "target folder"
        raise InstallError(f"{what} {root} does not exist; nothing is installed there")
    return root, "user" if user else "project"


def _not_home(root: Path) -> None:
    """A project install into the home folder would write Claude Code's user settings:
    its hooks would run in every project, naming scripts by ``$CLAUDE_PROJECT_DIR``.

    Raises:
        InstallError: ``root`` is the home folder.
    """
    try:
        home = Path.home().resolve()
    except (OSError, RuntimeError):  # no home folder known: nothing to mix up
        return
    if root.resolve() == home:
        raise InstallError(
            f"target {root} is your home folder, whose .claude holds Claude Code's user "
            "settings: a project install there would run its hooks in every project, from "
            "paths only the project has; install with --user (user=True) for that, or give "
            "a project folder"
        )


def _outside_claude(root: Path) -> None:
    """Refuse a project root inside a ``.claude`` folder: Claude Code reads the project's
    ``.claude/`` only, so an install there (``proj/.claude/.claude/skills/...``) would be
    written, reported as done and never read. Uninstalling is not refused, so what an
    older install put there can still be taken back.

    Raises:
        InstallError: A part of ``root`` is named ``.claude``.
    """
    parts = root.parts
    if CLAUDE_DIR not in parts:
        return
    project = Path(*parts[: parts.index(CLAUDE_DIR)])
    raise InstallError(
        f"target {root} is inside a {CLAUDE_DIR} folder, which Claude Code would not read "
        f"installs from; give the project folder that holds it ({project}), or --user for "
        f"~/{CLAUDE_DIR}; nothing written"
    )


def check_creatable(root: Path, scope: Scope) -> None:
    """Refuse to write into ``root`` unless it is a folder, or a new one right inside an
    existing folder: an install makes at most that one folder (a new project, the home
    of a fresh account), never a chain of them, so a mistyped path (``/nonexistent/dir``)
    creates nothing.

    Raises:
        InstallError: Neither ``root`` nor its parent folder exists.
    """
    if root.is_dir() or root.parent.is_dir():
        return
    what = "home folder" if scope == "user" else "target folder"
    raise InstallError(
        f"{what} {root} does not exist, nor does {root.parent}; check the path (an install "
        "creates at most the folder itself, inside an existing one); nothing written"
    )


def check_writable(root: Path, rels: Iterable[str], then: str) -> None:
    """Refuse before changing anything when a folder a file of ``rels`` (relative to
    ``root``) would be written into or removed from, or the nearest one there when it is
    yet to be made, cannot be written: failing half-way would leave files the install
    record does not list, or a record listing files already gone. ``then`` ends the
    message: what else the user may do, and that nothing was changed.

    Raises:
        InstallError: Such a folder is not writable.
    """
    for rel in sorted(rels):
        folder = (root / rel).parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
            raise InstallError(
                f"cannot write into {folder} (permission denied); make it writable "
                f"(chmod u+w) {then}"
            )


#: What a caller is told to do about a bad target (the MCP tools say it their own way).
GIVE_FOLDER = "give the project folder's path"


def existing_folder(target: str | Path, *, may_create: bool = False, fix: str = GIVE_FOLDER) -> Path:
    """``target`` as an absolute path, once it names an existing folder (with
    ``may_create``, for an install: or one yet to be made right inside an existing
    folder, as `check_creatable` allows). What a search that reports conflicts with a
    project's installed components reads: a mistyped folder must not pass for "nothing
    installed there". ``fix`` ends each message: what the caller should do.

    Raises:
        InstallError: ``target`` is empty, unusable as a path, or not such a folder.
    """
    if not str(target).strip():
        raise InstallError(f"the target folder is empty; {fix}")
    root = _usable(Path(str(target)).expanduser().absolute(), str(target), fix)
    if root.is_dir() or (may_create and not root.exists() and root.parent.is_dir()):
        return root
    raise InstallError(f"target {_shown(str(target))!r} is not an existing folder; {fix}")


def _usable(root: Path, given: str, fix: str = GIVE_FOLDER) -> Path:
    """``root``, once the OS can look it up: a NUL byte or a name too long would fail
    later, half-way through writing, with the OS's own words.

    Raises:
        InstallError: The path cannot be looked up.
    """
    if "\x00" in str(root):
        raise InstallError(f"target {_shown(given)!r} is not a usable path (a NUL character); {fix}")
    try:
        root.exists()
    except OSError as exc:  # ENAMETOOLONG and the like; the message repeats the path
        raise InstallError(
            f"target {_shown(given)!r} is not a usable path ({exc.strerror or type(exc).__name__}); {fix}"
        ) from exc
    return root


def _shown(path: str) -> str:
    """A path short enough to quote in a one-line message."""
    return path if len(path) <= 200 else path[:200] + "..."
