"""Write a planned install: the install record first, then its files, hooks and servers.

`apply_plan` writes what a plan (`planner.plan_install`) says: the record of what it will
write (so that a process killed half-way leaves what it wrote recorded), then files
atomically, ``settings.json`` and ``.mcp.json`` merged. A plan with
conflicts that were not allowed, or with two components writing one path differently
(clashes), writes nothing; only components with status install
write anything, so a component with a refused or blocked file writes none of its files.
Every destination is checked again right before it is written, and what ``force``
overwrites of the user's own is kept first (`replaced`), as are the text of a shared
JSON file it first changes and which folders it makes (`as_before`). The record says
what each component requires and, for one asked for, what installing it newly added
(`brought`), the names each declares in its own ``conflicts`` (`declared_conflicts`), and
where a command several plugins load goes as none of theirs (`shared_commands`).
`install` plans and writes, holding the target's lock (`target_lock`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skill_retriever.components.install.as_before import (
    keep_original,
    missing_folders,
    note_folders,
    prune_empty,
    remove_empty_folders,
)
from skill_retriever.components.install.brought import note_brought
from skill_retriever.components.install.changed_hooks import put_back
from skill_retriever.components.install.hook_keys import kept_keys
from skill_retriever.components.install.install_args import check_path, check_switches
from skill_retriever.components.install.inventory import (
    InstallRecord,
    RecordEntry,
    backup_path,
    sha256,
)
from skill_retriever.components.install.layout import MCP_FILE, RECORD_FILE, SETTINGS_FILE
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import (
    FileAction,
    HookEntry,
    InstallError,
    InstallPlan,
)
from skill_retriever.components.install.planner import plan_install, resolve_id
from skill_retriever.components.install.plugin_members import record_plugins
from skill_retriever.components.install.replaced import KeptCopy, keep_file, keep_server, undo_kept
from skill_retriever.components.install.settings import (
    merge_hooks,
    read_json_object,
    remove_hooks,
    write_json,
)
from skill_retriever.components.install.target import (
    TargetRefusedError,
    check_creatable,
    check_writable,
    install_root,
)
from skill_retriever.components.install.target_lock import holding
from skill_retriever.fsutil import leftover_temps, write_atomic

if TYPE_CHECKING:
    from skill_retriever.components.view import CallerView
    from skill_retriever.stores.index import Index

#: `plan_install`, `resolve_id` and `install_root` are re-exported: they lived here.
__all__ = ["apply_plan", "install", "install_root", "plan_install", "resolve_id"]


def apply_plan(plan: InstallPlan) -> InstallPlan:
    """Write what ``plan`` says (components with status install), then the record.

    Raises:
        InstallError: The plan holds conflicts that were not allowed, or clashes, or a
            shared JSON file changed into something unusable since it was planned.
    """
    if plan.refused_for_conflicts:
        raise InstallError("; ".join(plan.conflict_lines()) + "; allow conflicts to install anyway")
    if plan.clashes:
        raise InstallError(
            "; ".join(plan.clash_lines()) + "; leave one of each pair out, or install them "
            "into separate targets; nothing written"
        )
    root = plan.target
    check_creatable(root, plan.scope)
    if _writes_nothing(plan):  # a read-only target refuses no install that changes nothing
        return replace(plan, applied=True)
    check_writable(root, _to_write(plan), "or install somewhere else; nothing written")
    missing = missing_folders(root)
    try:
        root.mkdir(exist_ok=True)  # its parent was there when planned (`install_root`)
    except OSError as exc:  # gone since; or a folder nothing can be made in (/proc)
        why = "the folder holding it is gone" if not root.parent.is_dir() else exc.strerror or str(exc)
        raise InstallError(f"cannot make the target folder {root}: {why}; nothing written") from exc
    record = InstallRecord.load(root)
    pristine = copy.deepcopy(record)  # put back should nothing be written
    written: list[str] = []
    kept: list[KeptCopy] = []  # copies of the user's that force keeps, taken back on failure
    try:
        _write(plan, record, missing, written, kept)
    except OSError as exc:  # a disk full, a folder made read-only since the check
        raise InstallError(_failed(exc, record, pristine, missing, written, kept)) from exc
    return replace(plan, applied=True)


def _writes_nothing(plan: InstallPlan) -> bool:
    """Applying ``plan`` would write no file or entry, and would save the install record
    as it is (every component unchanged, and recorded so already): then nothing is
    written at all, and the target need not be writable (nor made: an install that skips
    every component left an empty project folder where the user pointed)."""
    paths = _to_write(plan)
    if not paths:  # no component installed or recorded: not even the record
        return True
    if paths - {RECORD_FILE} or not plan.target.is_dir():
        return False
    try:
        record = InstallRecord.load(plan.target)
    except InstallError:  # damaged, or read through a link to nothing: the real path says so
        return False
    pristine = copy.deepcopy(record)
    files, merged = _note(plan, record, [])
    return not (files or merged) and record == pristine


def _write(
    plan: InstallPlan, record: InstallRecord, missing: list[str], written: list[str], kept: list[KeptCopy]
) -> None:
    """Record the plan, then write its files and entries; ``written`` grows with each path
    written, for the message should a later write fail, and ``kept`` with each copy of the
    user's kept before ``force`` overwrites it (`replaced`).

    The record is saved before the first file is written: a process killed half-way
    (``kill -9``, a power cut) leaves every file it wrote recorded, so that `uninstall`
    takes them back and installing again completes the install. What it lists but never
    wrote, uninstall finds gone already (nothing to take back)."""
    files, merged = _note(plan, record, kept)
    if record.components:
        note_folders(record, missing, [f.path for _, f in files])
        record.save()
    for dest, f in files:
        for partial in leftover_temps(dest):  # an earlier install killed mid-copy (the target is held)
            partial.unlink(missing_ok=True)
        write_atomic(dest, f.content, f.mode)
        written.append(f.path)
    for rel, change, data in merged:
        write_json(plan.target, rel, change(data))
        written.append(rel)


#: A shared JSON file to change: its path, the change, and its data now.
_Merge = tuple[str, Callable[[dict[str, Any]], dict[str, Any]], dict[str, Any]]


def _note(
    plan: InstallPlan, record: InstallRecord, kept: list[KeptCopy]
) -> tuple[list[tuple[Path, FileAction]], list[_Merge]]:
    """Note in ``record`` what applying ``plan`` installs, and return the files to write
    and the shared JSON files to change; nothing but the copies of the user's files that
    ``force`` replaces (``kept``) is written yet."""
    root = plan.target
    before = set(record.components)
    current, _ = read_json_object(root, MCP_FILE, "mcpServers")
    current_servers = (current or {}).get("mcpServers", {})
    servers: dict[str, Mapping[str, Any]] = {}
    hooks: list[HookEntry] = []
    unhook: list[HookEntry] = []
    replaced: list[tuple[HookEntry, HookEntry]] = []  # the user's changed hook, the installed one
    files: list[tuple[Path, FileAction]] = []
    for c in plan.components:
        if c.status not in ("install", "unchanged"):
            continue
        entry = record.components.setdefault(c.id, RecordEntry(c.kind, c.name))
        entry.conflicts = list(plan.declares.get(c.id, ()))  # as this version declares them
        entry.dependency_path = plan.dependency_paths.get(c.id, "")  # (`shared_moves`)
        for f in c.files:
            if f.action in ("create", "overwrite", "unchanged"):
                for key in kept_keys(f):  # as installed again: no longer the user's change
                    entry.kept.pop(key, None)
            if c.status == "install" and f.action == "remove":
                _retire(root, entry, f, unhook)
                continue
            if c.status != "install" or f.action not in ("create", "overwrite"):
                continue
            if f.hook is not None:
                hooks.append(f.hook)
                if f.replaces is not None:
                    replaced.append((f.replaces, f.hook))
                if f.hook not in entry.hooks:  # installed again over the user's change: once
                    entry.hooks.append(f.hook)
            elif f.mcp_entry is not None:
                name = f.path.split("#", 1)[1]
                old = current_servers.get(name)
                if f.action == "overwrite" and old is not None:
                    keep_server(record, entry, name, old, kept)
                servers[name] = f.mcp_values if f.mcp_values is not None else f.mcp_entry  # the user's values kept
                entry.mcp[name] = dict(f.mcp_entry)
            else:
                dest = safe_destination(root, f.path)
                if f.action == "overwrite":
                    keep_file(record, entry, f.path, dest, kept)
                entry.files[f.path] = sha256(f.content)
                files.append((dest, f))
    _claim_shared(plan, record)
    record_plugins(plan, record)
    note_brought(plan, record, before)
    merges: list[tuple[str, str, Callable[[dict[str, Any]], dict[str, Any]], bool]] = [
        (MCP_FILE, "mcpServers", lambda d: {**d, "mcpServers": {**d.get("mcpServers", {}), **servers}}, bool(servers)),
        (SETTINGS_FILE, "hooks", lambda d: merge_hooks(remove_hooks(put_back(d, replaced), unhook)[0], hooks),
         bool(hooks or unhook)),
    ]
    merged = [(rel, change, _before_merge(root, rel, key, record)) for rel, key, change, needed in merges if needed]
    return files, merged


def _retire(root: Path, entry: RecordEntry, f: FileAction, unhook: list[HookEntry]) -> None:
    """Take out what an earlier version of the component wrote and this one no longer has
    (`retired`): a hook joins ``unhook``; a file goes if it is still as recorded (it may
    have changed since the plan was made: then it stays, recorded). A removed file is not
    among ``written`` (what a failure later asks to remove by hand); should the record
    then not be saved, it still lists the file, which uninstall reports gone already."""
    if f.hook is not None:
        entry.hooks = [h for h in entry.hooks if h != f.hook]
        unhook.append(f.hook)
        return
    dest = safe_destination(root, f.path)
    if not dest.is_file() or sha256(dest.read_bytes()) != entry.files.get(f.path):
        return
    dest.unlink()
    del entry.files[f.path]
    prune_empty(root, dest.parent)


def _claim_shared(plan: InstallPlan, record: InstallRecord) -> None:
    """A component whose file, hook or server is in place already, exactly as an install
    wrote it (copies of one file written once for two components, one hook that two
    components ship, a server an earlier install added), records it as its own too: an
    uninstall of the other component then leaves it for this one. What the user put there
    is no install's, and stays unrecorded."""
    for c in plan.components:
        if c.status not in ("install", "unchanged"):
            continue
        entry = record.components[c.id]
        for f in c.files:
            if f.action != "unchanged":
                continue
            if f.hook is not None:
                if record.owns_hook(f.hook) and f.hook not in entry.hooks:
                    entry.hooks.append(f.hook)
            elif f.mcp_entry is not None:
                name = f.path.split("#", 1)[1]
                if record.owns_server(name, f.mcp_entry):
                    entry.mcp[name] = dict(f.mcp_entry)
            elif f.content is not None and record.owns_file(f.path, digest := sha256(f.content)):
                entry.files[f.path] = digest


