"""A dry run of an uninstall: the real uninstall, of a copy.

An uninstall decides as it goes (a file removed frees a script, a server's removal may
leave ``.mcp.json`` as it was), so a second, read-only walk of the record would drift
from it. Instead, what an uninstall of the target reads (the record, the shared JSON
files, every recorded file and backup) is copied into a temporary folder, the copy is
uninstalled, and its report is said of the target: paths of the copy named as the
target's, and a recorded file the target's uninstall would refuse to touch (a link on
the way, not copied) kept as that uninstall keeps it; so is a shared command that a file
there, not copied either, keeps from moving (`shared_moves`). The target is only read, and the
temporary folder is gone afterwards. Used by `uninstall.uninstall` (``dry_run``), so by
the CLI's ``uninstall --dry-run`` and the MCP tool's dry run alike.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from skill_retriever.components.install.claude_folder import on_disk
from skill_retriever.components.install.inventory import InstallRecord, backup_path
from skill_retriever.components.install.layout import MCP_FILE, RECORD_FILE, SETTINGS_FILE
from skill_retriever.components.install.local_hooks import LOCAL_SETTINGS_FILE
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import UnsafePathError
from skill_retriever.components.install.shared_moves import left_in_place
from skill_retriever.components.install.uninstall_report import UninstallReport
from skill_retriever.exceptions import SkillRetrieverError

__all__ = ["PREFIX", "on_a_copy"]

#: How the temporary folder's name starts (a leftover one is easy to tell).
PREFIX = "skill-retriever-dry-run-"


def on_a_copy(root: Path, record: InstallRecord, run: Callable[[Path], UninstallReport]) -> UninstallReport:
    """``run`` (the uninstall, given the root to take back from) on a copy of what an
    uninstall of ``root`` (resolved, its install lock held) reads; its report, said of
    ``root`` and marked not applied. ``record`` is ``root``'s, as loaded.

    Raises:
        SkillRetrieverError: As ``run`` raises it, its message naming ``root``, not the copy.
    """
    with tempfile.TemporaryDirectory(prefix=PREFIX) as tmp:
        copy = Path(tmp).resolve() / "target"  # resolved, as an uninstall's root is
        copy.mkdir()
        unsafe = _copy(root, record, copy)
        try:
            report = run(copy)
        except SkillRetrieverError as exc:  # said of the copy: name the target
            exc.args = tuple(str(a).replace(str(copy), str(root)) for a in exc.args)
            for key, value in vars(exc).items():  # (the same error kept: its own attributes too)
                if isinstance(value, str):
                    setattr(exc, key, value.replace(str(copy), str(root)))
            raise
    for rel, why in unsafe.items():  # not copied: said as the target's uninstall says it
        if rel in report.gone:
            report.gone.remove(rel)
            report.kept[rel] = why
    for old, new in list(report.moved.items()):  # a file there, not copied, keeps it in place
        if on_disk(root, new).exists() or on_disk(root, new).is_symlink():
            del report.moved[old]
            report.notes.append(left_in_place(old, new))
    report.kept = {p: why.replace(str(copy), str(root)) for p, why in report.kept.items()}
    report.target = root
    report.applied = False
    return report


def _copy(root: Path, record: InstallRecord, copy: Path) -> dict[str, str]:
    """Copy into ``copy`` what an uninstall from ``root`` reads: the record, the shared JSON
    files, and every recorded file and backup. Returns the recorded files an uninstall of
    ``root`` would refuse to touch (a link on the way): path -> why, not copied."""
    rels = {RECORD_FILE, SETTINGS_FILE, MCP_FILE, LOCAL_SETTINGS_FILE}  # the local file: read for its notes
    for entry in record.components.values():
        rels |= set(entry.files) | {backup_path(rel) for rel in entry.replaced_files}
    unsafe: dict[str, str] = {}
    for rel in sorted(rels):
        try:
            src = safe_destination(root, rel)
        except UnsafePathError as exc:
            unsafe[rel] = str(exc)
            continue
        if src.is_file():
            dest = safe_destination(copy, rel)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
    if safe_destination(copy, RECORD_FILE).is_file():  # the copy is another folder: its record says so
        replace(record, root=copy).save()  # (what lies in the target's .mcp.json is the copy's: `record_projects`)
    return unsafe
