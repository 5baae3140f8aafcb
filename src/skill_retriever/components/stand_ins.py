"""The visible item a requirement leads to when the one it resolved to is hidden.

Relations are resolved once, at index time, for everyone: in a source by
`ingest.skill_links` (its plugin first, then the first by path), among the other sources
by `cross_source` (a component before a plugin, then by source name and path), names
matched by `mentions.name_key`. A public skill's ``requires: [ruff-format]`` may so lead
to a private copy (``access: [secops]``) although a public ``ruff-format`` exists. Hiding
that edge from a caller without ``secops`` told them the skill "requires a component the
index does not show you" with a ``ruff-format`` in plain sight, which gave the private
copy away, and the public one was not brought.

The rule, per caller (`CallerView`): a DEPENDS_ON edge from an item they see to an item
they may not see leads instead to the item they see that answers to the hidden one's
name key, when the requirer's own file names that requirement (its frontmatter's
``requires``, ``depends_on`` or ``dependencies``: the edge was made from that name). Of
several, the one the resolver would have chosen had the hidden items not been there:
the requirer's own source first (its own plugin's first of all), then the other
sources; in each, a component before a plugin, then by source name, path and id. Never
the requirer itself; one it already requires is not required twice. The caller's
closure, install plan, ``search_components`` dependencies, ``get_component`` (its
``requires`` and the stand-in's ``required_by``) and the CLI read the edge so, and
nothing tells them it stands for anything: their answer is the one an index without the
hidden items would give. A caller who may see the hidden item keeps its edge.

A CONFLICTS_WITH edge is led by the same rule, from the names of the declarer's own
``conflicts`` (resolved by the same resolvers, in the same order): a public skill whose
``conflicts: [ruff-format]`` went to a private copy conflicted, for a public caller, with
nothing, so ``search_components`` flagged no conflict with the public ``ruff-format``, an
install of both went ahead and ``get_component`` listed none. The led edge keeps the
declared reason; conflict flags, install refusals, ``check_dependencies`` and
``get_component`` read it as any other conflict, naming only the visible copy.

Where no visible item answers to the name, the edge stays hidden, and the requirement is
one "the index does not show you" (`requires_not_shown`, `install.missing`), worded as
for a name no source has. An edge no written name gives (a JSON graph's) is never led
elsewhere: no name says what would stand for it.

What it costs: one pass over the hidden items' incoming DEPENDS_ON and CONFLICTS_WITH edges per snapshot and
principal set, kept on the snapshot (`IndexSnapshot.memo`) as the view's visible nodes
are; nothing for a caller who sees everything or an index with no access labels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skill_retriever.components.written_names import written_conflicts, written_requires
from skill_retriever.ingest.mentions import name_key
from skill_retriever.model import COMPONENT_KINDS, Edge, EdgeKind, Node, NodeKind

if TYPE_CHECKING:
    from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["LED_KINDS", "NO_STAND_INS", "StandIns", "led_on", "stand_ins_of"]

#: What a requirement resolves to (`cross_source`): what a skills repository installs.
_TARGET_KINDS = COMPONENT_KINDS | {NodeKind.PLUGIN}
#: The edges a stand-in may take, each with the names its source's own file writes for it
#: (the names the edge was made from).
LED_KINDS: Mapping[EdgeKind, Callable[[Node], list[str]]] = {
    EdgeKind.DEPENDS_ON: written_requires,
    EdgeKind.CONFLICTS_WITH: written_conflicts,
}


@dataclass(frozen=True)
class StandIns:
    """One caller's stand-ins.

    Attributes:
        out: Requirer (or declarer) id -> {(hidden target id, edge kind): the visible id
            that stands for it}.
        into: (Stand-in id, edge kind) -> the edges led to it (from items that had no such
            edge to it already), as `CallerView.in_edges` adds them.
    """

    out: Mapping[str, Mapping[tuple[str, EdgeKind], str]]
    into: Mapping[tuple[str, EdgeKind], tuple[Edge, ...]]

    def led_into(self, node_id: str, kind: EdgeKind | None) -> list[Edge]:
        """The edges led to ``node_id`` (of ``kind``; None: of every kind)."""
        kinds = LED_KINDS if kind is None else (kind,)
        return [e for k in kinds for e in self.into.get((node_id, k), ())]


NO_STAND_INS = StandIns({}, {})


def _source(node: Node) -> str | None:
    name = node.attrs.get("source_name")
    return name if isinstance(name, str) and name else None


def _by_key(snap: IndexSnapshot) -> Mapping[str, tuple[Node, ...]]:
    """Every component and plugin by name key, each list in the resolver's order (a
    component before a plugin, then source name, path, id); one per snapshot."""

    def build() -> Mapping[str, tuple[Node, ...]]:
        found: dict[str, list[Node]] = {}
        for n in snap.nodes.values():
            if n.kind in _TARGET_KINDS and (key := name_key(n.name)):
                found.setdefault(key, []).append(n)
        return {k: tuple(sorted(v, key=_resolver_order)) for k, v in found.items()}

    return snap.memo("component-name-keys", None, build)


def _resolver_order(n: Node) -> tuple[bool, str, str, str]:
    return n.kind is NodeKind.PLUGIN, _source(n) or "", str(n.attrs.get("path") or n.id), n.id


def _pick(requirer: Node, found: Iterable[Node]) -> Node | None:
    """The first of ``found`` (in the resolver's order) by nearness to ``requirer``: its
    own plugin, its own source, any other (see the module)."""
    source, plugin = _source(requirer), requirer.attrs.get("plugin")

    def near(n: Node) -> int:
        if source is None or _source(n) != source:
            return 2
        return 0 if isinstance(plugin, str) and n.attrs.get("plugin") == plugin else 1

    return min(found, key=near, default=None)  # min keeps the first of equals: the order stands


def stand_ins_of(snap: IndexSnapshot, sees: Callable[[str], bool]) -> StandIns:
    """The stand-ins of a caller who sees what ``sees`` admits (see the module); call it
    through `CallerView`, which keeps the answer on the snapshot."""
    out: dict[str, dict[tuple[str, EdgeKind], str]] = {}
    into: dict[tuple[str, EdgeKind], dict[str, Edge]] = {}
    for target in snap.nodes.values():
        if not target.access or target.kind not in _TARGET_KINDS or sees(target.id):
            continue
        key = name_key(target.name)
        for kind, written in LED_KINDS.items():
            for e in snap.in_edges(target.id, kind):
                source = snap.nodes.get(e.source)
                if source is None or not sees(source.id):
                    continue
                if key not in {name_key(n) for n in written(source)}:
                    continue  # no name of its file made this edge
                found = (n for n in _by_key(snap).get(key, ()) if n.id != source.id and sees(n.id))
                if (pick := _pick(source, found)) is None:
                    continue
                out.setdefault(source.id, {})[(target.id, kind)] = pick.id
                if not any(d.target == pick.id for d in snap.out_edges(source.id, kind)):
                    led = Edge(source.id, pick.id, kind, e.weight, e.description)
                    into.setdefault((pick.id, kind), {}).setdefault(source.id, led)
    return StandIns(out, {k: tuple(v.values()) for k, v in into.items()})


def led_on(
    edges: Iterable[Edge], sees: Callable[[str], bool], swap: Mapping[tuple[str, EdgeKind], str]
) -> list[Edge]:
    """``edges`` (out of one visible node) as the caller reads them: those to a visible
    target, and each edge to a hidden one that ``swap`` has a stand-in for (by target and
    kind) led to it, in place; each (target, kind) once."""
    kept: dict[tuple[str, EdgeKind], Edge] = {}
    for e in edges:
        if not sees(e.target):
            if (to := swap.get((e.target, e.kind))) is None:
                continue
            e = Edge(e.source, to, e.kind, e.weight, e.description)
        kept.setdefault((e.target, e.kind), e)
    return list(kept.values())
