"""The recorded skill whose folder holds what an uninstall named: a nested skill, or any
other part of it, installed as that skill's file.

``install game-development 2d-games`` writes 2d-games (a SKILL.md nested in
game-development's folder) once, as game-development's file (`with_outer`); the install
record holds only game-development. ``uninstall 2d-games`` then answered "no component
'2d-games' installed": true, but it did not say where 2d-games came from, nor what
removes it. No index is read by an uninstall, so the record answers, as `owning_skill`
would: a recorded skill's id is its source SKILL.md, and a source path under that folder
(an id given) is part of it; its recorded files are its target folder, and a folder in
it of the name given (any case) is that part.
"""

from __future__ import annotations

from dataclasses import dataclass

from skill_retriever.components.install.inventory import InstallRecord

__all__ = ["Holder", "held_by_outer"]

_SKILL_FILE = "SKILL.md"


@dataclass(frozen=True)
class Holder:
    """The recorded skill holding a part, and where that part is in the target: its
    file (``file``) or, for a folder with no SKILL.md of its own, that folder."""

    id: str
    path: str
    file: bool


def held_by_outer(record: InstallRecord, ref: str) -> Holder | None:
    """The outermost recorded skill holding ``ref`` (a source id, or a name), or None."""
    found: list[tuple[int, Holder]] = []
    key = ref.strip().casefold()
    if not key:
        return None
    for skill_id, entry in record.components.items():
        if entry.kind != "skill" or ref == skill_id:
            continue
        top = _own_folder(list(entry.files))
        if top is None:
            continue
        folder = skill_id.rpartition("/")[0]
        holder = (
            _by_id(skill_id, folder, ref, top, entry.files) if folder and ref.startswith(folder + "/")
            else _by_name(skill_id, key, top, entry.files)
        )
        if holder is not None:
            found.append((folder.count("/"), holder))
    return min(found, key=lambda f: (f[0], f[1].id))[1] if found else None


def _own_folder(paths: list[str]) -> str | None:
    """The target folder a recorded skill was written to: that of its shallowest SKILL.md."""
    own = [p for p in paths if p == _SKILL_FILE or p.endswith("/" + _SKILL_FILE)]
    if not own:
        return None
    return min(own, key=lambda p: (p.count("/"), p)).rpartition("/")[0]


def _by_id(skill_id: str, folder: str, ref: str, top: str, files: dict[str, str]) -> Holder:
    """``ref``, a source path under the skill's folder, as the file the skill wrote it to."""
    path = top + ref[len(folder):].rstrip("/")  # .../game-development + /2d-games/SKILL.md
    if path in files:
        return Holder(skill_id, path, True)
    inside = any(p.startswith(path + "/") for p in files)  # a folder's id: that folder
    return Holder(skill_id, path if inside else top, False)


def _by_name(skill_id: str, key: str, top: str, files: dict[str, str]) -> Holder | None:
    """A folder named ``key`` inside the skill's target folder: its SKILL.md when it has
    one, else the folder."""
    folders = sorted(
        {
            top + "/" + "/".join(parts[: i + 1])
            for p in files
            if p.startswith(top + "/")
            for parts in [p[len(top) + 1:].split("/")[:-1]]
            for i, part in enumerate(parts)
            if part.casefold() == key
        },
        key=lambda f: (f.count("/"), f),
    )
    if not folders:
        return None
    nested = folders[0] + "/" + _SKILL_FILE
    return Holder(skill_id, nested, True) if nested in files else Holder(skill_id, folders[0], False)
