"""What the names given to an uninstall stand for in the install record.

A name is a recorded component's id or name, or a plugin's id or name, or
``<plugin>@<marketplace>`` as install takes it (its members still recorded, and what
installing it brought); a name of a plugin and of its own members takes
the plugin, as install does (`by_name`), and any other name several recorded things share
is refused, each said by id. A name no recorded thing has may be the file name of one
installed, as install takes it (`by_file_name`: ``ct-check``). A plugin's member that an install also asked
for by its own id or name (``RecordEntry.named``) stays when only the plugin is named:
the user asked for it apart from the plugin; so does one another recorded plugin, not
named, holds too (marketplace entries at one root load the same files), and a dependency
of the plugin that a component staying installed needs (`needed_dependencies`). The other
way round, a member named here that an install asked for by name too, and that a plugin
not named here loads, stays for that plugin: what goes is the by-name install, as if it had
not been made (`_loaded_by_staying`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from skill_retriever.components.install.by_file_name import recorded_file_name
from skill_retriever.components.install.by_name import (
    Candidate,
    ambiguous,
    chosen,
    plugin_note,
    plugin_over_members,
)
from skill_retriever.components.install.claude_folder import on_disk
from skill_retriever.components.install.errors import UnknownComponentError, shown_ref
from skill_retriever.components.install.held_by_outer import held_by_outer
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.layout import RECORD_FILE
from skill_retriever.components.install.needed_dependencies import still_needed
from skill_retriever.components.install.plan import InstallError
from skill_retriever.components.install.plugin_entry import same_marketplace
from skill_retriever.components.install.suggest import close_among

__all__ = ["Picked", "pick"]


@dataclass
class Picked:
    """What the refs of an uninstall name: the recorded ids, the plugins named, the
    members of those plugins that stay, and the members named that stay for a plugin not
    named (name -> why), and what a name chose among
    several of it (a plugin over its own members of that name, `by_name`), one line each."""

    ids: list[str]
    plugins: list[str]
    stayed: dict[str, str]
    notes: list[str] = field(default_factory=list)


def pick(record: InstallRecord, refs: Iterable[str]) -> Picked:
    """Recorded ids for ``refs``: a component id or name, or a plugin id or name (its
    components still recorded), whatever one recorded thing answers to; a name of a
    plugin and of its own members takes the plugin. A plugin's member that an install
    also asked for by its own name stays, unless a ref names it too."""
    direct: list[str] = []
    members: dict[str, str] = {}  # member id -> the plugin that names it
    plugins: list[str] = []
    notes: list[str] = []

    def add_plugin(plugin_id: str) -> None:
        plugins.append(plugin_id)
        for c in record.plugins[plugin_id].components:
            if c in record.components:
                members.setdefault(c, plugin_id)

    for ref in refs:
        if ref in record.components:
            direct.append(ref)
            continue
        if ref in record.plugins:
            add_plugin(ref)
            continue
        found = _named(record, ref, set(record.components), set(record.plugins))
        if not found and (market := _in_marketplace(record, ref)) is not None:
            add_plugin(market)
            continue
        if not found and (by_file := recorded_file_name(record, ref)) is not None:  # as install takes it
            direct.append(by_file[0])
            notes.append(by_file[1])
            continue
        plugin = plugin_over_members(found)
        if plugin is not None:
            notes.append(plugin_note(ref, plugin, found, "uninstall"))
            add_plugin(plugin.id)
        elif len(found) > 1:  # the ids as `candidates` too: `--json` lists them, as install's does
            raise UnknownComponentError(ref, tuple(c.id for c in found), _not_one(record, ref, found))
        elif not found:
            raise InstallError(_not_one(record, ref, found))
        elif found[0].is_plugin:
            add_plugin(found[0].id)
        else:
            direct.append(found[0].id)
    # another recorded plugin that stays holds it too (plugins at one marketplace root share files)
    # (of several, one that loads it before one that only requires it, then the first by name:
    # the one whose folder a command they share lies in, `command_folders.first_plugin`)
    ranked = sorted(record.plugins.items(), key=lambda pr: (pr[1].name.casefold(), pr[1].name), reverse=True)
    held = {c: p for p, rec in ranked if p not in plugins for c in rec.components}
    held |= {c: p for p, rec in ranked if p not in plugins for c in rec.components if c not in rec.required}
    kept = _loaded_by_staying(record, direct, plugins)
    direct = [c for c in direct if c not in kept]
    ids = direct + [c for c in members if c in direct or not (record.components[c].named or c in held)]
    needed = still_needed(record, {c: p for c, p in members.items() if c not in direct}, plugins, ids)
    ids = [i for i in ids if i not in needed]  # a dependency a component that stays needs
    stayed = {
        record.components[c].name: (
            f"plugin {record.plugins[held[c]].name!r}, still installed, "
            f"{'requires it' if c in record.plugins[held[c]].required else 'holds it too'}; uninstalling "
            f"{_shown(record, held[c])!r} removes it"
            if c in held and not record.components[c].named else
            _needed_by(record, needed[c], ids, plugins)
            if c in needed else
            f"an install asked for it by its own name, not only as "
            f"{'a dependency of' if c in record.plugins[plugin_id].required else 'part of'} plugin "
            f"{record.plugins[plugin_id].name!r}: uninstall {_ref_after(record, c, ids, plugins)!r} to remove it too"
        )
        for c, plugin_id in members.items()
        if c not in ids
    }
    stayed |= {record.components[c].name: f"plugin {record.plugins[p].name!r}, still installed, holds it too; "
               f"uninstalling {_shown(record, p)!r} removes it" for c, p in kept.items()}
    return Picked(list(dict.fromkeys(ids)), list(dict.fromkeys(plugins)), stayed, notes)


def _loaded_by_staying(record: InstallRecord, direct: list[str], plugins: list[str]) -> dict[str, str]:
    """Of ``direct``, the ids named here that an install asked for by their own name and
    that a recorded plugin not in ``plugins`` loads (not only requires) -> the first such
    plugin. Such a member stays, for that plugin: naming it takes back the by-name install
    (``named`` is dropped), as a fresh install of the plugin alone leaves it; naming it
    again, it goes."""
    out: dict[str, str] = {}
    for c in dict.fromkeys(direct):  # (named twice: still the one by-name install)
        holder = next((p for p, rec in record.plugins.items()
                       if p not in plugins and c in rec.components and c not in rec.required), None)
        if holder is not None and record.components[c].named:
            record.components[c].named = False
            out[c] = holder
    return out


def _named(record: InstallRecord, ref: str, components: set[str], plugins: set[str]) -> list[Candidate]:
    """The recorded components and plugins, of those given, named ``ref`` (any case)."""
    key = ref.casefold()
    found = [Candidate(i, e.kind, e.name) for i, e in record.components.items() if i in components and e.name.casefold() == key]
    found += [
        Candidate(p, "plugin", rec.name, tuple(rec.components))
        for p, rec in record.plugins.items()
        if p in plugins and rec.name.casefold() == key
    ]
    return sorted(found, key=lambda c: c.id)


def _in_marketplace(record: InstallRecord, ref: str) -> str | None:
    """The recorded plugin ``ref`` names as Claude Code does, ``<plugin>@<marketplace>``
    (install takes that name: `resolve`); None when no recorded plugin has that name.

    Raises:
        InstallError: Plugins of that name are recorded, none of that marketplace (each
            said with its own, or that its record, of an older version, lacks it).
    """
    name, at, market = ref.rpartition("@")
    if not at or not name.strip() or not market.strip():
        return None
    found = _named(record, name, set(), set(record.plugins))
    of_market = [c.id for c in found if same_marketplace(record.plugins[c.id].marketplace, market)]
    if len(of_market) == 1:
        return of_market[0]
    if not found or of_market:  # several of that marketplace: `_not_one` says each by id
        return None
    said = "; ".join(
        f"plugin {shown_ref(c.name)} installed in {record.root} is of marketplace {shown_ref(m)}, not "
        f"{shown_ref(market)}: uninstall {shown_ref(f'{c.name}@{m}')} or {shown_ref(_shown(record, c.id))}"
        if (m := record.plugins[c.id].marketplace) else
        f"plugin {shown_ref(c.name)} installed in {record.root} was recorded without its marketplace "
        f"(by an older version): uninstall {shown_ref(_shown(record, c.id))}"
        for c in found
    )
    raise InstallError(f"no plugin {shown_ref(ref)} installed: {said}")


def _needed_by(record: InstallRecord, users: list[str], going: list[str], plugins: list[str]) -> str:
    """Why a plugin's dependency stays: ``users``, staying, need it (`needed_dependencies`)."""
    said = " and ".join(f"{record.components[u].kind} {record.components[u].name!r}" for u in users)
    refs = " and ".join(repr(_ref_after(record, u, going, plugins)) for u in users)
    return f"{said}, still installed, require{'s' if len(users) == 1 else ''} it; uninstalling {refs} removes it"


