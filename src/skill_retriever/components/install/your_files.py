"""The user's own files left in a skill's folder after an uninstall took the skill back.

An uninstall removes only what an install wrote, so a file the user added inside an
installed skill's folder (``.claude/skills/sk-a/mynotes.md``) stays, and with it the
folder, now without its ``SKILL.md``: Claude Code loads no skill from it. Nothing said
so: the folder looked forgotten by the uninstall. `your_files` names each such file, for
the report's ``kept ...: your file`` lines (`UninstallReport.yours`). They are not kept
for a fault, so the uninstall is still ``ok``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from pathlib import Path

from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import UnsafePathError

__all__ = ["your_files"]

_SKILL_FILE = "SKILL.md"


def your_files(root: Path, removed: Iterable[str], record: InstallRecord) -> dict[str, str]:
    """The files under the folder of each ``SKILL.md`` in ``removed`` (layout paths) that
    no entry of ``record`` lists (a dry run's record still lists what it would remove,
    which is then on disk yet), sorted, each -> its skill's folder; none when the folder is gone."""
    gone = set(removed)
    recorded = {rel for e in record.components.values() for rel in e.files} | gone
    out: dict[str, str] = {}
    for rel in sorted(gone):
        if posixpath.basename(rel) != _SKILL_FILE or "#" in rel:
            continue
        folder_rel = posixpath.dirname(rel)
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
            if mine not in recorded:
                out[mine] = folder_rel
    return dict(sorted(out.items()))
