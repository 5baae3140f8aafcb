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

A server whose only changes are values install asked the user to fill in (placeholders:
`filled_in`) counts as unchanged: it goes, the report naming those values.
A file or server the user changed since is kept and stays in the record, marked with
why: a later uninstall finds it again (``force`` removes it as it is; once the user
undoes the change or deletes it, a plain uninstall finishes). A file or server already
gone, and a hook no longer found (changed or removed: nothing identifies it any more),
is reported (``gone``) and forgotten: nothing is left to take back, so it does not fail the
uninstall, unless a hook's command still stands in ``settings.json`` (a changed hook, the
user's now: kept). A file that a hook left in ``settings.json`` still runs is kept too,
``force`` or not (`hook_scripts`): hooks are taken back first, and a script goes only
once no hook runs it. When ``settings.json`` or ``.mcp.json`` cannot be read and a
component has a hook, a hook script or a server there, nothing is changed at all:
removing its files while its hook stays would leave a hook that runs a script no longer
there; nor what a component that stays requires, without ``force`` (`still_required`).
Components are named as ``install`` took them: by id, by name, or by the plugin that
brought them. Each project sharing a ``.claude`` takes back its own ``.mcp.json`` servers
(`record_projects`); its record's folder keeps its ``.gitignore``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from skill_retriever.components.install.as_before import (
    prune_empty,
    remove_empty_folders,
    write_back,
)
from skill_retriever.components.install.brought import taken_along
from skill_retriever.components.install.filled_in import filled_in
from skill_retriever.components.install.hook_fields import what_it_runs
from skill_retriever.components.install.hook_keys import hook_path, record_keys
from skill_retriever.components.install.hook_scripts import hook_commands, run_by, runs
from skill_retriever.components.install.install_args import check_path, check_switches, ids_given
from skill_retriever.components.install.inventory import (
    InstallRecord,
    RecordEntry,
    backup_path,
    sha256,
)
from skill_retriever.components.install.layout import (
    MCP_FILE,
    RECORD_FILE,
    SETTINGS_FILE,
)
from skill_retriever.components.install.local_hooks import still_local
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.picked import pick
from skill_retriever.components.install.plan import HookEntry, InstallError, UnsafePathError
from skill_retriever.components.install.record_folder import drop_record
from skill_retriever.components.install.record_projects import held_elsewhere
from skill_retriever.components.install.settings import remove_hooks
from skill_retriever.components.install.shared_entries import leave_shared
from skill_retriever.components.install.shared_moves import move_shared, moved_paths, planned_moves
from skill_retriever.components.install.still_required import still_required
from skill_retriever.components.install.target import check_writable, install_root
from skill_retriever.components.install.target_lock import holding
from skill_retriever.components.install.uninstall_dry_run import on_a_copy
from skill_retriever.components.install.uninstall_report import CHANGED, UninstallReport, wrote_none
from skill_retriever.components.install.uninstall_shared import read_shared
from skill_retriever.components.install.your_files import your_files
from skill_retriever.fsutil import leftover_temps, write_atomic

__all__ = ["UninstallReport", "uninstall", "uninstall_held"]


def uninstall(
    ids: Iterable[str],
    target: str | Path | None = None,
    *,
    user: bool = False,
    home: str | Path | None = None,
    force: bool = False,
    dry_run: bool = False,
) -> UninstallReport:
    """Remove what installing ``ids`` added to ``target`` (or, with ``user``, the home
    folder's ``.claude`` or ``$CLAUDE_CONFIG_DIR``), keeping whatever changed since, and
    put back what ``force`` replaced at install time.

    Args:
        ids: Component ids or names, or plugin ids or names, as installed (one string is one id).
        force: Remove files and servers the user changed since, too.
        dry_run: Change nothing; the report (not ``applied``) says what the real run
            would do, and ``refused`` why it would change nothing (`uninstall_dry_run`).

    Raises:
        InstallError: A root that is missing or a file, a damaged record, an id the record
            does not hold, a folder that cannot be written, or what goes still required by
            one that stays, without ``force`` (`StillRequiredError`): nothing changes then.
    """
    check_switches("uninstall", user=user, force=force, dry_run=dry_run)  # force="no" would remove your edits
    check_path("uninstall", "target", target)
    check_path("uninstall", "home", home)
    ids = ids_given("uninstall", ids)  # one string is one id, as the CLI takes it
    try:
        root, _ = install_root(target, user, home, must_exist=True)
    except InstallError as exc:  # its words are install's ("give the project folder to install into")
        exc.args = (str(exc).replace("to install into", "to uninstall from"),)
        raise
    with holding(root):  # read, changed and written back as one step
        return uninstall_held(root, ids, force, dry_run=dry_run)