def _ref_after(record: InstallRecord, node_id: str, going: list[str], plugins: list[str]) -> str:
    """What to pass to uninstall ``node_id`` once ``going`` and ``plugins`` are gone: its
    name when that takes it alone then, else its id."""
    name = record.components[node_id].name
    found = _named(record, name, set(record.components) - set(going), set(record.plugins) - set(plugins))
    return name if chosen(found) == node_id else node_id


def _shown(record: InstallRecord, plugin_id: str) -> str:
    """A recorded plugin as the listing names it: by name when that takes it, else by id
    (another recorded thing shares the name)."""
    name = record.plugins[plugin_id].name
    found = _named(record, name, set(record.components), set(record.plugins))
    return name if chosen(found) == plugin_id else plugin_id


def _not_one(record: InstallRecord, ref: str, found: list[Candidate]) -> str:
    """Why ``ref`` names no recorded thing, or several (each said by id)."""
    where = f" in {record.root}'s install record"
    if found:
        return ambiguous(ref, found, where=where)
    record_file = on_disk(record.root, RECORD_FILE)
    if not record.components and not record.plugins and not record_file.exists():
        return (  # (not "its record lists nothing": there is none)
            f"no component {shown_ref(ref)} installed in {record.root}: there is no install record "
            f"there ({record_file} does not exist), so skill-retriever has installed nothing in it; "
            "give the folder an install wrote into (the `target:` line install printed names it)"
        )
    holder = held_by_outer(record, ref)
    if holder is not None:  # an install wrote it as a file of a skill it recorded
        outer = record.components[holder.id].name
        where = f"as its file {holder.path}" if holder.file else f"in its folder {holder.path}"
        return (
            f"no component {shown_ref(ref)} installed in {record.root} by skill-retriever on its own: "
            f"{shown_ref(ref)} was installed as part of skill {outer} ({holder.id}), {where}: "
            f"uninstall {_ref_after(record, holder.id, [], [])} to remove it"
        )
    close = close_among(ref, _installed_names(record))
    if ref.strip() and close:  # what install offers of the index, of what is installed
        return f"no component {shown_ref(ref)} installed in {record.root}; close names installed: {', '.join(close)}"
    listing = ", ".join(sorted(record.components)[:10]) or "nothing"
    names = ", ".join(sorted(_shown(record, p) for p in record.plugins)[:10])
    what = "the component id or name given is empty" if not ref.strip() else (
        f"no component {shown_ref(ref)} installed in {record.root} by skill-retriever"
    )
    return f"{what} (its record {RECORD_FILE} lists {listing}" + (f"; plugins {names}" if names else "") + "); give a recorded id"


def _installed_names(record: InstallRecord) -> list[str]:
    """What uninstall takes of each recorded thing, as a close name to offer: a component's
    name (its id where the name would not take it alone), a plugin's name (or id). (A
    server's key in ``.mcp.json`` is its name but for spaces: offered once, by name.)"""
    return [_ref_after(record, i, [], []) for i in record.components] + [_shown(record, p) for p in record.plugins]
