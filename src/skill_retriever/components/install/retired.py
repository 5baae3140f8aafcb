"""What a new version of an installed component no longer ships, taken out by installing it
again.

An earlier install of a component recorded the files and ``settings.json`` hooks it wrote
(`inventory.InstallRecord`). When its source changed since (a script dropped, a hook
removed, the skill renamed, so its folder moved), installing it again plans a ``remove``
for each of those the new version no longer has: left in place, a dropped hook would go
on running beside the new ones, and a renamed skill would sit there twice.

Only what is still exactly as that install wrote it goes (a file's SHA-256 equal to the
recorded one, an equal hook under its event and matcher). Left in place:

- what the user changed since (kept, with a note, and still recorded: ``uninstall``
  reports it);
- what another installed component also stands behind, or another component of this
  install writes or keeps;
- a file replaced with ``force`` at install time (``uninstall`` puts the user's back);
- every file of a version that could not read all its files (`Rendered.complete`
  False: a source root missing, a file not on disk), as "no longer ships" cannot be told
  from "could not read" then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from skill_retriever.components.install.cases import fold, path_key
from skill_retriever.components.install.claims import status_of
from skill_retriever.components.install.inventory import InstallRecord, RecordEntry, sha256
from skill_retriever.components.install.layout import SETTINGS_FILE
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import (
    ComponentPlan,
    FileAction,
    HookEntry,
    UnsafePathError,
)
from skill_retriever.components.install.settings import has_hook

__all__ = ["RETIRED", "add_retired", "dropped_files", "dropped_hooks"]

RETIRED = "an earlier version of it installed this; this version no longer has it"


def add_retired(
    plans: Sequence[ComponentPlan],
    complete: Mapping[str, bool],
    root: Path,
    record: InstallRecord | None,
    settings: Mapping[str, Any] | None,
) -> list[ComponentPlan]:
    """``plans`` with a ``remove`` action for each file and hook an earlier install of a
    component wrote that its planned version no longer has (see the module).

    Args:
        plans: The settled plans (`claims.settle_claims`).
        complete: Component id -> whether its rendering read every file it lists.
        record: The root's install record (None: none, or damaged: nothing is removed).
        settings: The root's ``settings.json`` (None: unreadable, no hook is removed).
    """
    if record is None:
        return list(plans)
    claimed = {path_key(f) for c in plans for f in c.files if f.hook is None and f.action != "refused"}
    hooks = [f.hook for c in plans for f in c.files if f.hook is not None]
    out = []
    for c in plans:
        entry = record.components.get(c.id)
        if entry is None or c.status not in ("install", "unchanged"):
            out.append(c)
            continue
        others = [e for i, e in record.components.items() if i != c.id]
        actions, notes = dropped_files(entry, others, root, claimed, complete.get(c.id, False))
        actions += dropped_hooks(entry, others, hooks, settings)
        if actions or notes:
            files = (*c.files, *actions)
            reason = "; ".join(r for r in (c.reason, *notes) if r)
            c = replace(c, files=files, status=status_of(files), reason=reason)
        out.append(c)
    return out


def dropped_files(
    entry: RecordEntry,
    others: list[RecordEntry],
    root: Path,
    claimed: set[str],
    complete: bool,
    why: str = RETIRED,
) -> tuple[list[FileAction], list[str]]:
    """A ``remove`` (saying ``why``) for each file ``entry`` records that is still as
    written, that no path of ``claimed`` (folded) and none of ``others`` holds; and a note
    for each one left (changed since; or ``complete`` False: see the module)."""
    actions: list[FileAction] = []
    notes: list[str] = []
    for rel, digest in entry.files.items():
        if fold(rel) in claimed or rel in entry.replaced_files:
            continue
        if any(rel in e.files for e in others):
            continue
        try:
            dest = safe_destination(root, rel)
            held = dest.read_bytes() if dest.is_file() else None
        except (OSError, UnsafePathError):
            continue  # cannot tell: it stays, and stays recorded
        if held is None:
            continue
        if not complete:
            notes.append(f"left {rel}: not in this version, which could not read all its files")
        elif sha256(held) != digest:
            notes.append(f"kept {rel}: not in this version, and changed since it was installed")
        else:
            actions.append(FileAction(rel, "remove", why))
    return actions, notes


def dropped_hooks(
    entry: RecordEntry,
    others: list[RecordEntry],
    planned: list[HookEntry],
    settings: Mapping[str, Any] | None,
    why: str = RETIRED,
) -> list[FileAction]:
    """A ``remove`` (saying ``why``) for each hook ``entry`` records that ``settings``
    still holds as added, that neither ``planned`` nor ``others`` has."""
    if settings is None:
        return []
    return [
        FileAction(f"{SETTINGS_FILE}#{h.where}", "remove", why, hook=h)
        for h in entry.hooks
        if h not in planned and not any(h in e.hooks for e in others) and has_hook(settings, h)
    ]
