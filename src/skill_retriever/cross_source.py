"""Declared relations that name a component of ANOTHER source of the same index.

Each source is ingested alone (`indexing.index_sources`), and `ingest.skill_links`
resolves a component's ``requires``, ``dependencies`` and ``conflicts`` in its own source
only: same plugin first, then the first by path, with a note when a name is ambiguous.
A name that resolves nowhere there is kept on the node (``attrs["unresolved_requires"]``,
`item_attrs.UNRESOLVED_ATTR`: the written names per relation). After every write that
adds or removes components (the end of an index run, `sources.remove_source`),
`link_across_sources` looks each of them up again among the components (component kinds
and plugins) that the index holds from OTHER sources, by `mentions.name_key`:

- a component (skill, agent, command, hook, MCP server) before a plugin: a plugin is
  chosen only when no component has the name. A plugin names itself after its main
  member as often as not (``plugins/x/skills/x``), and a plugin installs nothing itself
  (`install` skips it), so the member is what a ``requires: [x]`` means. Own-source
  resolution agrees: `skill_links` places a source's plugins after its components, so
  the first of a name there is a component too;
- several candidates left: the first by (source name, path), with a note naming the
  others (`Link.note`), printed under the link's line, which a run prints when it made
  the link or read the requiring item, its target or a rival. A plugin is no rival to its own
  members (PART_OF, or ``attrs["plugin"]`` in its source): that is the convention
  above, not two things of one name;
- ``dependencies`` make edges only when every entry names a component, here or there
  (else they are packages, as in `skill_links`);
- ``requires`` that resolves nowhere in the whole index keeps its "requires unknown
  component" note (and `install` notes it on the component's entry: `unlinked_requires`);
  one resolved here takes that note back (`CrossSourceReport.settles`) and is reported as
  linked instead.

The edges a node *claims* (`claims`) are its DEPENDS_ON / CONFLICTS_WITH edges to a node
of another source named as one of its unresolved names, and to the local targets of its
recorded ``dependencies``. The pass adds the edges wanted and deletes the claimed ones no
longer wanted, so indexing A (which requires b) then B (which has b), B then A, or both in
one run gives the same edge. Re-indexing the requiring source leaves claimed edges to the
pass (`stale.stale_edge_ids`); an edge whose name the node no longer records (the
``requires`` taken out, or now resolved in its own source) is not claimed and goes there
as any relation the source no longer states. Removing the target's source deletes the
edge with its endpoint (`Index.delete`), the name is unresolved again, and indexing that
source again brings the edge back. JSON graphs, tool catalogues and passage corpora record
no unresolved names: the pass never touches their items or edges.
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.advice import Placeholder, command
from skill_retriever.ingest.item_attrs import UNRESOLVED_ATTR
from skill_retriever.ingest.mentions import name_key
from skill_retriever.ingest.result import Problem
from skill_retriever.model import COMPONENT_KINDS, Edge, EdgeKind, Node, NodeKind
from skill_retriever.stores.index import Index, WriteReport
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["CrossSourceReport", "Link", "Unlinked", "claims", "link_across_sources", "unlinked_requires"]

#: What a name may resolve to in another source: what a skills repository installs.
_TARGET_KINDS = COMPONENT_KINDS | {NodeKind.PLUGIN}
_VERBS = {"requires": "requires", "dependencies": "depends on", "conflicts": "conflicts with"}


@dataclass(frozen=True, slots=True)
class _Record:
    """A node's names that resolved nowhere in its own source (`UNRESOLVED_ATTR`)."""

    requires: tuple[str, ...] = ()
    dependencies: tuple[tuple[str, str | None], ...] = ()  # (written name, local target id)
    conflicts: tuple[tuple[str, str], ...] = ()  # (written name, reason)

    def keys(self, kind: EdgeKind) -> set[str]:
        if kind is EdgeKind.DEPENDS_ON:
            return {name_key(n) for n in self.requires} | {name_key(n) for n, _ in self.dependencies}
        return {name_key(n) for n, _ in self.conflicts} if kind is EdgeKind.CONFLICTS_WITH else set()