def uninstall_held(root: Path, ids: Iterable[str], force: bool, *, dry_run: bool = False) -> UninstallReport:
    """`uninstall` of ``root`` (resolved) for a caller that holds its install lock already
    (`target_lock.holding`, which is not re-entrant): the MCP tool checks the record and
    removes under one hold."""
    record = InstallRecord.load(root)
    asked = list(ids)  # (read once: an iterator would be spent)
    if dry_run:  # the real run, of a copy; the copy may always be written: say if root may not
        report = on_a_copy(root, record, lambda copy: uninstall_held(copy, asked, force))
        report.refused = refusal(root, record, report.ids, {*report.moved, *report.moved.values()})
        report.yours = your_files(root, report.removed, record)  # the copy holds none of them
        return report
    picked = pick(record, asked)
    chosen = picked.ids
    if not chosen and not picked.plugins and not picked.stayed:  # (stayed: a by-name install taken back)
        raise InstallError("nothing to uninstall: give one or more installed component ids")
    gone = [record.plugins.pop(p) for p in picked.plugins if p in record.plugins]  # members that stay: their own
    along = taken_along(record, chosen)
    chosen += along
    moves = planned_moves(record, gone, chosen)  # a command another plugin holds leaves gone's folder
    if not force and (refused := still_required(record, chosen, asked)) is not None:
        raise refused  # (before anything changed; with force, the report's note names them)
    report = UninstallReport(root, chosen, [record.components[i].name for i in along])
    report.stayed, report.notes = picked.stayed, picked.notes
    entries = [record.components[i] for i in chosen]
    report.notes += [held_elsewhere(e.name, e.elsewhere) for e in entries if e.elsewhere and not e.here] + wrote_none(entries)
    check_writable(root, _to_change(entries) | moved_paths(moves), "and run uninstall again; nothing removed")
    shared = read_shared(root, entries)
    try:
        move_shared(root, moves, report)
        _take_back(root, record, chosen, entries, report, force, shared)
    except OSError as exc:  # made read-only since the check, a disk full, ...
        raise InstallError(
            f"changing {exc.filename or 'a file'} failed ({exc.strerror or exc}); fix that "
            "and run uninstall again: what is still recorded is taken back then"
        ) from exc
    report.yours = your_files(root, report.removed, record)
    return report


def refusal(root: Path, record: InstallRecord, ids: list[str], moved: set[str]) -> str | None:
    """Why uninstalling ``ids`` (what they bring included) and moving ``moved`` (`shared_moves`)
    in ``root`` would be refused for a folder it cannot write, or None: a dry run, which
    uninstalls a copy, cannot see it and would promise what the real run then refuses."""
    entries = [record.components[i] for i in ids if i in record.components]
    try:
        check_writable(root, _to_change(entries) | moved, "before you uninstall; an uninstall now would remove nothing")
    except InstallError as exc:
        return str(exc)
    return None


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


def _take_back(root: Path, record: InstallRecord, chosen: list[str], entries: list[RecordEntry],
               report: UninstallReport, force: bool, shared: dict[str, dict[str, Any]]) -> None:
    staying = [e for i, e in record.components.items() if i not in chosen]
    for entry in entries:
        leave_shared(entry, staying, report.shared, report.runs)
    settings = _remove_hooks(root, entries, report, record, shared.get(SETTINGS_FILE, {}))
    running = hook_commands(settings.get("hooks") or {})
    for entry in entries:
        _remove_files(root, entry, report, force, running)
    _remove_servers(root, entries, report, record, force, shared.get(MCP_FILE, {}))
    for node_id, entry in zip(chosen, entries, strict=True):
        if entry.empty:
            report.copies.update(entry.earlier)
            del record.components[node_id]
        else:
            report.recorded += [p for p, why in entry.kept.items() if why == CHANGED and p not in report.recorded]
            report.left_ids.append(node_id)
    for node_id, entry in zip(chosen, entries, strict=True):
        users = sorted({s.name for s in staying if node_id in s.requires})
        if users and node_id not in record.components:
            report.needed[entry.name] = users
    record.forget(i for i in chosen if i not in record.components)
    record.forget(_idle(record))
    if record.components:
        remove_empty_folders(root, record)
        record.save()
    else:
        drop_record(record)
        remove_empty_folders(root, record)