def _to_write(plan: InstallPlan) -> set[str]:
    """The paths, relative to the root, that applying ``plan`` may write (the install
    record and, with ``force``, the backups of replaced files among them)."""
    out: set[str] = set()
    for c in plan.components:
        if c.status in ("install", "unchanged"):
            out.add(RECORD_FILE)  # it records the unchanged ones too
        if c.status != "install":
            continue
        for f in c.files:
            entry = f.hook is not None or f.mcp_entry is not None
            if f.action in ("create", "overwrite", "remove"):
                out.add(f.path.split("#", 1)[0] if entry else f.path)
            if f.action == "overwrite" and not entry:
                out.add(backup_path(f.path))
    return out


def _failed(
    exc: OSError,
    record: InstallRecord,
    pristine: InstallRecord,
    missing: list[str],
    written: list[str],
    kept: list[KeptCopy],
) -> str:
    """The one-line error of an install that failed half-way (``written``: what it wrote
    before). What it wrote is recorded, so that ``uninstall`` takes it back; when it wrote
    nothing, the record is put back as it was (it may list what was planned), and so are
    the copies ``force`` kept (``kept``), which that record would not name."""
    what = f"writing {exc.filename or 'a file'} failed ({exc.strerror or exc})"
    try:
        if not written:
            undo_kept(record.root, kept)
            if pristine.components:
                pristine.save()
            else:
                record.remove()
                remove_empty_folders(record.root, record)
            return f"{what}; nothing written"
        note_folders(record, missing)
        record.save()
    except OSError as again:
        done = f"after writing {', '.join(written)} " if written else ""
        return (
            f"{what}, {done}and the install record could not be written either "
            f"({again.strerror or again}): remove what it wrote by hand"
        )
    return (
        f"{what}; what it wrote is recorded: `uninstall` takes it back, or fix that and "
        "install again"
    )


