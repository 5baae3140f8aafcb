"""Listing a skills repository's (or a documents folder's) files: the folders walked, the
links followed or not. The notes call the root what it is (``source``): "repository" for
skills, "documents folder" for documents (a folder of runbooks is no repository).

The walk is iterative (a stack of folders, not recursion as ``os.walk`` in Python 3.11 is),
so a tree nested thousands of folders deep is listed like any other. It goes depth first in
sorted order, never into `SKIP_DIRS`. A folder that cannot be listed is a problem of that
folder (``Unread.FOLDER``): re-indexing keeps every item read below it before, as it keeps
those of a file that cannot be read.

Symbolic links: one to a file in the repository is listed (with a note when it leads to a
file of its own name listed in its own place, one SKILL.md to another: it is then indexed
twice; a link under another name is a component of its own place, as a skill's SKILL.md
linked to a shared file is; a documents read folds either kind into the file it leads to,
`document_aliases`); one to a file outside it, every
link to a folder (outside it: another checkout is a source of its own; inside it: its
files are read in place, not twice; or a loop) and a broken one are not followed, each
named in a note (`Problem` with ``read_whole``: it holds no items back from pruning).
So is anything that is not a regular file (a named pipe, a socket, a device, or a link
to one): reading a named pipe waits for a writer that never comes, and would hang the run.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Iterable
from pathlib import Path

from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.result import Problem, Unread

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)


def walk_files(root: Path, problems: list[Problem], source: str = "repository") -> list[str]:
    """The files below ``root`` (relative POSIX paths, sorted); what could not be listed
    or was not followed is added to ``problems``, which call ``root`` the ``source`` (a
    skills "repository"; a folder of runbooks is no repository: "documents folder")."""
    real_root = root.resolve()
    found: list[str] = []
    links: dict[str, str] = {}  # a listed link to a file -> the file, both relative to the root
    stack = [root]
    while stack:
        folder = stack.pop()
        entries = _listing(folder, problems)
        if entries is None:
            continue
        dirs = [e for e in entries if _is_dir(e) and e.name not in SKIP_DIRS]
        problems += [
            Problem(str(folder / e.name), "a folder named SKILL.md: no skill made (a skill is "
                    "a file SKILL.md in its folder); rename the folder",
                    unread=Unread.NOTHING)  # no file there now: a skill indexed from one goes
            for e in dirs
            if e.name.lower() == "skill.md"
        ]
        problems += [_folder_link(folder / e.name, real_root, source) for e in dirs if e.is_symlink()]
        folders = [folder / e.name for e in dirs if not e.is_symlink()]  # links are never followed
        for entry in entries:
            if _is_dir(entry):
                continue
            path = folder / entry.name
            skipped = _file_link(path, real_root, source) if entry.is_symlink() else _special(entry, path)
            if skipped is not None:
                problems.append(skipped)
            else:
                found.append(path.relative_to(root).as_posix())
                if entry.is_symlink():
                    links[found[-1]] = path.resolve().relative_to(real_root).as_posix()
        stack.extend(reversed(folders))  # the first folder in sorted order is walked next
    listed = set(found)
    problems += [  # one component file read twice: in its place and through the link
        _skip_note(root / rel, f"symbolic link to {target}, which is read in its own place too: "
                   "what it holds is indexed twice; remove the link, or copy the file if both are meant")
        for rel, target in sorted(links.items())
        if target in listed and posixpath.basename(target).lower() == posixpath.basename(rel).lower()
    ]
    return sorted(found)


def _listing(folder: Path, problems: list[Problem]) -> list[os.DirEntry[str]] | None:
    """The entries of ``folder`` sorted by name, or None after filing the folder as one
    that could not be listed (what an earlier run read below it is kept)."""
    try:
        with os.scandir(folder) as listing:
            return sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        problems.append(
            Problem(
                str(folder),
                f"cannot list folder: {exc.strerror or exc}; nothing below it was read (the items "
                "indexed from there before are kept); make it readable and index again",
                unread=Unread.FOLDER,
            )
        )
        return None


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a folder, or a link to one (as ``os.walk`` tells them)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _skip_note(link: Path, message: str) -> Problem:
    """A skipped symbolic link or special file: a note (none of the repository's own
    files is left out, so it keeps no items of an earlier run from being pruned), naming
    it and why."""
    return Problem(str(link), message, read_whole=True)


def _target(link: Path) -> Path | Problem:
    """Where ``link`` leads, or the note that it leads nowhere (broken, or a loop)."""
    try:
        return link.resolve(strict=True)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop, before Python 3.13
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return _skip_note(link, f"symbolic link that cannot be resolved: skipped ({why})")


def _file_link(link: Path, real_root: Path, source: str) -> Problem | None:
    """Why the link to a file ``link`` is skipped, or None: one that stays in the
    ``source`` (`walk_files`) is read (its target is the source's own)."""
    target = _target(link)
    if isinstance(target, Problem):
        return target
    if not target.is_relative_to(real_root):
        return _skip_note(link, f"symbolic link to a file outside the {source}: skipped (it leads to {target})")
    return None if target.is_file() else _skip_note(
        link, f"symbolic link to {_what_special(target)}, not a regular file: skipped (it leads to {target})")


def _special(entry: os.DirEntry[str], path: Path) -> Problem | None:
    """The note that ``entry`` (not a link, not a folder) is no regular file, or None."""
    try:
        if entry.is_file(follow_symlinks=False):
            return None
    except OSError:
        return None  # gone or unreadable: reading it files the problem, as for any file
    return _skip_note(path, f"{_what_special(path)}, not a regular file: skipped")


def refuse_special(paths: Iterable[Path]) -> None:
    """Refuse a source path that is neither a file nor a folder (a named pipe, a socket, a
    device): read as a folder it was said to be "not a folder; pass the repository's
    root", and read as a file it would wait on its writer.

    Raises:
        IngestError: Saying what the first such path is.
    """
    for path in paths:
        if path.exists() and not path.is_file() and not path.is_dir():
            raise IngestError(f"{path} is {_what_special(path)}, not a file or folder; give a folder, "
                              "a document file or a JSON graph")


def _what_special(path: Path) -> str:
    """What kind of file ``path`` is, in words, for a note."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return "a file that cannot be read"
    kinds = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def _folder_link(link: Path, real_root: Path, source: str) -> Problem:
    """Why the link to a folder ``link`` is not followed: one leaving the ``source`` could
    reach anything (another checkout is a source of its own), one within it leads to
    files read in place (following it would index them twice) or to a folder that holds
    it (a loop)."""
    target = _target(link)
    if isinstance(target, Problem):
        return target
    if not target.is_relative_to(real_root):
        return _skip_note(
            link,
            f"symbolic link to a folder outside the {source}: not followed (it leads to {target}); "
            "to index that folder, pass it as a source of its own",
        )
    rel = target.relative_to(real_root).as_posix()
    if link.parent.resolve().is_relative_to(target):
        return _skip_note(link, f"symbolic link to a folder that holds it: not followed (it leads to {rel}, a loop)")
    if SKIP_DIRS.intersection(rel.split("/")):
        return _skip_note(link, f"symbolic link into a folder that is never indexed: not followed (it leads to {rel})")
    return _skip_note(
        link,
        f"symbolic link to another folder within this {source}: not followed (it leads to {rel}, whose files "
        "are indexed there; following it would index them twice)",
    )
