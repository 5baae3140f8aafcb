"""What install says about an item the index holds but has no place for.

`query` answers with every kind the index holds: the prompt and template files of a skills
repository (``other``: a Markdown file with a name and a description that is no skill,
agent, command or hook), documents (a folder's runbooks, ADRs or docs, or a JSON graph's:
read where they are, never installed), a corpus's passages, a catalogue's tools. Install
writes skills, agents, commands, hooks and MCP servers (and a plugin's members). A name
that answers only to other kinds is in the index (``query`` just showed it), so "no
component of that name" would mislead: the refusal says what the item is, that install
has no place for it, and what to install instead (the component or plugin it is part of,
when the index records one: by name when that name installs it, else by id). A prompt
file part of nothing (davila7's ``loops/``) names the components whose text refers to it,
if any, and says where to read it (its file) or to copy it by hand: "install the component
that uses it" with none to name led nowhere. A file of a plugin that is part of no
component (trailofbits' ``c-review/prompts/...``) is read by the plugin's components
through ``${CLAUDE_PLUGIN_ROOT}``, which only Claude Code's own plugin install sets, and
installing the plugin here writes its components, not such files: the refusal says so,
and names the two ways that work (``/plugin install <plugin>@<marketplace>``, the
marketplace when the index records one; or copying the plugin's folder, named, by hand),
where "install the plugin" went round in a circle. An id of such an item is planned and
skipped with the same words (`render`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from skill_retriever.components.install.by_name import name_for, takes
from skill_retriever.components.install.inventory import INSTALLABLE
from skill_retriever.components.install.listed_twins import twins
from skill_retriever.components.install.plan import InstallError, UnknownComponentError
from skill_retriever.components.owning_skill import owning_skill
from skill_retriever.components.view import CallerView
from skill_retriever.item_location import file_location
from skill_retriever.model import EdgeKind, Node, NodeKind

__all__ = ["NotInstallableError", "describe", "memberless_plugin", "no_place_message"]

#: What each kind install cannot place is, in a user's words.
_WHAT = {
    NodeKind.OTHER: "a prompt or template file",
    NodeKind.DOCUMENT: "a page of a folder of documents or of a JSON graph",
    NodeKind.PASSAGE: "a passage of a corpus",
    NodeKind.TOOL: "an entry of a tool catalogue",
    NodeKind.ENTITY: "a name that passages mention",
    NodeKind.FACT: "a sentence of a passage",
}
_SHOWN = 3  # parents named in the hint


class NotInstallableError(UnknownComponentError):
    """``ref`` names items of the index, none of a kind install can write.

    Attributes:
        ref: What the caller gave.
        candidates: Always empty (no component answers to it).
        found: The ids of the visible items of that name.
    """

    def __init__(self, ref: str, found: tuple[str, ...], message: str) -> None:
        self.ref = ref
        self.candidates = ()
        self.found = found
        InstallError.__init__(self, message)  # its own message, not "no component ..."


def describe(node: Node) -> str:
    """``an other item (a prompt or template file: <id>)``."""
    kind = node.kind.value
    article = "an" if kind[0] in "aeiou" else "a"
    what = _WHAT.get(node.kind, "an item of a JSON graph")
    return f"{article} {kind} item ({what}: {node.id})"


def no_place_message(view: CallerView | None, ref: str, nodes: Sequence[Node]) -> str:
    """Why install will not write ``nodes`` (what ``ref`` names), and what to install
    instead. ``view``: where to find what they are part of (None: the node's own record)."""
    node = nodes[0]
    more = f" (and {len(nodes) - 1} more item(s) of that name, none installable)" if len(nodes) > 1 else ""
    return f"{ref!r:.200} is in the index as {describe(node)}{more}, which install has no place for; {_instead(view, node)}"


def memberless_plugin(view: CallerView | None, plugin: Node) -> str:
    """Why ``plugin``, which has no member install could write, is skipped, and what
    works instead. A marketplace entry whose source is kept elsewhere (a GitHub repository,
    a git URL, an npm package) has no files in the index at all: Claude Code's own plugin
    install fetches them, or a clone of them indexed gives its components. Nothing is said
    of members the caller may not see: as far as they can tell, there are none."""
    name = plugin.name
    market = plugin.attrs.get("marketplace")
    command = (
        f"/plugin install {name}@{market}"
        if isinstance(market, str) and market
        else f"/plugin install {name}@<marketplace>; the index records no marketplace for it"
    )
    kept = _kept_at(plugin.attrs.get("marketplace_source"))
    held = twins(view, plugin)
    if held:  # the user indexed a clone of its files, as the words below advise
        listed = f"its marketplace{f' {market}' if market else ''} only lists it{f', its files kept at {kept}' if kept else ''}"
        return (
            f"plugin {name!r} has nothing install can write: {listed}; the index holds a plugin of "
            f"that name with components, {', '.join(held)}: install that one by its id"
        )
    if kept:
        where = f"its marketplace{f' {market}' if market else ''} only lists it, its files kept at {kept}, which this index does not hold"
        clone = "or get those files, index them (`skill-retriever index <folder>`) and install its components"
    else:
        folder = _plugin_folder(plugin, plugin, name)
        where = f"no skill, agent, command, hook or MCP server of it is in the index{f' (its folder: {folder})' if folder else ''}"
        clone = "or copy what you need of it into your project by hand"
    return f"plugin {name!r} has nothing install can write: {where}; install it in Claude Code ({command}), {clone}"


def _kept_at(source: object) -> str:
    """A marketplace entry's object ``source`` in a few words (``git-subdir
    https://github.com/x/y.git, folder integrations/claude-code``); '' for a folder of the
    marketplace's own repository (a string) or nothing on record. A URL is said without
    its user info or query (`bare_url`), which may carry a token."""
    if not isinstance(source, dict):
        return ""
    kind = source.get("source")
    where = next((source[k] for k in ("repo", "url", "package") if isinstance(source.get(k), str)), "")
    if where and "://" in where:
        # here, not at the top: only a memberless plugin's message needs the URL reader
        from skill_retriever.ingest.skill_configs import bare_url

        where = bare_url(where)
    path = source.get("path")
    parts = [f"{kind} {where}".strip() if isinstance(kind, str) else where]
    if isinstance(path, str) and path:
        parts.append(f"folder {path}")
    return ", ".join(p for p in parts if p)


def _instead(view: CallerView | None, node: Node) -> str:
    """What to install in its place: what it is part of, or what refers to it, when the
    index says; else where to read it."""
    parents = _parents(view, node)
    if view is not None and parents and parents[0].kind is not NodeKind.PLUGIN:
        shown = ", ".join(_what_to_type(view, p) for p in parents[:_SHOWN])
        return f"install the component that uses it: {shown}"
    if node.kind is NodeKind.OTHER and parents:  # a plugin's own file, part of no component
        return _plugin_file(view, node, parents[0])
    if node.kind is NodeKind.OTHER:
        plugin = node.attrs.get("plugin")
        if isinstance(plugin, str) and plugin:
            return _plugin_file(view, node, None, plugin)
        if view is None:  # no index to ask what uses it
            return _read_it(node)
        users = _users(view, node)
        if not users:
            return f"nothing in the index uses it; {_read_it(node)}"
        more = f" and {len(users) - _SHOWN} more" if len(users) > _SHOWN else ""
        shown = ", ".join(_what_to_type(view, u) for u in users[:_SHOWN])
        return f"the components that refer to it do not bring it with them: {shown}{more}; {_read_it(node)}"
    if node.kind is NodeKind.DOCUMENT and node.source:
        return f"a document is read where it is, not installed: open {file_location(node)}"
    return (
        "it is material for `query` to answer with, not a Claude Code component; install takes "
        "skills, agents, commands, hooks, MCP servers and plugins"
    )


def _plugin_file(view: CallerView | None, node: Node, plugin: Node | None, name: str = "") -> str:
    """What works for ``node``, a file of ``plugin`` (or of the plugin called ``name``,
    when the index holds no node of it) that none of its components holds: installing the
    plugin here copies its components alone, and they reach such a file through
    ``${CLAUDE_PLUGIN_ROOT}``, which only Claude Code's plugin install provides."""
    name = plugin.name if plugin is not None else name
    typed = f"{name} ({plugin.id})" if plugin is not None else _plugin_named(view, name)
    market = plugin.attrs.get("marketplace") if plugin is not None else None
    command = (
        f"/plugin install {name}@{market}"
        if isinstance(market, str) and market
        else f"/plugin install {name}@<marketplace>; the index records no marketplace for it"
    )
    folder = _plugin_folder(node, plugin, name)
    return (
        f"it is a file of the plugin {typed}, whose components reach such files through "
        "${CLAUDE_PLUGIN_ROOT}, which only Claude Code's own plugin install sets: installing the "
        f"plugin here writes its components, not this file; install the plugin in Claude Code "
        f"instead ({command}), or copy the plugin's folder{f', {folder},' if folder else ''} by "
        "hand and point those ${CLAUDE_PLUGIN_ROOT} paths at the copy"
    )


def _plugin_folder(node: Node, plugin: Node | None, name: str) -> str | None:
    """The plugin's folder on disk: its node's recorded folder (``path`` below its source
    root), else the nearest folder of the plugin's name holding ``node``'s file; None when
    neither is on record."""
    if plugin is not None:
        root, rel = plugin.attrs.get("source_root"), plugin.attrs.get("path")
        if isinstance(root, str) and isinstance(rel, str) and root and rel and (Path(root) / rel).is_dir():
            return str(Path(root) / rel)
    if node.source:
        found = next((p for p in Path(node.source).parents if p.name == name), None)
        return str(found) if found is not None else None
    return None


def _read_it(node: Node) -> str:
    """Where a file nothing installs is read: its own file, when the index records one."""
    if node.source:
        return f"read it where it is, {file_location(node)}, or copy it into your project by hand"
    return f"the MCP tool get_component gives its text ({node.id}); copy it into your project by hand"


def _what_to_type(view: CallerView, parent: Node) -> str:
    """``name (kind id)`` when its name installs it; else its id first, as the name alone
    would be refused or take another (`by_name.name_for`)."""
    kind = parent.kind.value
    if name_for(view, parent) == parent.name:
        return f"{parent.name} ({kind} {parent.id})"
    return f"{parent.id} (the {kind} {parent.name}, by its id: other components share the name)"


def _plugin_named(view: CallerView | None, name: str) -> str:
    """``name``, with the ids of the visible plugins of that name when it alone would not
    install one of them."""
    if view is None or takes(view, name) is not None:
        return name
    ids = sorted(n.id for n in view.named(name) if n.kind is NodeKind.PLUGIN)
    return f"{name}: {', '.join(ids[:_SHOWN])}" if ids else name


def _users(view: CallerView, node: Node) -> list[Node]:
    """The installable components the caller may see whose text mentions ``node`` (an
    agent naming a loop's file): what uses it, short of holding it."""
    found = {e.source: view.get(e.source) for e in view.in_edges(node.id, EdgeKind.MENTIONS)}
    return sorted((u for u in found.values() if u.kind in INSTALLABLE), key=lambda u: (u.kind.value, u.id))


def _parents(view: CallerView | None, node: Node) -> list[Node]:
    """The installable components and plugins ``node`` is part of (PART_OF); for a skill,
    the outermost skill whose folder holds it (`owning_skill`): a SKILL.md nested in another
    skill's folder (app-builder's ``templates/SKILL.md``) is a file of that skill for Claude
    Code, which registers ``.claude/skills/<name>/SKILL.md`` alone, and installing the outer
    skill is what brings the file (naming ``templates`` sent a user to half of app-builder)."""
    if view is None:
        return []
    kinds = INSTALLABLE | {NodeKind.PLUGIN}
    found = (view.get(e.target) for e in view.out_edges(node.id, EdgeKind.PART_OF))
    outer = {p.id: p for p in (_outermost(view, p) for p in found if p.kind in kinds)}
    return sorted(outer.values(), key=lambda p: (p.kind is NodeKind.PLUGIN, p.id))


def _outermost(view: CallerView, parent: Node) -> Node:
    """``parent``, or the outermost skill holding it when it is a skill inside another's folder."""
    return (owning_skill(view, parent.id) or parent) if parent.kind is NodeKind.SKILL else parent
