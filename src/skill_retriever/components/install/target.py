"""The root an install writes into (or an uninstall reads), whether it may be made, and
whether the folders a change touches may be written (`check_writable`).

Kept apart from planning and writing because both ends of an install share it: `planner`
resolves the root when it plans, `apply` checks it again right before the first write,
and `uninstall` resolves the same root (which must then exist). The rule: a target
project folder or the user's (``user``), never both. The user's is the home folder, whose
``.claude`` Claude Code reads, or the folder ``$CLAUDE_CONFIG_DIR`` names instead when set
(`_user_root`: the root is then that folder itself, `claude_folder`). An empty target, one
inside a ``.claude`` folder, ``$CLAUDE_CONFIG_DIR`` itself, the home folder (or the one
holding a ``$CLAUDE_CONFIG_DIR`` named ``.claude``), the filesystem root and any folder
holding the home folder (`_above_home`) without ``user`` are refused, and so is
``user`` with ``$HOME`` empty or relative (it would mean ``/`` or the working folder) or
with ``$CLAUDE_CONFIG_DIR`` empty, relative, or the home folder (or one holding it); a
root that does not exist yet may be made only right inside an existing folder. A
path the OS cannot take (a NUL byte, a name too long) is refused the same way, in one
line, wherever it comes from (the CLI, the Python API, an MCP tool).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from skill_retriever.components.install.claude_folder import (
    CLAUDE_DIR,
    CONFIG_DIR_VAR,
    config_root,
    home_folder,
    on_disk,
    same_folder,
)
from skill_retriever.components.install.claude_link import claude_link_refusal
from skill_retriever.components.install.plan import InstallError, InstallPlan, Scope

__all__ = [
    "CONFIG_DIR_VAR",
    "GIVE_FOLDER",
    "TargetRefusedError",
    "check_creatable",
    "check_writable",
    "existing_folder",
    "install_root",
]


class TargetRefusedError(InstallError):
    """The target exists but cannot take this change now (a folder it cannot write, a file
    in the way of one, a ``.claude`` link leading nowhere): a refusal the user fixes in the
    target, as a dry run reports it (``refused``), not an error in what was asked (a
    target that does not exist is one: `check_creatable`). The CLI exits 1 on it, as on
    its dry run's ``refused:`` line.

    Attributes:
        plan: The plan refused, its ``refused`` saying why (set by `apply.install`), so
            that a real run's answer carries what its dry run's does; None when raised
            outside an install (an uninstall).
    """

    plan: InstallPlan | None = None


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
        InstallError: Neither or both of a target and ``user`` were given, the target
            (or ``home``) is empty, a file or (to install into) inside a ``.claude``
            folder, the user's folder is unknown (`_user_root`), or (with ``must_exist``)
            the folder is missing.
    """
    if user == (target is not None):
        raise InstallError(
            "give either a target project folder or user=True (--user), not both or neither"
        )
    if not user and not str(target).strip():
        raise InstallError("the target folder is empty; give the project folder to install into")
    if user and home is not None and not str(home).strip():
        raise InstallError("the home folder given is empty; give the home folder to install into")
    root = (
        Path(home).expanduser()
        if user and home is not None
        else _user_root()
        if user
        else Path(str(target))
    )
    root = _usable(root.expanduser().absolute(), str(target) if target is not None else str(root))
    if root.exists() and not root.is_dir():
        if user and config_root(root) is not None:
            raise InstallError(
                f"${CONFIG_DIR_VAR} is {root}, a file; point it at the folder Claude Code keeps "
                "your settings in (or unset it for ~/.claude); nothing written"
            )
        raise InstallError(f"target {root} is a file; give the project folder to install into")
    if not user and not must_exist:
        _outside_claude(root)
        _not_home(root)
    if not root.exists() and must_exist:
        raise InstallError(f"{_what(root, user)} {root} does not exist; nothing is installed there")
    return root, "user" if user else "project"


def _what(root: Path, user: bool) -> str:
    """What ``root`` is to the user, for a message."""
    if not user:
        return "target folder"
    return f"Claude Code's user folder (${CONFIG_DIR_VAR})" if config_root(root) else "home folder"