def _record(node: Node) -> _Record | None:
    """The node's record, None when it has none or it is not the shape ingest writes
    (attrs written through the API are anyone's)."""
    raw = node.attrs.get(UNRESOLVED_ATTR)
    if not isinstance(raw, Mapping):
        return None
    requires = raw.get("requires", [])
    pairs = {k: raw.get(k, []) for k in ("dependencies", "conflicts")}
    if not isinstance(requires, list) or not all(isinstance(n, str) for n in requires):
        return None
    for value in pairs.values():
        if not isinstance(value, list) or not all(isinstance(e, list) and len(e) == 2 and isinstance(e[0], str) for e in value):
            return None
    return _Record(
        tuple(requires),
        tuple((n, t if isinstance(t, str) else None) for n, t in pairs["dependencies"]),
        tuple((n, r if isinstance(r, str) else "") for n, r in pairs["conflicts"]),
    )


def unlinked_requires(node: Node, linked: Container[str]) -> tuple[str, ...]:
    """The ``requires`` names of ``node`` that resolve nowhere in the index: those its own
    source could not resolve (its record) whose name key is not among ``linked`` (the name
    keys of the nodes its DEPENDS_ON edges reach: a name this pass resolved has one)."""
    record = _record(node)
    return tuple(n for n in record.requires if name_key(n) not in linked) if record else ()


def _source(node: Node) -> str | None:
    name = node.attrs.get("source_name")
    return name if isinstance(name, str) and name else None


def claims(node: Node, target: Node | None, kind: EdgeKind) -> bool:
    """Whether the edge ``node -[kind]-> target`` is one `link_across_sources` makes and
    takes back (re-indexing ``node``'s source leaves it to the pass), judged by ``node``'s
    record as it is now."""
    record = _record(node)
    if record is None or target is None:
        return False
    if kind is EdgeKind.DEPENDS_ON and any(t == target.id for _, t in record.dependencies):
        return True
    return _source(target) != _source(node) and name_key(target.name) in record.keys(kind)


@dataclass(frozen=True, slots=True)
class Link:
    """A declared name of ``node`` resolved to a component of another source."""

    node: str
    node_name: str
    relation: str  # requires | dependencies | conflicts
    name: str
    target: str
    target_name: str
    target_source: str
    new: bool  # made by this pass
    #: The other candidates of the name (ids), and the note naming them; empty when none.
    rivals: tuple[str, ...] = ()
    note: str = ""

    def shown(self, read: Container[str]) -> bool:
        """Whether a run that read ``read`` prints this link: made now, or touching what it
        read (the requiring node, the target, or a rival: a source that brings a second
        component of the name makes the choice one to tell)."""
        return self.new or any(i in read for i in (self.node, self.target, *self.rivals))

    def line(self) -> str:
        return f"{self.node_name} {_VERBS[self.relation]} {self.name!r}: linked to {self.target_source}'s {self.target_name}"


@dataclass(frozen=True, slots=True)
class Unlinked:
    """A ``requires`` of ``node`` that names no component anywhere in the index;
    ``lost`` when it named one of another source before the write (now removed)."""

    node: str
    node_name: str
    name: str
    lost: bool

    def line(self) -> str:
        return f"{self.node_name} requires {self.name!r}: no component of that name is left in the index; no edge made"


