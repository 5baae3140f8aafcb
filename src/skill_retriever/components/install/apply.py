"""Plan an install, and write it.

`plan_install` resolves the ids (or unique names; a plugin stands for its members: the
components with a PART_OF edge to it) in the caller's view, adds what they require,
checks CONFLICTS_WITH pairs within the set and against what the root already holds, and
says for each file, hook and server what would happen. `apply_plan` writes it: files
atomically, ``settings.json`` and ``.mcp.json`` merged, then the install record. A plan
with conflicts that were not allowed writes nothing.

Safety: an existing file that differs is never overwritten without ``force`` (an
identical one is "unchanged"); a component with a refused or blocked file writes none of
its files; every destination is checked again right before it is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skill_retriever.components.closure import dependency_closure
from skill_retriever.components.conflicts import find_conflicts
from skill_retriever.components.install.inventory import (
    INSTALLABLE,
    InstallRecord,
    PluginRecord,
    RecordEntry,
    backup_path,
    match_installed,
    sha256,
)
from skill_retriever.components.install.layout import MCP_FILE, SETTINGS_FILE
from skill_retriever.components.install.paths import safe_destination, server_key
from skill_retriever.components.install.plan import (
    Action,
    ComponentPlan,
    FileAction,
    InstallError,
    InstallPlan,
    Scope,
    Status,
    UnknownComponentError,
    UnsafePathError,
)
from skill_retriever.components.install.render import FileOut, Rendered, SkipComponent, render
from skill_retriever.components.install.settings import (
    check_settings,
    has_hook,
    merge_hooks,
    read_json_object,
    write_json,
)
from skill_retriever.components.view import CallerView, as_view
from skill_retriever.fsutil import write_atomic
from skill_retriever.model import EdgeKind, Node, NodeKind

if TYPE_CHECKING:
    from skill_retriever.stores.index import Index

__all__ = ["apply_plan", "install", "install_root", "plan_install", "resolve_id"]


def install_root(
    target: str | Path | None,
    user: bool,
    home: str | Path | None,
    *,
    must_exist: bool = False,
) -> tuple[Path, Scope]:
    """The root to write into and its scope.

    An empty target is refused: it would mean the working folder of whoever runs the
    install (an MCP server's, say). Whether a missing root may be made is checked when
    writing (`check_creatable`): a plan of a folder yet to be made writes nothing.

    Args:
        must_exist: The root itself must exist (uninstalling).

    Raises:
        InstallError: Neither or both of a target and ``user`` were given, the target is
            empty or a file, or (with ``must_exist``) the folder is missing.
    """
    if user == (target is not None):
        raise InstallError(
            "give either a target project folder or user=True (--user), not both or neither"
        )
    if not user and not str(target).strip():
        raise InstallError("the target folder is empty; give the project folder to install into")
    root = (
        Path(home).expanduser()
        if user and home is not None
        else Path.home()
        if user
        else Path(str(target))
    )
    root = root.expanduser().absolute()
    if root.exists() and not root.is_dir():
        raise InstallError(f"target {root} is a file; give the project folder to install into")
    if not root.exists() and must_exist:
        what = "home folder" if user else "target folder"
        raise InstallError(f"{what} {root} does not exist; nothing is installed there")
    return root, "user" if user else "project"


def check_creatable(root: Path, scope: Scope) -> None:
    """Refuse to write into ``root`` unless it is a folder, or a new one right inside an
    existing folder: an install makes at most that one folder (a new project, the home
    of a fresh account), never a chain of them, so a mistyped path (``/nonexistent/dir``)
    creates nothing.

    Raises:
        InstallError: Neither ``root`` nor its parent folder exists.
    """
    if root.is_dir() or root.parent.is_dir():
        return
    what = "home folder" if scope == "user" else "target folder"
    raise InstallError(
        f"{what} {root} does not exist, nor does {root.parent}; check the path (an install "
        "creates at most the folder itself, inside an existing one); nothing written"
    )


def resolve_id(
    source: Index | CallerView, ref: str, *, principals: Iterable[str] | None = None
) -> str:
    """A visible node id, or the id of the one visible installable component (or plugin)
    of that name.

    Raises:
        UnknownComponentError: Nothing, or several components, answer to ``ref``.
    """
    view = as_view(source, principals)
    if ref in view:
        return ref
    kinds = INSTALLABLE | {NodeKind.PLUGIN}
    named = [n for n in view.named(ref) if n.kind in kinds]
    if len(named) == 1:
        return named[0].id
    raise UnknownComponentError(ref, tuple(sorted(n.id for n in named)))


def _expand_plugins(
    view: CallerView, ids: Sequence[str]
) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """Ids with each plugin replaced by its visible installable members."""
    out: dict[str, None] = {}
    plugins: dict[str, tuple[str, ...]] = {}
    for node_id in ids:
        node = view.get(node_id)
        if node.kind is not NodeKind.PLUGIN:
            out.setdefault(node_id, None)
            continue
        members = sorted(
            (view.get(e.source) for e in view.in_edges(node_id, EdgeKind.PART_OF)),
            key=lambda n: (n.kind.value, n.name, n.id),
        )
        chosen = tuple(n.id for n in members if n.kind in INSTALLABLE)
        if not chosen:
            raise InstallError(f"plugin {node.name!r} has no installable components in the index")
        plugins[node_id] = chosen
        out.update(dict.fromkeys(chosen))
    return list(out), plugins


def plan_install(
    source: Index | CallerView,
    ids: Iterable[str],
    target: str | Path | None = None,
    *,
    principals: Iterable[str] | None = None,
    force: bool = False,
    with_dependencies: bool = True,
    allow_conflicts: bool = False,
    user: bool = False,
    home: str | Path | None = None,
) -> InstallPlan:
    """Plan installing ``ids`` (and, by default, what they require); nothing is written.

    Args:
        source: The index, or a caller's view of it.
        ids: Component ids, unique names, or plugins (which bring their members).
        target: The project folder (or give ``user``).
        principals: Whose view, when ``source`` is an index (None and ``[]``: public
            items only; ``["*"]``: everything).
        force: Overwrite files that differ and servers configured differently.
        with_dependencies: Add what the components require (transitively).
        allow_conflicts: Install even when the set holds a CONFLICTS_WITH pair.
        user: Install into the home folder's ``.claude`` (hooks into
            ``~/.claude/settings.json``); MCP servers are skipped there.
        home: The home folder for ``user`` (default: the real one).

    Raises:
        InstallError: The root is a file, or an id / name is unknown or ambiguous.
    """
    view = as_view(source, principals)
    root, scope = install_root(target, user, home)
    wanted, plugins = _expand_plugins(view, [resolve_id(view, i) for i in ids])
    if not wanted:
        raise InstallError("nothing to install: give one or more component ids")
    closure = dependency_closure(view, wanted) if with_dependencies else None
    order = list(closure.ids) if closure is not None else wanted
    required_by = closure.required_by if closure is not None else {}
    conflicts = tuple(find_conflicts(view, order, match_installed(view, root)))
    shared = _Shared(root)
    claimed: dict[str, str] = {}
    plans = [
        _component_plan(
            view.get(i),
            () if i in wanted else tuple(required_by.get(i, ())),
            root,
            scope,
            force,
            shared,
            claimed,
        )
        for i in order
    ]
    mentioned = {*order, *plugins, *(s for c in conflicts for s in c.sides)}
    return InstallPlan(
        root,
        tuple(plans),
        closure.cycles if closure is not None else (),
        conflicts=conflicts,
        allow_conflicts=allow_conflicts,
        plugins=plugins,
        names={i: view.name_of(i) for i in mentioned},
        scope=scope,
    )


class _Shared:
    """The shared JSON files of the root, read once per plan."""

    def __init__(self, root: Path) -> None:
        self.mcp, self.mcp_why = read_json_object(root, MCP_FILE, "mcpServers")
        self.settings, self.settings_why = read_json_object(root, SETTINGS_FILE, "hooks")
        if self.settings is not None and (why := check_settings(self.settings)):
            self.settings, self.settings_why = (
                None,
                f"the existing {SETTINGS_FILE}: {why}; fix it first",
            )


def _component_plan(
    node: Node,
    via: tuple[str, ...],
    root: Path,
    scope: Scope,
    force: bool,
    shared: _Shared,
    claimed: dict[str, str],
) -> ComponentPlan:
    def plan(status: Status, actions: Sequence[FileAction] = (), reason: str = "") -> ComponentPlan:
        return ComponentPlan(
            node.id, node.kind.value, node.name, status, tuple(actions), reason, via
        )

    try:
        out = render(node, scope)
    except UnsafePathError as exc:
        return plan("refused", reason=str(exc))
    except SkipComponent as exc:
        return plan("skipped", reason=str(exc))
    actions = [_file_action(root, f, force) for f in out.files]
    actions += _entry_actions(node, out, shared, force)
    for i, a in enumerate(actions):
        if a.hook is None:  # hooks merge; files and servers have one owner per install
            owner = claimed.setdefault(a.path, node.id)
            if owner != node.id:
                actions[i] = replace(a, action="blocked", reason=f"{owner} installs the same path")
    return plan(_status(actions), actions, "; ".join(out.notes))


def _entry_actions(node: Node, out: Rendered, shared: _Shared, force: bool) -> list[FileAction]:
    actions: list[FileAction] = []
    for entry in out.hooks:
        path = f"{SETTINGS_FILE}#{entry.where}"
        if shared.settings is None:
            actions.append(FileAction(path, "refused", shared.settings_why, hook=entry))
        else:
            done = has_hook(shared.settings, entry)
            actions.append(FileAction(path, "unchanged" if done else "create", hook=entry))
    if out.mcp_entry is not None:
        name = server_key(node.name)
        path = f"{MCP_FILE}#{name}"
        server = out.mcp_entry
        if shared.mcp is None:
            return actions + [FileAction(path, "refused", shared.mcp_why, mcp_entry=server)]
        current = shared.mcp.get("mcpServers", {}).get(name)
        if current is None:
            actions.append(FileAction(path, "create", mcp_entry=server))
        elif current == server:
            actions.append(FileAction(path, "unchanged", mcp_entry=server))
        elif force:
            actions.append(FileAction(path, "overwrite", mcp_entry=server))
        else:
            why = f"server {name!r} is configured differently; force replaces it"
            actions.append(FileAction(path, "blocked", why, mcp_entry=server))
    return actions


def _file_action(root: Path, f: FileOut, force: bool) -> FileAction:
    try:
        dest = safe_destination(root, f.rel)
    except UnsafePathError as exc:
        return FileAction(f.rel, "refused", str(exc))
    if dest.exists() and not dest.is_file():
        return FileAction(f.rel, "refused", "exists and is not a regular file")
    if not dest.exists():
        return FileAction(f.rel, "create", content=f.content, mode=f.mode)
    try:
        same = dest.read_bytes() == f.content
    except OSError as exc:
        return FileAction(f.rel, "refused", f"cannot read the existing file: {exc.strerror or exc}")
    action: Action = "unchanged" if same else "overwrite" if force else "blocked"
    reason = "exists and differs; force overwrites it" if action == "blocked" else ""
    return FileAction(f.rel, action, reason, content=f.content, mode=f.mode)


def _status(actions: Sequence[FileAction]) -> Status:
    kinds = {a.action for a in actions}
    if "refused" in kinds:
        return "refused"
    if "blocked" in kinds:
        return "blocked"
    return "install" if kinds & {"create", "overwrite"} else "unchanged"


def apply_plan(plan: InstallPlan) -> InstallPlan:
    """Write what ``plan`` says (components with status install), then the record.

    Raises:
        InstallError: The plan holds conflicts that were not allowed, or a shared JSON
            file changed into something unusable since it was planned.
    """
    if plan.refused_for_conflicts:
        raise InstallError("; ".join(plan.conflict_lines()) + "; allow conflicts to install anyway")
    root = plan.target
    check_creatable(root, plan.scope)
    try:
        root.mkdir(exist_ok=True)  # its parent was there when planned (`install_root`)
    except FileNotFoundError as exc:
        raise InstallError(f"the folder holding {root} is gone; nothing written") from exc
    record = InstallRecord.load(root)
    before = set(record.components)
    current, _ = read_json_object(root, MCP_FILE, "mcpServers")
    current_servers = (current or {}).get("mcpServers", {})
    servers: dict[str, Mapping[str, Any]] = {}
    hooks = []
    for c in plan.components:
        if c.status not in ("install", "unchanged"):
            continue
        entry = record.components.setdefault(c.id, RecordEntry(c.kind, c.name))
        for f in c.files:
            if f.action in ("create", "overwrite", "unchanged"):
                entry.kept.pop(f.path, None)  # as installed again: no longer the user's change
            if c.status != "install" or f.action not in ("create", "overwrite"):
                continue
            if f.hook is not None:
                hooks.append(f.hook)
                entry.hooks.append(f.hook)
            elif f.mcp_entry is not None:
                name = f.path.split("#", 1)[1]
                old = current_servers.get(name)
                if f.action == "overwrite" and old is not None:
                    _keep_server(record, entry, name, old)
                servers[name] = f.mcp_entry
                entry.mcp[name] = dict(f.mcp_entry)
            else:
                dest = safe_destination(root, f.path)
                if f.action == "overwrite":
                    _keep_file(record, entry, f.path, dest)
                write_atomic(dest, f.content, f.mode)
                entry.files[f.path] = sha256(f.content)
    _record_plugins(plan, record, before)
    _merge_file(
        root,
        MCP_FILE,
        "mcpServers",
        record,
        lambda d: {**d, "mcpServers": {**d.get("mcpServers", {}), **servers}},
        bool(servers),
    )
    _merge_file(root, SETTINGS_FILE, "hooks", record, lambda d: merge_hooks(d, hooks), bool(hooks))
    if record.components:
        record.save()
    return replace(plan, applied=True)


def _keep_file(record: InstallRecord, entry: RecordEntry, rel: str, dest: Path) -> None:
    """Before ``force`` overwrites ``dest``: keep a copy when it is the user's own (no
    install wrote exactly it) and no earlier copy of that path is kept, for uninstall to
    put back."""
    if not dest.is_file():
        return
    data = dest.read_bytes()
    digest = sha256(data)
    backup = safe_destination(record.root, backup_path(rel))
    if record.owns_file(rel, digest) or rel in entry.replaced_files or backup.exists():
        return
    write_atomic(backup, data, dest.stat().st_mode & 0o777)
    entry.replaced_files[rel] = digest


def _keep_server(record: InstallRecord, entry: RecordEntry, name: str, old: Any) -> None:
    """Before ``force`` replaces server ``name``: keep the user's own entry in the record."""
    if not record.owns_server(name, old) and name not in entry.replaced_servers:
        entry.replaced_servers[name] = old


