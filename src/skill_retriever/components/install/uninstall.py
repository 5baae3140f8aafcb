"""Take back what installs added to a root, and nothing a user changed since.

Reads the install record (`inventory.InstallRecord`): a file is removed only when its
SHA-256 still equals what the install wrote, a ``settings.json`` hook only when an equal
hook still sits under its event and matcher, an ``.mcp.json`` server only when its entry
is still the one written. What ``force`` replaced at install time (the user's own file or
server entry) is put back. What installing a component brought along goes with it
(`brought`). Folders the removal empties go too (``.claude``, its kind folders and the
root only when an install made them), and so does a shared JSON file an install created
once nothing is left in it; one that was there gets its original bytes back once its
content is the original's again (`as_before`). The index is not needed.

A file or server the user changed since is kept and stays in the record, marked with
why: a later uninstall finds it again (``force`` removes it as it is; once the user
undoes the change or deletes it, a plain uninstall finishes). A file or server already
gone, and a hook no longer found (changed or removed: nothing identifies it any more),
is reported and forgotten. Components are named as ``install`` took them: by id, by
name, or by the plugin that brought them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.components.install.as_before import remove_empty_folders, write_back
from skill_retriever.components.install.brought import taken_along
from skill_retriever.components.install.inventory import (
    InstallRecord,
    RecordEntry,
    backup_path,
    sha256,
)
from skill_retriever.components.install.layout import (
    KEPT_FOLDERS,
    MCP_FILE,
    RECORD_FILE,
    SETTINGS_FILE,
)
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import InstallError, UnsafePathError
from skill_retriever.components.install.settings import read_json_object, remove_hooks
from skill_retriever.components.install.target import check_writable, install_root
from skill_retriever.fsutil import write_atomic

CHANGED = "changed since it was installed"

__all__ = ["UninstallReport", "uninstall"]


@dataclass
class UninstallReport:
    """What an uninstall did.

    Attributes:
        along: Names of what installing the named components brought, taken back with
            them (their ids are in ``ids`` too).
        removed: Paths and entries taken out (``.mcp.json#server``,
            ``.claude/settings.json#hooks.<Event>[<matcher>]``).
        kept: Path -> why it stayed (changed since the install, or gone already).
        restored: What ``install --force`` replaced that was put back.
        recorded: Paths kept because they changed, still in the install record.
        forced: What ``force`` removed although the user changed it since the install
            (also in ``removed``).
    """

    target: Path
    ids: list[str]
    along: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: dict[str, str] = field(default_factory=dict)
    restored: list[str] = field(default_factory=list)
    recorded: list[str] = field(default_factory=list)
    forced: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Everything the installs added was taken back."""
        return not self.kept

    def lines(self) -> list[str]:
        out = [f"target: {self.target}"]
        if self.along:
            out.append(f"  taken back too, as the install brought them: {', '.join(self.along)}")
        out += [
            f"  removed {p}: {CHANGED}, removed as it was (force)"
            if p in self.forced
            else f"  removed {p}"
            for p in self.removed
        ]
        out += [f"  restored {p}: what install --force replaced" for p in self.restored]
        out += [f"  kept {p}: {why}" for p, why in self.kept.items()]
        if self.recorded:
            out.append(
                f"  still recorded: {', '.join(self.recorded)}: undo your change (or delete "
                "it) and run uninstall again to finish, or uninstall with force (--force) to "
                "remove it as it is"
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": str(self.target),
            "ids": list(self.ids),
            "along": list(self.along),
            "ok": self.ok,
            "removed": list(self.removed),
            "removed_changed": list(self.forced),
            "kept": dict(self.kept),
            "restored": list(self.restored),
            "still_recorded": list(self.recorded),
        }


def _pick(record: InstallRecord, refs: Iterable[str]) -> list[str]:
    """Recorded ids for ``refs``: a component id or name, or a plugin id or name (its
    components still recorded), whatever one recorded thing answers to."""
    out: list[str] = []
    for ref in refs:
        if ref in record.components:
            out.append(ref)
            continue
        if ref in record.plugins:
            out += [c for c in record.plugins[ref].components if c in record.components]
            continue
        key = ref.casefold()
        named = [[i] for i, e in record.components.items() if e.name.casefold() == key]
        named += [
            [c for c in p.components if c in record.components]
            for p in record.plugins.values()
            if p.name.casefold() == key
        ]
        if len(named) != 1:
            listing = ", ".join(sorted(record.components)[:10]) or "nothing"
            plugins = ", ".join(sorted(p.name for p in record.plugins.values())[:10])
            what = "several" if named else "no"
            raise InstallError(
                f"{what} component {ref!r} installed in {record.root} by skill-retriever "
                f"(its record {RECORD_FILE} lists {listing}"
                + (f"; plugins {plugins}" if plugins else "")
                + "); give a recorded id"
            )
        out += named[0]
    return list(dict.fromkeys(out))


def uninstall(
    ids: Iterable[str],
    target: str | Path | None = None,
    *,
    user: bool = False,
    home: str | Path | None = None,
    force: bool = False,
) -> UninstallReport:
    """Remove what installing ``ids`` added to ``target`` (or the home folder's
    ``.claude`` with ``user``), keeping whatever changed since, and put back what
    ``force`` replaced at install time.

    Args:
        ids: Component ids or names, or plugin ids or names, as installed.
        force: Remove files and servers the user changed since, too.

    Raises:
        InstallError: A root that is missing or a file, a damaged record, an id the
            record does not hold, or a folder to change that cannot be written (nothing
            is changed then).
    """
    root, _ = install_root(target, user, home, must_exist=True)
    record = InstallRecord.load(root)
    chosen = _pick(record, ids)
    if not chosen:
        raise InstallError("nothing to uninstall: give one or more installed component ids")
    along = taken_along(record, chosen)
    chosen += along
    report = UninstallReport(root, chosen, [record.components[i].name for i in along])
    entries = [record.components[i] for i in chosen]
    check_writable(root, _to_change(entries), "and run uninstall again; nothing removed")
    try:
        _take_back(root, record, chosen, entries, report, force)
    except OSError as exc:  # made read-only since the check, a disk full, ...
        raise InstallError(
            f"changing {exc.filename or 'a file'} failed ({exc.strerror or exc}); fix that "
            "and run uninstall again: what is still recorded is taken back then"
        ) from exc
    return report


def _to_change(entries: list[RecordEntry]) -> set[str]:
    """The paths, relative to the root, that taking ``entries`` back may change."""
    out = {RECORD_FILE}
    for e in entries:
        out |= set(e.files) | {backup_path(rel) for rel in e.replaced_files}
        if e.hooks:
            out.add(SETTINGS_FILE)
        if e.mcp:
            out.add(MCP_FILE)
    return out


def _take_back(
    root: Path,
    record: InstallRecord,
    chosen: list[str],
    entries: list[RecordEntry],
    report: UninstallReport,
    force: bool,
) -> None:
    for entry in entries:
        _remove_files(root, entry, report, force)
    _remove_hooks(root, entries, report, record)
    _remove_servers(root, entries, report, record, force)
    for node_id, entry in zip(chosen, entries, strict=True):
        if entry.empty:
            del record.components[node_id]
        else:
            report.recorded += [p for p in entry.kept if p not in report.recorded]
    record.forget(i for i in chosen if i not in record.components)
    if record.components:
        remove_empty_folders(root, record)
        record.save()
    else:
        record.remove()
        remove_empty_folders(root, record)


def _remove_files(root: Path, entry: RecordEntry, report: UninstallReport, force: bool) -> None:
    for rel, digest in list(entry.files.items()):
        try:
            path = safe_destination(root, rel)
        except UnsafePathError as exc:
            report.kept[rel] = entry.kept[rel] = str(exc)
            continue
        if not path.is_file():
            del entry.files[rel]
            entry.kept.pop(rel, None)
            if not _restore_file(root, entry, rel, report):
                report.kept[rel] = "gone already"
            continue
        changed = sha256(path.read_bytes()) != digest
        if changed and not force:
            report.kept[rel] = entry.kept[rel] = CHANGED
            continue
        path.unlink()
        if changed:
            report.forced.append(rel)
        del entry.files[rel]
        entry.kept.pop(rel, None)
        report.removed.append(rel)
        if not _restore_file(root, entry, rel, report):
            _prune(root, path.parent)


def _restore_file(root: Path, entry: RecordEntry, rel: str, report: UninstallReport) -> bool:
    """Put back the user's file that ``force`` replaced at ``rel`` (False: none kept)."""
    digest = entry.replaced_files.pop(rel, None)
    if digest is None:
        return False
    copy = backup_path(rel)
    try:
        backup = safe_destination(root, copy)
        data = backup.read_bytes() if backup.is_file() else None
    except (OSError, UnsafePathError) as exc:
        report.kept[copy] = f"cannot read the copy of your {rel}: {exc}"
        return False
    if data is None or sha256(data) != digest:
        report.kept[copy] = (
            f"the copy of your {rel} that install --force replaced is gone or changed"
        )
        return False
    write_atomic(safe_destination(root, rel), data, backup.stat().st_mode & 0o777)
    backup.unlink()
    _prune(root, backup.parent)
    report.restored.append(rel)
    return True


def _prune(root: Path, folder: Path) -> None:
    """Remove ``folder`` and its parents while empty, up to the layout's kept folders."""
    real_root = root.resolve()
    while folder.resolve() != real_root and folder.relative_to(root).as_posix() not in KEPT_FOLDERS:
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to remove): stop here
            return
        folder = folder.parent