def _idle(record: InstallRecord) -> list[str]:
    """Forget, and return, the recorded components that hold nothing (a dependency found
    in place as the user's own: the install wrote none of it), that no install asked for,
    and that nothing still recorded requires or lists: one stayed recorded after the
    component that needed it went, as if an install had put it there."""
    needed = {r for e in record.components.values() for r in e.requires}
    listed = {c for p in record.plugins.values() for c in p.components}
    idle = [i for i, e in record.components.items()
            if e.empty and not (e.kept or e.earlier or e.asked) and i not in needed and i not in listed]
    for i in idle:
        del record.components[i]
    return idle


def _remove_files(root: Path, entry: RecordEntry, report: UninstallReport, force: bool, running: list[str]) -> None:
    """Take back ``entry``'s files: each unchanged one (any, with ``force``) that none of
    the ``running`` hook commands runs."""
    for rel, digest in list(entry.files.items()):
        try:
            path = safe_destination(root, rel)
        except UnsafePathError as exc:
            report.kept[rel] = entry.kept[rel] = str(exc)
            continue
        # A copy an install killed mid-write left beside the file (written or never: the
        # record lists it either way) is the install's own, whatever becomes of the file;
        # the target is held, so no writer has one in flight.
        for partial in leftover_temps(path):
            partial.unlink(missing_ok=True)
        if not path.is_file():
            del entry.files[rel]
            entry.kept.pop(rel, None)
            # (removed a moment ago for another component going too: not "gone already")
            restored = _restore_file(root, entry, rel, report)
            if not restored and rel not in report.removed:
                report.gone.append(rel)
            if not restored:  # the folder an install made for it, emptied of the copy
                prune_empty(root, path.parent)
            continue
        if run_by(rel, running) is not None:
            report.kept[rel] = entry.kept[rel] = (
                f"a hook in {SETTINGS_FILE} still runs it; remove that hook, then run uninstall again")
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
            prune_empty(root, path.parent)


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
    prune_empty(root, backup.parent)
    report.restored.append(rel)
    return True


def _remove_hooks(
    root: Path,
    entries: list[RecordEntry],
    report: UninstallReport,
    record: InstallRecord,
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Take ``entries``' hooks out of ``settings`` (written back when one was); returns
    the settings as they are now."""
    hooks: list[HookEntry] = []
    for h in (h for e in entries for h in e.hooks):
        if h not in hooks:  # one hook two going components added is removed once
            hooks.append(h)
    if not hooks:
        return settings
    left, removed, missing = remove_hooks(settings, hooks)
    report.hooks_removed([(hook_path(h, hooks), h) for h in removed])
    report.notes += still_local(root, removed)  # the user's own copy: never edited
    commands = json.dumps(settings.get("hooks"))
    running = hook_commands(left.get("hooks") or {})
    scripts = [rel for e in entries for rel in e.files]
    for h in missing:  # a hook whose command or script still stands was changed: the user's now
        path = hook_path(h, hooks)
        command = what_it_runs(h.hook)  # a prompt hook's prompt, and so on
        if not command:
            report.gone.append(path)
        elif json.dumps(command) in commands:
            report.kept[path] = "changed since it was installed (its command is still there); remove it by hand"
            report.runs[path] = dict(h.hook)  # its line says what it ran, not its key alone
        elif kept := next((rel for rel in scripts if runs(rel, command) and run_by(rel, running)), None):
            report.kept[path] = f"changed since it was installed (a hook there still runs {kept}); remove it by hand"
            report.runs[path] = dict(h.hook)
        else:
            report.gone.append(path)
    for e in entries:
        for key in {k for h in e.hooks for k in record_keys(h)}:  # an old record's key too
            e.kept.pop(key, None)
        e.hooks = []
    if removed:
        _write_or_drop(root, SETTINGS_FILE, left, {"hooks": {}}, record)
    return left


def _remove_servers(
    root: Path,
    entries: list[RecordEntry],
    report: UninstallReport,
    record: InstallRecord,
    force: bool,
    data: dict[str, Any],
) -> None:
    servers = [(e, name, written) for e in entries for name, written in e.mcp.items()]
    if not servers:
        return
    current = dict(data.get("mcpServers", {}))
    for e, name, written in servers:
        path = f"{MCP_FILE}#{name}"
        now = current.get(name)
        filled = [] if now is None else filled_in(written, now)  # placeholders set: not a change
        if filled is None and not force:
            report.kept[path] = e.kept[path] = CHANGED
            continue
        del e.mcp[name]
        e.kept.pop(path, None)
        if now is not None:
            del current[name]
            report.removed.append(path)
            if filled is None:
                report.forced.append(path)
            elif filled:
                report.filled[path] = filled
        original = e.replaced_servers.pop(name, None)
        if original is not None:
            current[name] = original
            report.restored.append(path)
        elif now is None and path not in report.removed:  # (not one removed just now)
            report.gone.append(path)
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
