"""Plan an install; nothing is written.

`plan_install` resolves the ids (or unique names; a plugin stands for its members: the
components with a PART_OF edge to it) in the caller's view, adds what they require (a
required plugin stands for its members too, each "required by X via" it: `closure`),
checks CONFLICTS_WITH pairs within the set and against what the root already holds (also
one the caller's view does not show, judged from the files there: `unseen`), and says for
each file (`file_action`), hook and server what would happen. Arguments of the wrong type
are refused first (`install_args`). Each component added for another names the
components of the plan that require it directly (`ComponentPlan.requirers`).
What each component declares in its own ``conflicts`` goes with the plan for the install
record (`declared_conflicts`). `apply.apply_plan` writes it.

Safety: an existing file that differs is never planned for overwriting without ``force``
(an identical one is "unchanged"), unless it is what an earlier install of the same
component wrote there, unchanged since (a new version updates it; what the new version no
longer has, as an earlier install wrote it, is removed: `retired`); a file a component would ship where Claude
Code's settings, ``.mcp.json`` or the install record live is refused
(`layout.reserved_reason`); a component with a refused or blocked file has status
refused or blocked, so none of its files is written; two components of one install
never write the same file or server: byte-identical copies are written once, and
different content is a clash that refuses the plan whole (`claims`); a skill installed
in its source folder's name goes by a slug of its name where another skill of the plan
or another installed component has that folder (`same_folder`). Paths that differ
only in case are one path, as on macOS and Windows: a planned file takes the target's
spelling of its path, so an existing file of another case is kept (or, with ``force``,
overwritten) as one at the very path (`cases`). A component that is written while
something it requires will not be in the target says so (`missing`); a command that a
skill of its name will hide, too, and one that another command of its file name, in
another subfolder of ``.claude/commands``, will share ``/<name>`` with (`claude_names`).
A command goes into its folders below ``.claude/commands`` (`command_folders`), and each
check here sees it there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from skill_retriever.components.closure import (
    Closure,
    Members,
    Requirements,
    dependency_closure,
    plugin_members,
)
from skill_retriever.components.conflicts import find_conflicts
from skill_retriever.components.install.claims import settle_claims
from skill_retriever.components.install.claude_folder import config_root
from skill_retriever.components.install.claude_names import (
    note_same_named_agents,
    note_same_named_commands,
    note_shadowed_commands,
)
from skill_retriever.components.install.component_actions import Shared, plan_component, read_record
from skill_retriever.components.install.conflict_reasons import conflict_whys
from skill_retriever.components.install.credential_files import (
    held_command,
    held_paths,
    note_credentials,
)
from skill_retriever.components.install.declared_conflicts import declared_conflicts
from skill_retriever.components.install.hook_keys import keyed_plans
from skill_retriever.components.install.install_args import (
    check_path,
    check_source,
    check_switches,
    ids_given,
)
from skill_retriever.components.install.inventory import INSTALLABLE, match_installed
from skill_retriever.components.install.listed_twins import drop_listed_twins
from skill_retriever.components.install.missing import note_missing, unknown_requires
from skill_retriever.components.install.orphans import leave_out_orphans
from skill_retriever.components.install.plan import (
    SAME_PATH,
    InstallError,
    InstallPlan,
    Scope,
    Status,
    UnsafePathError,
)
from skill_retriever.components.install.render import render
from skill_retriever.components.install.rendered import Rendered, SkipComponent
from skill_retriever.components.install.resolve import resolve_all, resolve_id
from skill_retriever.components.install.retired import add_retired
from skill_retriever.components.install.retired_members import retire_members
from skill_retriever.components.install.same_folder import set_aside
from skill_retriever.components.install.server_refs import note_missing_servers
from skill_retriever.components.install.shared_commands import (
    dependency_paths,
    moved_reasons,
    plugin_folders,
)
from skill_retriever.components.install.skill_folder import SkillFolder
from skill_retriever.components.install.skill_path_refs import note_missing_skill_paths
from skill_retriever.components.install.subagent_refs import note_missing_subagents
from skill_retriever.components.install.target import install_root
from skill_retriever.components.install.unseen import (
    UNSEEN,
    UNSEEN_NAME,
    installed_names,
    unseen_conflicts,
)
from skill_retriever.components.install.with_outer import fold_into_outer
from skill_retriever.components.owning_skill import owning_skill
from skill_retriever.components.view import CallerView, as_view
from skill_retriever.model import Node

if TYPE_CHECKING:
    from skill_retriever.stores.index import Index

#: `SAME_PATH` and `resolve_id` are re-exported: they lived here.
__all__ = ["SAME_PATH", "expand_plugins", "plan_install", "resolve_id"]


def expand_plugins(
    view: CallerView, ids: Sequence[str]
) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """Ids with each plugin replaced by its visible installable members. A plugin with
    none (one a marketplace only lists, its files kept elsewhere) stays, to be planned as
    skipped with what to do (`render`): the other ids of the install go ahead."""
    out: dict[str, None] = {}
    plugins: dict[str, tuple[str, ...]] = {}
    members = plugin_members(view, INSTALLABLE)  # as for a plugin required (`closure`)
    for node_id in ids:
        chosen = members(node_id)
        if not chosen:
            out.setdefault(node_id, None)
            continue
        plugins[node_id] = chosen
        out.update(dict.fromkeys(chosen))
    return drop_listed_twins(view, list(out), plugins), plugins  # an entry of one brought: none


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
    hold_credentials: bool = False,
) -> InstallPlan:
    """Plan installing ``ids`` (and, by default, what they require); nothing is written.

    Args:
        source: The index, or a caller's view of it.
        ids: Component ids, unique names, or plugins (which bring their members); one string is one id.
        target: The project folder (or give ``user``).
        principals: Whose view, when ``source`` is an index (None and ``[]``: public
            items only; ``["*"]``: everything).
        force: Overwrite files that differ and servers configured differently; write a
            hook whose commands run a script nothing provides (`unshipped_scripts`).
        with_dependencies: Add what the components require (transitively).
        allow_conflicts: Install even when the set holds a CONFLICTS_WITH pair.
        user: Install into the home folder's ``.claude`` (hooks into its
            ``settings.json``), or ``$CLAUDE_CONFIG_DIR`` when set elsewhere (`target`);
            MCP servers are skipped there.
        home: The home folder for ``user`` (default: the real one).
        hold_credentials: The caller is an agent: a file holding what looks like a
            credential is not written, and the plan names the command that installs it
            (`credential_files`); without it, such a file is written and named with a warning.

    Raises:
        InstallError: The root is a file, or an id / name is unknown (`UnknownComponentError`,
            with close names) or ambiguous.
        ConfigError: An argument of the wrong type (a switch not True or False, a target
            that is no path: `install_args`), named in one line, before anything is read.
    """
    check_source("install", source)
    check_switches(
        "install", force=force, with_dependencies=with_dependencies, allow_conflicts=allow_conflicts, user=user,
        hold_credentials=hold_credentials,
    )
    check_path("install", "target", target)
    check_path("install", "home", home)
    given = ids_given("install", ids)  # a string: one id
    view = as_view(source, principals)
    root, scope = install_root(target, user, home)
    found = resolve_all(view, given)  # every unknown name said at once
    resolved = [node_id for node_id, _ in found]
    wanted, plugins = expand_plugins(view, resolved)
    if not wanted:
        raise InstallError("nothing to install: give one or more component ids")
    members = plugin_members(view, INSTALLABLE)
    closure = dependency_closure(view, wanted, members=members) if with_dependencies else None
    order = list(closure.ids) if closure is not None else wanted
    required_by = closure.required_by if closure is not None else {}
    # Without the closure (no dependencies added), what each one requires directly.
    reqs = closure if closure is not None else _direct(view, order, members)
    hops = _hops(closure, reqs.through)
    requires = {i: tuple(reqs.requires.get(i, ())) for i in order}
    direct = _requirers(order, requires, reqs.through)
    installed = match_installed(view, root) if root.is_dir() else {}  # a folder yet to be made holds nothing
    conflicts = (*find_conflicts(view, order, installed), *unseen_conflicts(view, order, root, installed))
    nodes = [view.get(i) for i in order]
    # Members of a plugin asked for or required: their notes say the plugin is not installed so.
    with_plugin = {m for ms in plugins.values() for m in ms} | {m for via in reqs.through.values() for m in via}
    under = plugin_folders(view, nodes, plugins, root)  # a command several plugins load: which one's folder
    outs = [_render(view, n, scope, config_root(root), n.id in with_plugin, under.get(n.id)) for n in nodes]
    # a skill whose source folder another has goes by a slug of its name (`same_folder`)
    record = read_record(root)
    aside = set_aside(nodes, outs, record.components if record else {})
    outs = [
        _render(view, n, scope, config_root(root), n.id in with_plugin, under.get(n.id), aside[n.id])
        if n.id in aside else o
        for n, o in zip(nodes, outs, strict=True)
    ]
    planned = [f.rel for o in outs if isinstance(o, Rendered) for f in o.files]
    shared = Shared(root, planned, scope, record)
    plans, clashes = settle_claims(
        [
            plan_component(
                n,
                out,
                () if n.id in wanted else tuple(required_by.get(n.id, ())),
                () if n.id in wanted else hops.get(n.id, ()),
                () if n.id in wanted else direct.get(n.id, ()),
                root,
                force,
                shared,
            )
            for n, out in zip(nodes, outs, strict=True)
        ]
    )
    plans = leave_out_orphans(note_shadowed_commands(plans, root))
    complete = {n.id: o.complete for n, o in zip(nodes, outs, strict=True) if isinstance(o, Rendered)}
    plans = moved_reasons(add_retired(plans, complete, root, shared.record, shared.settings), under)
    plans = retire_members(plans, plugins, root, shared.record, shared.settings)  # a plugin's, too
    plans = keyed_plans(plans)  # two hooks of one key that run different commands: told apart
    # After `add_retired`: a file this plan removes offers no command (or agent) any more.
    plans = note_same_named_agents(note_same_named_commands(plans, root), root)
    plans = note_missing_subagents(plans, root, view)  # agents a command runs, not brought
    plans = note_missing_skill_paths(plans, root, view)  # skills' files it runs by path, not brought
    plans = note_missing_servers(plans, root, view)  # MCP servers its tools name, not brought
    # a SKILL.md nested in another skill's folder says whose it is, as search says it
    plans = [replace(p, part_of=(o.id, o.name)) if (o := owning_skill(view, p.id)) else p for p in plans]
    mentioned = {*order, *plugins, *(s for c in conflicts for s in c.sides)}
    mentioned |= {i for via in hops.values() for i in via}
    mentioned |= {p for pairs in direct.values() for _, p in pairs if p}
    unknown = unknown_requires(view, order)
    plans = note_missing(
        plans, requires, installed, view.name_of, unknown, reqs.through, reqs.memberless,
        may_hide=view.may_hide, present=installed_names(root),
    )  # fmt: skip
    recorded = shared.record.components if shared.record else {}
    plans = fold_into_outer(plans, recorded)  # after `note_missing`: a nested skill so skipped is there
    hold = held_command(
        view.path, root, scope, view.principals,
        force=force, with_dependencies=with_dependencies, allow_conflicts=allow_conflicts,
    ) if hold_credentials else None  # fmt: skip
    plans = note_credentials(plans, hold)  # files that hold what looks like a key
    held = list(held_paths(plans))
    return InstallPlan(
        root,
        tuple(plans),
        closure.cycles if closure is not None else (),
        conflicts=conflicts,
        allow_conflicts=allow_conflicts,
        plugins=plugins,
        names={i: UNSEEN_NAME if i == UNSEEN else view.name_of(i) for i in mentioned},
        marketplaces={p: m for p in plugins if isinstance(m := view.get(p).attrs.get("marketplace"), str) and m},
        scope=scope,
        requires=requires,
        clashes=clashes,
        named=frozenset(i for i in resolved if i not in plugins),
        notes=tuple(dict.fromkeys(note for _, note in found if note)),
        declares={n.id: declared_conflicts(view, n) for n in nodes},
        dependency_paths=dependency_paths(view, nodes),
        held_how=hold(held) if hold is not None and held else "",
        conflict_whys=conflict_whys(view, conflicts, root, scope, recorded),
    )


def _direct(view: CallerView, ids: Sequence[str], members: Members) -> Requirements:
    """What each of ``ids`` requires directly (a required plugin: its members), for a plan
    that adds none of it."""
    reqs = Requirements(view, members=members)
    for i in ids:
        reqs(i)
    return reqs


def _requirers(
    order: Sequence[str], requires: Mapping[str, tuple[str, ...]], through: Mapping[str, Mapping[str, str]]
) -> dict[str, tuple[tuple[str, str], ...]]:
    """Id -> the components of the plan that require it directly, in plan order, each with
    the plugin it requires it through ('' when by name): what its "required by" says."""
    out: dict[str, list[tuple[str, str]]] = {}
    for j in order:
        for i in requires.get(j, ()):
            if i != j:
                out.setdefault(i, []).append((j, through.get(j, {}).get(i, "")))
    return {i: tuple(pairs) for i, pairs in out.items()}


def _hops(
    closure: Closure | None, through: Mapping[str, Mapping[str, str]]
) -> dict[str, tuple[str, ...]]:
    """Id -> the steps between its first requirer and it, for one reached through a
    required plugin (the plan line says "required by X via kit"); others get none."""
    met = {p for hop in through.values() for p in hop.values()}
    chains = closure.chains if closure is not None else {}
    return {i: chain[1:-1] for i, chain in chains.items() if met.intersection(chain[1:-1])}


def _render(
    view: CallerView, node: Node, scope: Scope, user_folder: Path | None, with_plugin: bool, plugin: str | None,
    folder: SkillFolder | None = None,
) -> Rendered | tuple[Status, str]:
    """What installing ``node`` writes, or its status (refused, skipped) and why not
    (``user_folder``, which hook commands name absolutely, ``with_plugin``, ``plugin`` and ``folder``: `render`'s). Every component is rendered before any is planned: a
    file's spelling in the target depends on what the others write (`cases`)."""
    try:
        return render(node, scope, user_folder, view, with_plugin=with_plugin, plugin=plugin, folder=folder)
    except UnsafePathError as exc:
        return "refused", str(exc)
    except SkipComponent as exc:
        return "skipped", str(exc)