def _user_root() -> Path:
    """The root of a ``user`` install: the home folder, whose ``.claude`` Claude Code reads,
    or ``$CLAUDE_CONFIG_DIR`` when that names another folder (Claude Code then reads the
    user's skills, agents, commands and ``settings.json`` right in it).

    Raises:
        InstallError: ``$HOME`` is empty or relative (the user folder would be ``/`` or
            the working folder); ``$CLAUDE_CONFIG_DIR`` is set but empty, not absolute,
            or the home folder or one holding it (see `_config_dir_refusal`).
    """
    home = home_folder()
    if home is None:
        raise InstallError(
            f"$HOME is {os.environ.get('HOME', '')!r}, not an absolute path, so the home folder "
            "is unknown (--user would write into / or the working folder); set HOME to your "
            "home folder, or give the project folder to install into; nothing written"
        )
    value = os.environ.get(CONFIG_DIR_VAR)
    if value is None:
        return home
    if why := _config_dir_refusal(value, home):
        raise InstallError(f"${CONFIG_DIR_VAR} is {_shown(value)!r}: {why}; nothing written")
    config = Path(value)
    return home if same_folder(config, home / CLAUDE_DIR) else config


def _config_dir_refusal(value: str, home: Path) -> str:
    """Why a ``user`` install cannot take ``$CLAUDE_CONFIG_DIR`` = ``value`` as Claude
    Code's user folder, and what to do; '' when it can.

    An empty or relative value (``~`` too: no shell expands it in a variable's value)
    names a folder that depends on where Claude Code is started, not one place; the home
    folder, or one holding it, would get ``skills/``, ``settings.json``... strewn in it.
    """
    unset = f"or unset it for {home / CLAUDE_DIR}"
    if not value:
        return (
            "it is set but empty, so Claude Code's user folder is unclear; set it to that "
            f"folder's absolute path, {unset}"
        )
    if not os.path.isabs(value):
        return (
            "not an absolute path, so the folder it names depends on where Claude Code starts "
            f"(and on whether it expands ~); give an absolute path, such as "
            f"{home / '.config/claude'}, {unset}"
        )
    config = Path(value)
    if home.resolve().is_relative_to(config.resolve()):
        what = "your home folder" if same_folder(config, home) else "a folder holding it"
        return (
            f"{what}, so --user would write skills/, agents/, settings.json and hooks/ "
            f"straight into it; point it at a folder of its own (such as "
            f"{home / '.config/claude'}), {unset}"
        )
    return ""


def _config_dir() -> Path | None:
    """``$CLAUDE_CONFIG_DIR`` when set (made absolute against the working folder, as a
    process started there would read it), else None: what a project install must keep
    clear of, however the value is written."""
    config = os.environ.get(CONFIG_DIR_VAR, "")
    return Path(config).expanduser().absolute() if config.strip() else None


def _not_home(root: Path) -> None:
    """A project install into the home folder, or into the folder whose ``.claude`` is
    ``$CLAUDE_CONFIG_DIR``, would write Claude Code's user settings: its hooks would run
    in every project, naming scripts by ``$CLAUDE_PROJECT_DIR``. One into
    ``$CLAUDE_CONFIG_DIR`` itself would write where a user install writes (`claude_folder`).

    Raises:
        InstallError: ``root`` is one of those folders.
    """
    config = _config_dir()
    if config is not None and same_folder(root, config):
        raise InstallError(
            f"target {root} is ${CONFIG_DIR_VAR}, the folder Claude Code reads your user "
            "settings from, not a project: install for the user there (CLI --user, Python "
            "user=True), or give a project folder; nothing written"
        )
    user = config.parent if config is not None and config.name == CLAUDE_DIR else None
    home = home_folder()
    for folder, where in ((home, "your home folder"), (user, f"the folder of ${CONFIG_DIR_VAR}")):
        if folder is not None and same_folder(root, folder):
            raise InstallError(
                f"target {root} is {where}, whose .claude holds Claude Code's user "
                "settings: a project install there would run its hooks in every project, from "
                "paths only the project has; give a project folder (a user install, CLI --user or "
                "Python user=True, writes there; the MCP tool installs into projects only)"
            )
    if where := _above_home(root, home):
        raise InstallError(
            f"target {root} is {where}, not a project: an install there would put a .claude "
            "folder above your home folder and every project in it; give a project folder (a "
            "user install, CLI --user or Python user=True, writes into your home folder; the "
            "MCP tool installs into projects only)"
        )


