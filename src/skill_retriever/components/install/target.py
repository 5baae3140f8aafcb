"""The root an install writes into (or an uninstall reads), and whether it may be made.

Kept apart from planning and writing because both ends of an install share it: `planner`
resolves the root when it plans, `apply` checks it again right before the first write,
and `uninstall` resolves the same root (which must then exist). The rule: a target
project folder or the home folder (``user``), never both; an empty target is refused;
a root that does not exist yet may be made only right inside an existing folder.
"""

from __future__ import annotations

from pathlib import Path

from skill_retriever.components.install.plan import InstallError, Scope

__all__ = ["check_creatable", "install_root"]


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
            empty or a file, or (with ``must_exist``) the folder is missing.
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
    root = root.expanduser().absolute()
    if root.exists() and not root.is_dir():
        raise InstallError(f"target {root} is a file; give the project folder to install into")
    if not root.exists() and must_exist:
        what = "home folder" if user else "target folder"
        raise InstallError(f"{what} {root} does not exist; nothing is installed there")
    return root, "user" if user else "project"


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
