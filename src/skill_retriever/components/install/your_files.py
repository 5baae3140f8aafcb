"""The user's own files left in a folder an install made, after an uninstall took back what
it wrote there.

An uninstall removes only what an install wrote, so a file the user added inside an
installed skill's folder (``.claude/skills/sk-a/mynotes.md``) stays, and with it the
folder, now without its ``SKILL.md``: Claude Code loads no skill from it. The same holds
for any folder below a kind folder that installed files lay in: a plugin's command folder
(``.claude/commands/beta/mine.md``), a command's namespace folder, a hook script's
folder below ``.claude/hooks``. Nothing said so: the folder looked forgotten by the
uninstall. `your_files` names each such file, for the report's ``kept ...: your file``
lines (`UninstallReport.yours`). They are not kept for a fault, so the uninstall is still
``ok``.

A folder still holding a file an install recorded is left out: it stays for that file
(said on a line of its own, or installed still), not for the user's. Who made a folder
below a kind folder is not recorded, so a folder of the user's own that an install wrote
into (``.claude/commands/git/``, where ``git/commit`` installed) is named too once it
holds only the user's files.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import UnsafePathError
from skill_retriever.model import NodeKind

__all__ = ["SKILLS_FOLDER", "your_files"]

#: The kind folders a component's files lie below (``.claude/skills``, ``.claude/commands``,
#: ``.claude/hooks``, ...).
_KIND_FOLDERS = tuple(sorted({p.folder for p in LAYOUT.values() if p.folder}))
SKILLS_FOLDER = LAYOUT[NodeKind.SKILL].folder


def your_files(root: Path, removed: Iterable[str], record: InstallRecord) -> dict[str, str]:
    """The files under the folder (the first below its kind folder) of each file in
    ``removed`` (layout paths) that no entry of ``record`` lists, sorted, each -> that
    folder; none for a folder that is gone or still holds a recorded file that stays (a
    dry run's record still lists what it would remove, which is then on disk yet)."""
    gone = set(removed)
    recorded = {rel for e in record.components.values() for rel in e.files}
    staying = recorded - gone
    out: dict[str, str] = {}
    for folder_rel in sorted({f for rel in gone if (f := _folder_of(rel)) is not None}):
        if any(rel.startswith(f"{folder_rel}/") for rel in staying):
            continue
        try:
            folder = safe_destination(root, folder_rel)
        except UnsafePathError:  # reported where the file itself was
            continue
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if path.is_dir() and not path.is_symlink():
                continue
            mine = f"{folder_rel}/{path.relative_to(folder).as_posix()}"
            if mine not in recorded and mine not in gone:
                out[mine] = folder_rel
    return dict(sorted(out.items()))


def _folder_of(rel: str) -> str | None:
    """The folder right below a kind folder that ``rel`` lies in (``.claude/skills/sk-a``
    for ``.claude/skills/sk-a/SKILL.md``); None for an entry of a shared file or a file
    right in its kind folder (``.claude/agents/x.md``)."""
    if "#" in rel:
        return None
    for kind in _KIND_FOLDERS:
        below = rel.removeprefix(f"{kind}/")
        if below != rel and "/" in below:
            return f"{kind}/{below.split('/', 1)[0]}"
    return None