@dataclass
class CrossSourceReport:
    """What `link_across_sources` found and wrote."""

    links: list[Link] = field(default_factory=list)
    unresolved: list[Unlinked] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)  # ambiguity, ``item`` the requiring node
    added: int = 0
    removed: int = 0
    writes: list[WriteReport] = field(default_factory=list)

    def settles(self, problem: Problem) -> bool:
        """Whether ``problem`` (a note from ingest) is moot now: a ``requires`` named no
        component of its source, or a ``dependencies`` list looked mistyped, and another
        source completed it."""
        # here, not at the top: `install` reads what is missing through this module, and
        # skill_links imports the ingest readers and every secret pattern
        from skill_retriever.ingest.skill_links import NEAR_MISS_START, unknown_component_message

        for link in self.links:
            if problem.item != link.node:
                continue
            if link.relation == "requires" and problem.message == unknown_component_message(link.name):
                return True
            if link.relation == "dependencies" and problem.message.startswith(NEAR_MISS_START):
                return True
        return False

    def lines(self, shown: Container[str]) -> list[str]:
        """What a person reads: links made now or touching an item in ``shown`` (read by
        this run, `Link.shown`), each followed by its ambiguity note when it has one
        (whichever source the run read), and the names that lost their component now."""
        out = []
        for link in self.links:
            if link.shown(shown):
                out += [link.line(), *([f"note: {link.note}"] if link.note else [])]
        return out + [u.line() for u in self.unresolved if u.lost]

    def to_dict(self) -> dict[str, Any]:
        return {
            "links": [{"node": k.node, "relation": k.relation, "name": k.name, "target": k.target,
                       "target_source": k.target_source, "new": k.new} for k in self.links],
            "unresolved": [{"node": u.node, "name": u.name, "lost": u.lost} for u in self.unresolved],
            "notes": [str(p) for p in self.notes],
            "edges_added": self.added,
            "edges_removed": self.removed,
        }


class _Targets:
    """The components and plugins of every named source by name key, each list in
    (plugin last, source, path) order."""

    def __init__(self, snap: IndexSnapshot) -> None:
        self.snap = snap
        self.by_key: dict[str, list[Node]] = {}
        # (source, plugin name) -> the items that name that plugin as theirs: read in the
        # same pass, so that folding a plugin into its members is no scan per plugin.
        self.named_members: dict[tuple[str, str], set[str]] = {}
        for n in snap.nodes.values():
            source = _source(n)
            if source is None:
                continue
            if n.kind in _TARGET_KINDS and (key := name_key(n.name)):
                self.by_key.setdefault(key, []).append(n)
            if isinstance(plugin := n.attrs.get("plugin"), str):
                self.named_members.setdefault((source, plugin), set()).add(n.id)
        for found in self.by_key.values():
            found.sort(key=lambda n: (n.kind is NodeKind.PLUGIN, _source(n) or "", _path(n), n.id))

    def elsewhere(self, name: str, node: Node) -> list[Node]:
        """Components named ``name`` in a source other than ``node``'s, first one first."""
        return [n for n in self.by_key.get(name_key(name), ()) if _source(n) != _source(node)]

    def rivals(self, found: list[Node]) -> list[Node]:
        """``found`` less each plugin one of whose members is in it: a plugin named after
        its member is one thing of that name, not two."""
        members = {n.id for n in found if n.kind is not NodeKind.PLUGIN}
        if len(found) < 2 or not members or len(members) == len(found):
            return found  # no plugin beside a component: nothing to fold
        return [n for n in found if n.kind is not NodeKind.PLUGIN or not (members & self._members(n))]

    def _members(self, plugin: Node) -> set[str]:
        named = self.named_members.get((_source(plugin) or "", plugin.name), set())
        return named | {e.source for e in self.snap.in_edges(plugin.id, EdgeKind.PART_OF)}


def _path(node: Node) -> str:
    return str(node.attrs.get("path") or node.id)


def _ambiguity(node: Node, relation: str, name: str, rivals: list[Node], index_dir: Path) -> str:
    """The note on a name that several items of other sources answer to: which one the
    relation goes to, why, and what the user can do about it with the index at ``index_dir``
    (the sources are usually others' repositories: renaming in them is no answer)."""
    first = rivals[0]
    kinds = {n.kind is NodeKind.PLUGIN for n in rivals}
    what = "components" if kinds == {False} else "plugins" if kinds == {True} else "components and plugins"
    rule = "the first by source name and path" if len(kinds) == 1 else "a component before a plugin"
    others = ", ".join(f"{n.kind.value} {n.id}" for n in rivals[1:])
    return (
        f"{node.name} {_VERBS[relation]} {name!r}, which {len(rivals)} {what} of other sources are named: "
        f"the relation goes to {first.kind.value} {first.id}, {rule} (also {others}); if another is meant, "
        f"install that one by its id (`{command(['install', Placeholder('ID'), '--target', Placeholder('DIR')], index_dir)}`), "
        f"or take the source not meant out of the index (`{command(['remove-source', Placeholder('NAME')], index_dir)}`)"
    )


