"""Take back what installs added to a root, and nothing a user changed since.

Reads the install record (`inventory.InstallRecord`): a file is removed only when its
SHA-256 still equals what the install wrote (else it is kept and reported), a
``settings.json`` hook only when an equal hook still sits under its event and matcher, an
``.mcp.json`` server only when its entry is still the one written. Folders the removal
empties go too (never ``.claude`` or its kind folders), and so does a shared JSON file an
install created once nothing is left in it. The index is not needed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.components.install.apply import install_root
from skill_retriever.components.install.inventory import InstallRecord, RecordEntry, sha256
from skill_retriever.components.install.layout import (
    KEPT_FOLDERS,
    MCP_FILE,
    RECORD_FILE,
    SETTINGS_FILE,
)
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import InstallError, UnsafePathError
from skill_retriever.components.install.settings import read_json_object, remove_hooks, write_json

__all__ = ["UninstallReport", "uninstall"]


@dataclass
class UninstallReport:
    """What an uninstall did.

    Attributes:
        removed: Paths and entries taken out (``.mcp.json#server``,
            ``.claude/settings.json#hooks.<Event>[<matcher>]``).
        kept: Path -> why it stayed (changed since the install, or gone already).
    """

    target: Path
    ids: list[str]
    removed: list[str] = field(default_factory=list)
    kept: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Everything the installs added was taken back."""
        return not self.kept

    def lines(self) -> list[str]:
        out = [f"target: {self.target}"]
        out += [f"  removed {p}" for p in self.removed]
        out += [f"  kept {p}: {why}" for p, why in self.kept.items()]
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": str(self.target),
            "ids": list(self.ids),
            "ok": self.ok,
            "removed": list(self.removed),
            "kept": dict(self.kept),
        }


def _pick(record: InstallRecord, refs: Iterable[str]) -> list[str]:
    """Recorded ids for ``refs`` (ids, or names that name one recorded component)."""
    out: list[str] = []
    for ref in refs:
        if ref in record.components:
            out.append(ref)
            continue
        named = [i for i, e in record.components.items() if e.name.casefold() == ref.casefold()]
        if len(named) != 1:
            listing = ", ".join(sorted(record.components)[:10]) or "nothing"
            what = "several" if named else "no"
            raise InstallError(
                f"{what} component {ref!r} installed in {record.root} by skill-retriever "
                f"(its record {RECORD_FILE} lists {listing}); give a recorded id"
            )
        out.append(named[0])
    return list(dict.fromkeys(out))


def uninstall(
    ids: Iterable[str],
    target: str | Path | None = None,
    *,
    user: bool = False,
    home: str | Path | None = None,
) -> UninstallReport:
    """Remove what installing ``ids`` added to ``target`` (or the home folder's
    ``.claude`` with ``user``), keeping whatever changed since.

    Raises:
        InstallError: A root that is a file, a damaged record, or an id the record does
            not hold.
    """
    root, _ = install_root(target, user, home)
    record = InstallRecord.load(root)
    chosen = _pick(record, ids)
    if not chosen:
        raise InstallError("nothing to uninstall: give one or more installed component ids")
    report = UninstallReport(root, chosen)
    entries = [record.components.pop(i) for i in chosen]
    for entry in entries:
        _remove_files(root, entry, report)
    _remove_hooks(root, entries, report, record)
    _remove_servers(root, entries, report, record)
    if record.components:
        record.save()
    else:
        record.remove()
    return report


def _remove_files(root: Path, entry: RecordEntry, report: UninstallReport) -> None:
    for rel, digest in entry.files.items():
        try:
            path = safe_destination(root, rel)
        except UnsafePathError as exc:
            report.kept[rel] = str(exc)
            continue
        if not path.is_file():
            report.kept[rel] = "gone already"
            continue
        if sha256(path.read_bytes()) != digest:
            report.kept[rel] = "changed since it was installed"
            continue
        path.unlink()
        report.removed.append(rel)
        _prune(root, path.parent)


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
    if settings is None:
        for h in hooks:
            report.kept[f"{SETTINGS_FILE}#{h.where}"] = why
        return
    left, removed, missing = remove_hooks(settings, hooks)
    report.removed += [f"{SETTINGS_FILE}#{h.where}" for h in removed]
    for h in missing:
        report.kept[f"{SETTINGS_FILE}#{h.where}"] = "changed or removed since it was installed"
    if removed:
        _write_or_drop(root, SETTINGS_FILE, left, {"hooks": {}}, record)


def _remove_servers(
    root: Path, entries: list[RecordEntry], report: UninstallReport, record: InstallRecord
) -> None:
    servers = {name: entry for e in entries for name, entry in e.mcp.items()}
    if not servers:
        return
    data, why = read_json_object(root, MCP_FILE, "mcpServers")
    if data is None:
        for name in servers:
            report.kept[f"{MCP_FILE}#{name}"] = why
        return
    current = dict(data.get("mcpServers", {}))
    for name, entry in servers.items():
        if current.get(name) == entry:
            del current[name]
            report.removed.append(f"{MCP_FILE}#{name}")
        else:
            report.kept[f"{MCP_FILE}#{name}"] = "changed or removed since it was installed"
    _write_or_drop(root, MCP_FILE, {**data, "mcpServers": current}, {"mcpServers": {}}, record)


def _write_or_drop(
    root: Path, rel: str, data: dict[str, Any], empty: dict[str, Any], record: InstallRecord
) -> None:
    """Write the shared file back; delete it instead when an install created it and
    nothing but the empty container is left."""
    if data == empty and rel in record.created:
        safe_destination(root, rel).unlink(missing_ok=True)
        record.created.discard(rel)
        return
    write_json(root, rel, data)
