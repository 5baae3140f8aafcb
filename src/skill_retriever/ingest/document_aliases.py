"""Documents reached twice in one folder: a symbolic link to a document of the same folder
under another name (``README.md -> docs/index.md``, ``sub/restore-link.md -> ../restore.md``)
is one item, not two.

The walk (`walk.walk_files`) lists a link to a file inside the folder beside the file, as a
skills repository wants it (a SKILL.md linked from a shared file is a skill in its place).
Read as documents, both made one DOCUMENT item each, the same text twice: a search
returned both, and "nothing fits" named one title twice. Here every group of listed paths
that resolve to one real file is read once, under the real file's path when the folder
lists it as a document (else under the first link, in sorted order: the listing's order
never picks the id), with a note on each other link naming the file it leads to. A link
to such a link resolves to the same file and joins the group.

Links between documents that name a link (``[restore](sub/restore-link.md)``) lead to
the item it was folded into (`aliases` gives the ids; `OnDiskIds` does so for one file
read alone). A link out of the folder is never listed by the walk (it is a note there),
so none is followed here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from skill_retriever.ingest.result import Problem


@dataclass(slots=True)
class Folded:
    """The files to read (each real file once) and the links folded into one of them."""

    read: list[str]
    #: A listed link that is not read -> the listed path read in its stead.
    aliases: dict[str, str] = field(default_factory=dict)

    def paths(self, root: Path) -> set[Path]:
        """The folded links as the walk names them (``root / rel``)."""
        return {root / alias for alias in self.aliases}


def real_path(root: Path, rel: str) -> str | None:
    """The path below ``root`` that the symbolic link ``rel`` leads to, None when ``rel``
    is no link, leads out of ``root`` or cannot be resolved (reading it says why)."""
    path = root / rel
    if not path.is_symlink():
        return None
    try:
        return path.resolve(strict=True).relative_to(root.resolve()).as_posix()
    except (OSError, RuntimeError, ValueError):  # broken, a loop, or outside: not an alias here
        return None


def fold_links(root: Path, files: list[str]) -> Folded:
    """``files`` (listed paths below ``root``, sorted) with each real file kept once."""
    listed = set(files)
    groups: dict[str, list[str]] = {}
    for rel in files:
        groups.setdefault(real_path(root, rel) or rel, []).append(rel)
    folded = Folded([])
    for real, paths in groups.items():
        kept = real if real in listed else min(paths)
        folded.aliases.update((rel, kept) for rel in paths if rel != kept)
    folded.read = [rel for rel in files if rel not in folded.aliases]
    return folded


def alias_notes(root: Path, folded: Folded) -> list[Problem]:
    """One note per link folded into another path's item: the link, the file it leads
    to and what links to it now make (a note keeps nothing from an earlier run: an item
    once indexed under the link's path goes)."""
    return [
        Problem(
            str(root / alias),
            f"symbolic link to {kept}, another document of this folder: indexed once, as {kept} "
            "(links to it lead there); remove the link, or copy the file if both are meant",
            read_whole=True,
        )
        for alias, kept in sorted(folded.aliases.items())
    ]


class OnDiskIds(Mapping[str, str]):
    """The ids of a folder's documents the index holds (relative path -> id), and of every
    link on disk in that folder that leads to one of them: a file read alone keeps its
    link to ``sub/restore-link.md`` when only ``restore.md`` is an item."""

    def __init__(self, root: Path, held: Mapping[str, str]) -> None:
        self._root = root
        self._held = dict(held)

    def __getitem__(self, rel: str) -> str:
        if rel in self._held:
            return self._held[rel]
        real = real_path(self._root, rel)
        if real is None or real not in self._held:
            raise KeyError(rel)
        return self._held[real]

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)