class _Pass:
    def __init__(self, snap: IndexSnapshot, before: IndexSnapshot | None) -> None:
        self.snap, self.before = snap, before
        self.targets = _Targets(snap)
        self.want: dict[str, Edge] = {}
        self.report = CrossSourceReport()

    def link(self, node: Node, relation: str, name: str, target: Node, found: list[Node], edge: Edge) -> None:
        self.want[edge.id] = edge
        rivals = self.targets.rivals(found)
        note = _ambiguity(node, relation, name, rivals, self.snap.path) if len(rivals) > 1 else ""
        self.report.links.append(Link(node.id, node.name, relation, name, target.id, target.name,
                                      _source(target) or "", edge.id not in self.snap.edges,
                                      tuple(n.id for n in rivals if n is not target), note))
        if note:
            self.report.notes.append(Problem(node.source, note, read_whole=True, item=node.id))

    def node(self, node: Node, record: _Record) -> None:
        for name in record.requires:
            if found := self.targets.elsewhere(name, node):
                self.link(node, "requires", name, found[0], found, Edge(node.id, found[0].id, EdgeKind.DEPENDS_ON))
            else:
                self.report.unresolved.append(Unlinked(node.id, node.name, name, self._had(node, name)))
        for name, reason in record.conflicts:
            if found := self.targets.elsewhere(name, node):
                edge = Edge(node.id, found[0].id, EdgeKind.CONFLICTS_WITH, description=reason)
                self.link(node, "conflicts", name, found[0], found, edge)
        found_all = [[] if local else self.targets.elsewhere(name, node) for name, local in record.dependencies]
        if all((local in self.snap.nodes) if local else found
               for (_, local), found in zip(record.dependencies, found_all, strict=True)):
            for (name, local), found in zip(record.dependencies, found_all, strict=True):
                if local:  # resolved in its own source; wanted now that the list is complete
                    edge = Edge(node.id, local, EdgeKind.DEPENDS_ON)
                    self.want[edge.id] = edge
                else:
                    self.link(node, "dependencies", name, found[0], found, Edge(node.id, found[0].id, EdgeKind.DEPENDS_ON))

    def _had(self, node: Node, name: str) -> bool:
        """Whether, before the write, ``node`` had an edge for ``name`` into another source."""
        if self.before is None or node.id not in self.before.nodes:
            return False
        key = name_key(name)
        return any(
            (t := self.before.nodes.get(e.target)) is not None and _source(t) != _source(node) and name_key(t.name) == key
            for e in self.before.out_edges(node.id, EdgeKind.DEPENDS_ON)
        )


def link_across_sources(index: Index, before: IndexSnapshot | None = None) -> CrossSourceReport:
    """Resolve every node's unresolved names among the other sources of ``index`` and write
    the edges that follows (see the module docstring); ``before``, the index as it was
    before the write that calls this, tells which names lost their component by it."""
    snap = index.snapshot()
    work = _Pass(snap, before)
    claimed: set[str] = set()
    for node in snap.nodes.values():
        record = _record(node)
        if record is None:
            continue
        work.node(node, record)
        claimed.update(
            e.id for kind in (EdgeKind.DEPENDS_ON, EdgeKind.CONFLICTS_WITH)
            for e in snap.out_edges(node.id, kind) if claims(node, snap.nodes.get(e.target), kind)
        )
    report = work.report
    drop = sorted(claimed - work.want.keys())
    add = [e for edge_id, e in work.want.items() if snap.edges.get(edge_id) != e]
    if drop:
        report.writes.append(index.delete((), drop))
    if add:
        report.writes.append(index.upsert((), add))
    report.added, report.removed = len(add), len(drop)
    return report
