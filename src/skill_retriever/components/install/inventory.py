"""What a root already holds, and the record of what each install added to it.

Installed components are found two ways: the `layout` table's own-file patterns and the
servers of ``.mcp.json`` (whatever put them there: an install or the user), and the
install record (``.claude/.skill-retriever/installed.json``), which also knows hooks (they
have no file of their own) and the index id of what it installed.

The record, per component id: its kind and name, the files the install wrote with the
SHA-256 of what it wrote, the ``settings.json`` hooks it added, the ``.mcp.json`` servers
it added, what ``force`` replaced that was the user's own (a server's old entry; a file's
SHA-256, the file itself kept under ``BACKUP_DIR``; earlier versions of it that ``force``
replaced, kept there too), and what an uninstall kept because
the user changed it since (path -> why); whether an install was asked for it by name,
the ids it requires directly, and (for one asked for) the dependencies installing it
newly added, and the names it declares in its own ``conflicts`` (a hook's or a server's
entry keeps none: `unseen` reads them here), and, for a command several plugins load, where
it goes as none of theirs (`shared_moves`); per plugin id, its name and the components
installing it brought; which shared JSON files an install created, and the original text
of those it first changed; and which folders an install created. Uninstall reads it to take back exactly that, put
back what was replaced, and nothing a user changed since. Keys a record of an older
version lacks read as empty. What lies in a project's ``.mcp.json`` is kept per project
(`record_projects`): projects may share one ``.claude``, and so one record.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skill_retriever.components.install.claude_folder import layout_rel
from skill_retriever.components.install.layout import (
    BACKUP_DIR,
    LAYOUT,
    MCP_FILE,
    RECORD_FILE,
    RECORD_IGNORE,
    RECORD_IGNORE_TEXT,
    scan_files,
)
from skill_retriever.components.install.paths import name_key, safe_destination
from skill_retriever.components.install.plan import HookEntry, InstallError, UnsafePathError
from skill_retriever.components.install.plugin_entry import PluginRecord
from skill_retriever.components.install.record_entry import RecordEntry
from skill_retriever.components.install.record_projects import (
    joined,
    project_of,
    record_parts,
    split,
)
from skill_retriever.components.install.settings import read_json_object, write_json
from skill_retriever.components.install.target import existing_folder
from skill_retriever.fsutil import write_atomic
from skill_retriever.model import NodeKind

if TYPE_CHECKING:
    from skill_retriever.components.view import CallerView
    from skill_retriever.stores.index import Index

__all__ = [
    "INSTALLABLE",
    "InstallRecord",
    "InstalledComponent",
    "PluginRecord",
    "RecordEntry",
    "backup_path",
    "installed_components",
    "match_installed",
    "sha256",
]

INSTALLABLE = frozenset(LAYOUT)
RECORD_FORMAT = 1


def backup_path(rel: str) -> str:
    """Where ``force`` keeps the user's file it replaced at ``rel``."""
    return f"{BACKUP_DIR}/{rel}"


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class InstalledComponent:
    """A component found in a root: its kind, its names (the file or folder name and,
    when given, the frontmatter or recorded name), where, and its index id when the
    install record knows it."""

    kind: NodeKind
    names: tuple[str, ...]
    path: str
    id: str | None = None