def _before_merge(root: Path, rel: str, key: str, record: InstallRecord) -> dict[str, Any]:
    """The shared JSON file ``rel`` as it is now, to merge into; recorded as created by the
    install when it is not there, else its text kept (`keep_original`)."""
    data, why = read_json_object(root, rel, key)
    if data is None:
        raise InstallError(why)
    path = safe_destination(root, rel)
    if not path.exists():
        record.created.add(rel)
    keep_original(record, rel, path)
    return data


def install(
    source: Index | CallerView,
    ids: Iterable[str],
    target: str | Path | None = None,
    *,
    principals: Iterable[str] | None = None,
    force: bool = False,
    dry_run: bool = False,
    with_dependencies: bool = True,
    allow_conflicts: bool = False,
    user: bool = False,
    home: str | Path | None = None,
    hold_credentials: bool = False,
) -> InstallPlan:
    """Plan, and unless ``dry_run`` or refused whole, write ``ids`` and what they require
    (arguments as `plan_install`). A plan refused whole comes back with ``applied``
    False, ``ok`` False and its ``conflicts`` or ``clashes``; nothing is written. A dry run's plan says
    in ``refused`` (``ok`` False) why installing it for real would be refused; one string
    is one id, as `plan_install` reads it."""
    check_switches("install", dry_run=dry_run)  # the rest `plan_install` checks
    check_path("install", "target", target)

    def planned() -> InstallPlan:
        return plan_install(
            source,
            ids,
            target,
            principals=principals,
            force=force,
            with_dependencies=with_dependencies,
            allow_conflicts=allow_conflicts,
            user=user,
            home=home,
            hold_credentials=hold_credentials,
        )

    if dry_run:
        return _as_refused(planned())
    with holding(install_root(target, user, home)[0]):  # planned and written as one step
        plan = planned()
        if plan.refused_whole:
            return plan
        try:
            return apply_plan(plan)
        except TargetRefusedError as exc:  # the plan goes with it: its answer is the dry run's
            exc.plan = replace(plan, refused=str(exc))
            raise


def _as_refused(plan: InstallPlan) -> InstallPlan:
    """A dry run's plan with the refusal `apply_plan` would raise for its target (a folder
    it cannot write or make) in ``refused``: a dry run silent about it let the user
    believe the real install would work, until that one refused."""
    if plan.refused_whole or _writes_nothing(plan):
        return plan  # refused already, and said why; or nothing to write, as the real run
    try:
        check_creatable(plan.target, plan.scope)
        check_writable(
            plan.target, _to_write(plan), "or install somewhere else; an install would write nothing"
        )
    except InstallError as exc:
        return replace(plan, refused=str(exc))
    return plan