def _above_home(root: Path, home: Path | None) -> str:
    """What ``root`` is when it is the filesystem root or a folder holding the home
    folder (``/home``, ``/Users``), for the message; '' when it is neither. Either is a
    slip for a project (``--target /`` or ``~/..``), never one."""
    try:
        real = root.resolve()
        holds = home is not None and home.resolve().is_relative_to(real)
    except (OSError, RuntimeError):  # a link loop: judge the path as written
        real, holds = root, home is not None and home.is_relative_to(root)
    if real == Path(real.anchor):
        return "the filesystem root"
    return f"a folder holding your home folder ({home})" if holds else ""


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
        f"installs from; give the project folder that holds it ({project}) (~/{CLAUDE_DIR} is "
        f"a user install's: CLI --user, Python user=True); nothing written"
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
    raise InstallError(  # a mistyped path: the command is wrong (CLI exit 2), not the target
        f"{_what(root, scope == 'user')} {root} does not exist, nor does {root.parent}; check "
        "the path (an install creates at most the folder itself, inside an existing one); "
        "nothing written"
    )


def check_writable(root: Path, rels: Iterable[str], then: str) -> None:
    """Refuse before changing anything when a folder a file of ``rels`` (relative to
    ``root``) would be written into or removed from, or the nearest one there when it is
    yet to be made, cannot be written: failing half-way would leave files the install
    record does not list, or a record listing files already gone. ``then`` ends the
    message: what else the user may do, and that nothing was changed.

    A file where one of those folders must be made, or a folder where a file of
    ``rels`` goes, is refused the same way: the write would fail half-way on it.

    A ``.claude`` that is a symbolic link is followed, as Claude Code follows it, unless
    it leads nowhere, loops, or leads to a file or to a folder holding the root
    (`claude_link.claude_link_refusal`).

    Raises:
        TargetRefusedError: Such a folder is not writable, or something is in the way.
    """
    # Checked even with nothing to write: the install record is read through it too.
    if why := claude_link_refusal(root):
        raise TargetRefusedError(f"{why} {then}")
    for rel in sorted(rels):
        dest = on_disk(root, rel)
        if dest.is_dir() and not dest.is_symlink():
            raise TargetRefusedError(f"{dest} is a folder, where a file goes; move or remove it {then}")
        folder = dest.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if folder.exists() and not folder.is_dir():
            raise TargetRefusedError(
                f"cannot make the folder {folder}: a file of that name is in the way; move or "
                f"remove it {then}"
            )
        if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
            if _read_only_mount(folder):
                raise TargetRefusedError(
                    f"cannot write into {folder} (read-only file system); remount it "
                    f"read-write {then}"
                )
            raise TargetRefusedError(
                f"cannot write into {folder} (permission denied); make it writable "
                f"(chmod u+w) {then}"
            )


def _read_only_mount(folder: Path) -> bool:
    """``folder`` is on a file system mounted read-only (no ``chmod`` helps there)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): say permission denied
        return False


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
    """``root`` resolved, once the OS can look it up: a NUL byte or a name too long would fail
    later, half-way through writing, with the OS's own words.

    Raises:
        InstallError: The path cannot be looked up (or is a symbolic link loop).
    """
    if "\x00" in str(root):
        raise InstallError(f"target {_shown(given)!r} is not a usable path (a NUL character); {fix}")
    try:
        root.exists()
        # Resolved, so that what is refused and what is reported is the folder written
        # into: "proj/.claude/.." is proj, not a folder inside .claude, and "~/proj/.."
        # is the home folder.
        return root.resolve()
    except RuntimeError as exc:  # Path.resolve on a symbolic link loop
        raise InstallError(f"target {_shown(given)!r} is a symbolic link loop; {fix}") from exc
    except OSError as exc:  # ENAMETOOLONG and the like; the message repeats the path
        raise InstallError(
            f"target {_shown(given)!r} is not a usable path ({exc.strerror or type(exc).__name__}); {fix}"
        ) from exc


def _shown(path: str) -> str:
    """A path short enough to quote in a one-line message."""
    return path if len(path) <= 200 else path[:200] + "..."
