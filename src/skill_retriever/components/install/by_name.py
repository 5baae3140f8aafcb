"""What a name given to install or uninstall stands for when several things answer to it.

A plugin is often named after its own main member (``plugins/c-review`` holding the skill
``c-review``: 45 of the 134 plugins of ../shared/data/skills). That name takes the plugin
(`plugin_over_members`): the plugin holds the member, so it gives what either reading
asks for, the plan lists every component before anything is written, and its note names
the member's id, which takes the member alone. A ``requires: [c-review]`` goes to the
member instead (`ingest`): there an author names the one component theirs needs; here a
user names what to put into a project, and a refusal would meet them on the very name
the tool advised. Any other set of several is refused in one line saying what each is,
by id (`ambiguous`); advice that names something to install gives its id whenever its
name alone would not take that one (`name_for`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skill_retriever.components.closure import plugin_members
from skill_retriever.components.install.errors import shown_ref
from skill_retriever.components.install.inventory import INSTALLABLE
from skill_retriever.model import Node, NodeKind

if TYPE_CHECKING:  # `uninstall` names components without reading an index
    from skill_retriever.components.view import CallerView

__all__ = [
    "Candidate",
    "ambiguous",
    "candidates",
    "chosen",
    "name_for",
    "plugin_note",
    "plugin_over_members",
    "takes",
]

_SHOWN = 5  # candidates described in a refusal


@dataclass(frozen=True)
class Candidate:
    """One thing a name answers to: a component, or a plugin with the ids it stands for
    (``members``; None for a component)."""

    id: str
    kind: str
    name: str
    members: tuple[str, ...] | None = None

    @property
    def is_plugin(self) -> bool:
        return self.members is not None


def candidates(view: CallerView, ref: str) -> list[Candidate]:
    """The visible installable components and plugins named ``ref``, by id."""
    members = plugin_members(view, INSTALLABLE)
    kinds = INSTALLABLE | {NodeKind.PLUGIN}
    return [
        Candidate(n.id, n.kind.value, n.name, members(n.id) if n.kind is NodeKind.PLUGIN else None)
        for n in sorted(view.named(ref), key=lambda n: n.id)
        if n.kind in kinds
    ]


def plugin_over_members(found: Sequence[Candidate]) -> Candidate | None:
    """The one plugin among several ``found`` when each other one is its own member."""
    plugins = [c for c in found if c.is_plugin]
    if len(found) < 2 or len(plugins) != 1:
        return None
    plugin = plugins[0]
    held = set(plugin.members or ())
    return plugin if all(c is plugin or c.id in held for c in found) else None


def chosen(found: Sequence[Candidate]) -> str | None:
    """The id a name answered by ``found`` takes: the one, or a plugin over its own
    members; None when the name alone is refused."""
    if len(found) == 1:
        return found[0].id
    plugin = plugin_over_members(found)
    return plugin.id if plugin is not None else None


def takes(view: CallerView, ref: str) -> str | None:
    """The id that ``ref`` installs without an error by these rules (`chosen`); None when
    ``ref`` alone would be refused. Byte-identical copies (`copies`) are left out: advice
    then gives an id, which works as well."""
    return chosen(candidates(view, ref))


def name_for(view: CallerView, node: Node) -> str:
    """What to type to install ``node``: its name when that takes it, else its id."""
    return node.name if takes(view, node.name) == node.id else node.id


def _kind(c: Candidate) -> str:
    return c.kind.replace("_", " ")  # "mcp server"


def _what(c: Candidate, found: Sequence[Candidate]) -> str:
    """``the plugin x (id P, 3 components)``, ``its skill x (id S)``, ``the skill x (id T)``."""
    if c.members is not None:
        n = len(c.members)
        return f"the plugin {c.name} (id {c.id}, {n} component{'' if n == 1 else 's'})"
    plugins = [p for p in found if p.is_plugin]
    owners = [p for p in plugins if c.id in (p.members or ())]
    if owners and len(plugins) == 1:
        return f"its {_kind(c)} {c.name} (id {c.id})"
    of = f" of plugin {owners[0].name}" if owners else ""
    return f"the {_kind(c)} {c.name}{of} (id {c.id})"


def _listed(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def ambiguous(ref: str, found: Sequence[Candidate], *, where: str = "", differ: bool = False) -> str:
    """One line: what each of ``found`` (all named ``ref``) is, by id, and to give one id.
    ``where``: appended to "are named" (an uninstall's record); ``differ``: they are of one
    kind and what installing them would write differs (they are no copies of one file)."""
    parts = [_what(c, found) for c in found[:_SHOWN]]
    if len(found) > _SHOWN:
        parts.append(f"{len(found) - _SHOWN} more")
    why = ", which install would write differently" if differ else ""
    return (
        f"{len(found)} components are named {shown_ref(ref)}{where}: {_listed(parts)}{why}; "
        "give the id of the one you want"
    )


def plugin_note(ref: str, plugin: Candidate, found: Sequence[Candidate], verb: str = "install") -> str:
    """Why ``ref`` took ``plugin`` over its own members of that name, and how to take one
    of them alone (``verb``: install or uninstall)."""
    own = [f"{_kind(c)} {c.name} (id {c.id})" for c in found if c is not plugin]
    one = "its id" if len(own) == 1 else "one's id"
    return (
        f"{shown_ref(ref)} names the plugin {plugin.name} (id {plugin.id}) and its own {_listed(own)}: "
        f"{verb}ing the plugin, which holds {'it' if len(own) == 1 else 'them'}; give {one} "
        f"to {verb} it alone"
    )