@dataclass
class InstallRecord:
    """The record file of one root (empty when there is none)."""

    root: Path
    components: dict[str, RecordEntry] = field(default_factory=dict)
    created: set[str] = field(default_factory=set)  # shared JSON files an install created
    plugins: dict[str, PluginRecord] = field(default_factory=dict)
    #: shared JSON file -> its text before an install first changed it
    originals: dict[str, str] = field(default_factory=dict)
    #: folders an install created (``.`` the root itself), removed again once empty
    folders: set[str] = field(default_factory=set)
    #: another project sharing this ``.claude`` -> whether an install created its
    #: ``.mcp.json`` and that file's text before, as JSON (`record_projects`)
    elsewhere: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path) -> InstallRecord:
        """Read the record.

        Raises:
            InstallError: It exists and cannot be read (fix or move it: installing over
                it would forget what earlier installs added).
        """
        data, why = read_json_object(root, RECORD_FILE, "components") if root.is_dir() else ({}, "")
        if data is None:
            raise InstallError(why)
        project = project_of(root)
        try:
            components = {
                str(k): RecordEntry.from_json(v, project) for k, v in (data.get("components") or {}).items()
            }
            plugins = {
                str(k): PluginRecord.from_json(v) for k, v in (data.get("plugins") or {}).items()
            }
            parts, elsewhere = split(data, record_parts(data), project)
            ours = record_parts(data)
            originals = {  # a text that is not one is never written back
                str(k): v
                for k, v in {**(data.get("originals") or {}), **parts["originals"]}.items()
                if isinstance(v, str) and (k not in ours["originals"] or k in parts["originals"])
            }
            created = {str(p) for p in data.get("created") or [] if p not in ours["created"]}
            created |= {str(p) for p in parts["created"]}
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise InstallError(
                f"the install record {RECORD_FILE} is damaged ({exc}); fix or move it first"
            ) from exc
        folders = {str(p) for p in data.get("folders") or []}
        return cls(root, components, created, plugins, originals, folders, elsewhere)

    def save(self) -> None:
        project = project_of(self.root)
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "components": {k: v.to_json(project) for k, v in sorted(self.components.items())},
            "created": sorted(self.created),
            **joined(record_parts({"created": self.created, "originals": self.originals}), self.elsewhere, project),
        }
        if self.plugins:
            data["plugins"] = {k: v.to_json() for k, v in sorted(self.plugins.items())}
        if self.originals:
            data["originals"] = dict(sorted(self.originals.items()))
        if self.folders:
            data["folders"] = sorted(self.folders)
        # Owner only: it may hold the text of a git-ignored .mcp.json (`originals`).
        write_json(self.root, RECORD_FILE, data, mode=0o600)
        ignore = safe_destination(self.root, RECORD_IGNORE)
        if not ignore.exists():
            write_atomic(ignore, RECORD_IGNORE_TEXT)

    def forget(self, ids: Iterable[str]) -> None:
        """Drop ``ids`` from the plugins' and the components' brought lists, and a plugin
        left with none."""
        gone = set(ids)
        for plugin_id, plugin in list(self.plugins.items()):
            plugin.components = [c for c in plugin.components if c not in gone]
            plugin.required = [c for c in plugin.required if c not in gone]
            if not plugin.components:
                del self.plugins[plugin_id]
        for entry in self.components.values():
            entry.brought = [c for c in entry.brought if c not in gone]

    def owns_file(self, rel: str, digest: str) -> bool:
        """Some install wrote exactly this content at ``rel`` (it is not the user's)."""
        return any(e.files.get(rel) == digest for e in self.components.values())

    def owns_hook(self, hook: HookEntry) -> bool:
        """Some install added exactly this ``settings.json`` hook."""
        return any(hook in e.hooks for e in self.components.values())

    def owns_server(self, name: str, entry: Any) -> bool:
        """Some install wrote exactly this ``.mcp.json`` entry."""
        return any(e.mcp.get(name) == entry for e in self.components.values())

    def remove(self) -> None:
        """Delete the record file (nothing is recorded any more)."""
        try:
            path = safe_destination(self.root, RECORD_FILE)
        except UnsafePathError:
            return
        path.unlink(missing_ok=True)
        ignore = path.with_name(RECORD_IGNORE.rsplit("/", 1)[1])  # beside it; ours if our text
        if ignore.is_file() and not ignore.is_symlink() and ignore.read_text("utf-8", "replace") == RECORD_IGNORE_TEXT:
            ignore.unlink()
        try:
            path.parent.rmdir()
        except OSError:  # something else lives there: keep the folder
            pass


def _front_name(path: Path) -> str | None:
    from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter

    try:
        text = path.read_text(encoding="utf-8", errors="replace")
        name = parse_frontmatter(text).fields.get("name")
    except (OSError, FrontmatterError):
        return None
    return name.strip() if isinstance(name, str) and name.strip() else None


def installed_components(target: str | Path) -> list[InstalledComponent]:
    """The components a root already holds (see the module docstring)."""
    root = Path(target)
    if not root.is_dir():
        return []
    found: list[InstalledComponent] = []
    for kind, name, path in scan_files(root):
        names = tuple(dict.fromkeys(n for n in (name, _front_name(path)) if n))
        found.append(InstalledComponent(kind, names, layout_rel(root, path)))
    data, _ = read_json_object(root, MCP_FILE, "mcpServers")
    for server in (data or {}).get("mcpServers", {}):
        found.append(
            InstalledComponent(NodeKind.MCP_SERVER, (str(server),), f"{MCP_FILE}#{server}")
        )
    try:
        record = InstallRecord.load(root)
    except InstallError:
        return found  # a damaged record: what the layout shows is still true
    for node_id, entry in record.components.items():
        if entry.elsewhere and not entry.here:  # its server is another project's (a shared .claude)
            continue
        kind = NodeKind(entry.kind)
        found.append(InstalledComponent(kind, (entry.name,), entry.first_path, node_id))
    return found


def match_installed(source: Index | CallerView, target: str | Path) -> dict[str, str]:
    """Ids of the visible components installed in ``target`` -> where.

    A component matches by the id the install record holds, or by kind and name. Only
    what ``source`` shows counts (an `Index` is seen with no principals: public items).

    Raises:
        InstallError: ``target`` is not an existing folder (a typo must not read as
            "nothing installed there").
    """
    from skill_retriever.components.view import as_view

    view = as_view(source, None)
    installed = installed_components(existing_folder(target))
    if not installed:
        return {}
    out: dict[str, str] = {}
    by_key: dict[tuple[NodeKind, str], str] = {}
    for item in installed:
        if item.id is not None and view.sees(item.id):
            out[item.id] = item.path
        for name in item.names:
            by_key.setdefault((item.kind, name_key(name)), item.path)
    for node in _installable(view.nodes.values()):
        where = by_key.get((node.kind, name_key(node.name)))
        if where is not None:
            out.setdefault(node.id, where)
    return out


def _installable(nodes: Iterable[Any]) -> Iterable[Any]:
    return (n for n in nodes if n.kind in INSTALLABLE)