def _remove_hooks(
    root: Path, entries: list[RecordEntry], report: UninstallReport, record: InstallRecord
) -> None:
    hooks = [h for e in entries for h in e.hooks]
    if not hooks:
        return
    settings, why = read_json_object(root, SETTINGS_FILE, "hooks")
    if settings is None:  # cannot look: every hook stays recorded
        for e in entries:
            for h in e.hooks:
                path = f"{SETTINGS_FILE}#{h.where}"
                report.kept[path] = e.kept[path] = why
        return
    left, removed, missing = remove_hooks(settings, hooks)
    report.removed += [f"{SETTINGS_FILE}#{h.where}" for h in removed]
    for h in missing:  # nothing identifies a changed hook: it is the user's now
        report.kept[f"{SETTINGS_FILE}#{h.where}"] = "changed or removed since it was installed"
    for e in entries:
        for h in e.hooks:
            e.kept.pop(f"{SETTINGS_FILE}#{h.where}", None)
        e.hooks = []
    if removed:
        _write_or_drop(root, SETTINGS_FILE, left, {"hooks": {}}, record)


def _remove_servers(
    root: Path,
    entries: list[RecordEntry],
    report: UninstallReport,
    record: InstallRecord,
    force: bool,
) -> None:
    servers = [(e, name, written) for e in entries for name, written in e.mcp.items()]
    if not servers:
        return
    data, why = read_json_object(root, MCP_FILE, "mcpServers")
    if data is None:  # cannot look: every server stays recorded
        for e, name, _ in servers:
            report.kept[f"{MCP_FILE}#{name}"] = e.kept[f"{MCP_FILE}#{name}"] = why
        return
    current = dict(data.get("mcpServers", {}))
    for e, name, written in servers:
        path = f"{MCP_FILE}#{name}"
        now = current.get(name)
        if now is not None and now != written and not force:
            report.kept[path] = e.kept[path] = CHANGED
            continue
        del e.mcp[name]
        e.kept.pop(path, None)
        if now is not None:
            del current[name]
            report.removed.append(path)
            if now != written:
                report.forced.append(path)
        original = e.replaced_servers.pop(name, None)
        if original is not None:
            current[name] = original
            report.restored.append(path)
        elif now is None:
            report.kept[path] = "removed since it was installed"
    _write_or_drop(root, MCP_FILE, {**data, "mcpServers": current}, {"mcpServers": {}}, record)


def _write_or_drop(
    root: Path, rel: str, data: dict[str, Any], empty: dict[str, Any], record: InstallRecord
) -> None:
    """Write the shared file back (as it was, when its content is the original's again);
    delete it instead when an install created it and nothing but the empty container is
    left."""
    if data == empty and rel in record.created:
        safe_destination(root, rel).unlink(missing_ok=True)
        record.created.discard(rel)
        return
    write_back(root, rel, data, record)