def _record_plugins(plan: InstallPlan, record: InstallRecord, before: set[str]) -> None:
    """Record, for each plugin of the plan, the components installing it brought: its
    members, and what they alone required that this install newly recorded. Uninstalling
    the plugin by its id or name takes back exactly those."""
    for plugin_id, members in plan.plugins.items():
        brought = {m for m in members if m in record.components}
        grew = True
        while grew:  # a requirement is the plugin's when every component needing it is
            grew = False
            for c in plan.components:
                if (
                    c.id not in brought
                    and c.id in record.components
                    and c.id not in before
                    and c.required_by
                    and set(c.required_by) <= brought
                ):
                    brought.add(c.id)
                    grew = True
        if not brought:
            continue
        name = plan.names.get(plugin_id, plugin_id)
        held = record.plugins.setdefault(plugin_id, PluginRecord(name))
        held.name = name
        held.components = sorted(set(held.components) | brought)


def _merge_file(
    root: Path, rel: str, key: str, record: InstallRecord, change: Any, needed: bool
) -> None:
    if not needed:
        return
    data, why = read_json_object(root, rel, key)
    if data is None:
        raise InstallError(why)
    if not safe_destination(root, rel).exists():
        record.created.add(rel)
    write_json(root, rel, change(data))


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
) -> InstallPlan:
    """Plan, and unless ``dry_run`` or refused for conflicts, write ``ids`` and what they
    require (arguments as `plan_install`). A refused plan comes back with ``applied``
    False, ``ok`` False and its ``conflicts``; nothing is written."""
    plan = plan_install(
        source,
        ids,
        target,
        principals=principals,
        force=force,
        with_dependencies=with_dependencies,
        allow_conflicts=allow_conflicts,
        user=user,
        home=home,
    )
    return plan if dry_run or plan.refused_for_conflicts else apply_plan(plan)
