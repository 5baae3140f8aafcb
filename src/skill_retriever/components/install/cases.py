"""Paths that differ only in case: one file on macOS and Windows, two on Linux.

macOS (APFS, HFS+) and Windows (NTFS) compare names without case by default, so
``.claude/commands/Deploy.md`` and ``.claude/commands/deploy.md`` are one file there and
two on Linux; so are ``café.md`` written with ``é`` as one character and as ``e`` plus an
accent, which macOS stores in one form and finds by either (`fold`). An install must do
the same on every system, or one request would leave two commands on Linux and overwrite
the user's file on a Mac. So:

- two components of one plan whose files differ only in case claim one path (`claims`
  keys files by `path_key`): different content is a clash, as at the very same path;
- a planned file whose name, or the name of a folder on its way, the target already
  spells otherwise (and the plan does not write that spelling itself) is planned at the
  target's spelling (`CaseFolders.spellings`): an existing file there is kept, or with
  ``force`` overwritten (its copy kept for uninstall), exactly as one at the planned
  path would be; a new file goes into the existing folder, where macOS would put it.
  Several spellings (possible on Linux only) cannot be told apart on the other systems:
  the file is refused.

The layout's own folders (``.claude``, ``.claude/skills`` ...) keep their spelling: Claude
Code on Linux reads only those. Each folder on a planned path is listed once per plan;
nothing is walked. ``.mcp.json`` servers are JSON keys, not files: they keep their case.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from skill_retriever.components.install.claude_folder import on_disk
from skill_retriever.components.install.layout import KEPT_FOLDERS
from skill_retriever.components.install.paths import fold
from skill_retriever.components.install.plan import FileAction

__all__ = ["CaseFolders", "case_note", "case_twins_note", "fold", "path_key"]


def path_key(f: FileAction) -> str:
    """What two claims on one path share: a file's path folded (`fold`), a server's key
    as it is."""
    return f.path if f.mcp_entry is not None else fold(f.path)


def case_note(planned: str, spelled: str) -> str:
    """Why a file is planned at the target's spelling instead of its own."""
    return (
        f"the target spells {planned} as {spelled}: names that differ only in case are one "
        "file on macOS and Windows"
    )


def case_twins_note(paths: Iterable[str]) -> str:
    """A note on one component's own files whose paths differ only in case (a skill
    with ``README.md`` and ``readme.md``): both are written, as its author has them, and
    on macOS and Windows the one written last is the only one left. Empty when none."""
    by: dict[str, list[str]] = {}
    for path in paths:
        by.setdefault(fold(path), []).append(path)
    twins = [" and ".join(group) for group in by.values() if len(group) > 1]
    if not twins:
        return ""
    return (
        f"its files {'; '.join(twins)} differ only in case: on macOS and Windows they are one "
        "file, and only the one written last is kept"
    )


def _fixed(parts: list[str]) -> int:
    """How many leading parts form a layout folder, whose spelling is kept."""
    return max((k for k in range(len(parts)) if "/".join(parts[:k]) in KEPT_FOLDERS), default=0)


class CaseFolders:
    """The target's folders as listed, once each, to spell planned paths as it does.

    Args:
        root: The target.
        planned: Every file path the plan writes (as planned): an existing file of
            another spelling that the plan writes itself is no other spelling of one.
    """

    def __init__(self, root: Path, planned: Iterable[str]) -> None:
        self.root = root
        self.planned = frozenset(planned)
        self._listed: dict[tuple[str, ...], dict[str, list[str]]] = {}

    def _names(self, folder: tuple[str, ...]) -> dict[str, list[str]]:
        """The names in ``folder`` by their case-folded form."""
        if folder not in self._listed:
            try:
                names = sorted(os.listdir(on_disk(self.root, "/".join(folder))))
            except OSError:  # not there (yet), or not a folder: nothing to mistake it for
                names = []
            by: dict[str, list[str]] = {}
            for name in names:
                by.setdefault(fold(name), []).append(name)
            self._listed[folder] = by
        return self._listed[folder]

    def spellings(self, rel: str) -> list[str]:
        """How the target spells ``rel`` (relative, POSIX): ``[rel]`` when nothing there
        differs from it only in case; else each spelling it holds (several: Linux only).
        A part spelled exactly as planned is followed as it is."""
        parts = rel.split("/")
        found = [tuple(parts[: _fixed(parts)])]
        for part in parts[len(found[0]) :]:
            grown = []
            for prefix in found:
                names = self._names(prefix).get(fold(part), [])
                grown += [(*prefix, n) for n in names if part not in names] or [(*prefix, part)]
            found = grown
        out = ["/".join(p) for p in found]
        return [p for p in out if p == rel or p not in self.planned] or [rel]
