"""Placed component records -> nodes, and the names they use -> edges.

Resolution of a name (normalised by `mentions.name_key`): a component of the same
plugin, else the first by path in the same corpus, else, for declared relations only,
the first in the other corpora read together. Never a self-edge, never a duplicate
(source, target, kind), never an edge to a node that was not built.

What resolves nowhere here is kept on the node (``attrs["unresolved_requires"]``, see
`unresolved_record`), for `cross_source` to look up among the other sources of the index
the node is written to; its "requires unknown component" note names the node (``item``)
so that a name resolved there takes the note back.

A Markdown component's node holds no secret its file quotes (`redact_fields`: name,
description, text, tags and frontmatter values); names are resolved, and mentions found,
from the record as read, so redaction changes no edge.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.exceptions import InvalidItemError
from skill_retriever.ingest.item_attrs import UNRESOLVED_ATTR
from skill_retriever.ingest.mentions import MentionScanner, common_keys, name_key
from skill_retriever.ingest.redact_fields import is_markdown_item, redacted_item
from skill_retriever.ingest.result import IngestResult, Problem
from skill_retriever.ingest.skill_records import Record
from skill_retriever.ingest.tool_servers import server_named
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind

#: A dependency like ``torch>=2.9``, ``pkg[extra]`` or ``org/repo`` is a package, not a component.
PACKAGE_SPEC_RE = re.compile(r"[<>=!~@\[/]")
#: A mention is weaker evidence than a declared relation.
MENTION_WEIGHT = 0.5

_Index = Mapping[str, Sequence["Placed"]]

#: How a note on a ``dependencies`` list read as packages because of a likely typo begins.
NEAR_MISS_START = "dependencies names components"


def unknown_component_message(name: str) -> str:
    """The note on a ``requires`` that names no component (`cross_source` takes it back
    when another source of the index has one)."""
    return f"requires unknown component {name!r}; no edge made"


@dataclass(slots=True)
class Placed:
    """A record placed in its corpus: id, file, plugin folder, and the node it is PART_OF
    (``also``: the other plugins it is PART_OF, entries of one marketplace root that each
    list it: `skills`)."""

    id: str
    record: Record
    source: Path
    plugin: str | None
    parent: str | None
    also: tuple[str, ...] = ()


@dataclass(slots=True)
class Corpus:
    """Everything read from one repository, before linking."""

    name: str
    placed: list[Placed] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: Put on every node of the corpus: ``source_root`` and ``source_name``.
    attrs: dict[str, str] = field(default_factory=dict)


class _Edges:
    def __init__(self) -> None:
        self.items: list[Edge] = []
        self._seen: set[tuple[str, str, EdgeKind]] = set()

    def add(
        self, source: str, target: str, kind: EdgeKind, weight: float = 1.0, description: str = ""
    ) -> None:
        if source == target or (source, target, kind) in self._seen:
            return
        self._seen.add((source, target, kind))
        self.items.append(Edge(source, target, kind, weight, description))


def link_corpora(corpora: Sequence[Corpus], source: str) -> IngestResult:
    """Build the nodes of all corpora and the edges between them."""
    result = IngestResult(source=source)
    live: dict[str, list[Placed]] = {}
    nodes: list[Node] = []
    access = inherited_access([p for c in corpora for p in c.placed])
    for corpus in corpora:
        result.problems += corpus.problems
        live[corpus.name] = []
        for p in corpus.placed:
            try:
                node = _node(corpus, p, access[p.id])
            except (InvalidItemError, TypeError, ValueError) as exc:  # Node validates its fields
                result.problems.append(Problem(str(p.source), str(exc)))
                continue
            live[corpus.name].append(p)
            nodes.append(node)
    ids = {n.id for n in nodes}
    indexes = {name: _index(ps) for name, ps in live.items()}
    edges = _Edges()
    unresolved: dict[str, dict[str, Any]] = {}
    for corpus in corpora:
        order = [indexes[corpus.name]] + [indexes[c.name] for c in corpora if c is not corpus]
        for p in live[corpus.name]:
            if record := _declared_edges(p, order, ids, edges, result.problems):
                unresolved[p.id] = record
        _mention_edges(live[corpus.name], indexes[corpus.name], edges)
    result.nodes = [
        n.with_changes(attrs={**n.attrs, UNRESOLVED_ATTR: unresolved[n.id]}) if n.id in unresolved else n
        for n in nodes
    ]
    result.edges = edges.items
    return result


def inherited_access(placed: Sequence[Placed]) -> dict[str, tuple[str, ...]]:
    """Each record's ``access`` labels: its own, else those of the nearest node it is
    part of that has some (a skill's template, a plugin's skill: private with it)."""
    by_id = {p.id: p for p in placed}
    return {p.id: _labels(p, by_id) for p in placed}


def named_by_plugin(placed: Sequence[Placed], members: Sequence[Placed], plugin: tuple[str, ...]) -> list[Placed]:
    """Those of a plugin's ``members`` that its text may name: each that every caller who
    may see the plugin (labels ``plugin``) may see too. Its own labels, else those of the
    nearest record of ``placed`` it is part of (a private skill's template), else the
    plugin's: none of its own or those of a record inside the plugin that has none is
    named; labels of its own are named only when they hold all of the plugin's. The
    plugin's text is returned, embedded and matched for every caller who sees the plugin:
    a public plugin's text named its private member, and matched its name, for anyone
    (found in an MCP walkthrough)."""
    by_id = {p.id: p for p in placed}
    return [m for m in members if not (own := _labels(m, by_id)) or (bool(plugin) and set(plugin) <= set(own))]


def _labels(p: Placed, by_id: Mapping[str, Placed]) -> tuple[str, ...]:
    """``p``'s own access labels, else those of the nearest record it is part of that has some."""
    seen = {p.id}
    while not p.record.access and p.parent is not None and p.parent in by_id and p.parent not in seen:
        p = by_id[p.parent]
        seen.add(p.id)
    return p.record.access


def _node(corpus: Corpus, p: Placed, access: tuple[str, ...]) -> Node:
    r = p.record
    node = Node(
        id=p.id,
        kind=r.kind,
        name=r.name,
        text=r.text,
        description=r.description,
        tags=r.tags,
        access=access,
        created=r.created,
        updated=r.updated,
        source=str(p.source),
        attrs={"corpus": corpus.name, "path": r.rel, **r.attrs, **corpus.attrs},
    )
    # A Markdown file is prose its author wrote: no secret it quotes goes into the index
    # (`redact_fields`). JSON hooks and MCP servers were redacted as they were read.
    return redacted_item(node) if is_markdown_item(node) else node


def _index(placed: list[Placed]) -> dict[str, list[Placed]]:
    index: dict[str, list[Placed]] = {}
    for p in placed:
        key = name_key(p.record.name)
        if key:
            index.setdefault(key, []).append(p)
    return index


def _resolve(
    key: str, p: Placed, order: Sequence[_Index], kind: NodeKind | None = None
) -> Placed | None:
    for index in order:
        found = [
            q for q in index.get(key, ()) if q is not p and (kind is None or q.record.kind is kind)
        ]
        if found:
            same_plugin = [q for q in found if p.plugin is not None and q.plugin == p.plugin]
            return (same_plugin or found)[0]
    return None


def _ambiguity_note(name: str, key: str, p: Placed, order: Sequence[_Index], target: Placed) -> str | None:
    """A note when ``name`` names several components alike (no plugin of ``p``'s decides):
    the relation goes to the first by path, which another file named so can change. A
    plugin named after one of its own members (``plugins/x/skills/x``) is one thing of that
    name, not two: the member is placed first, and no note is due."""
    for index in order:
        found = [q for q in index.get(key, ()) if q is not p]
        members = {q.parent for q in found}
        found = [q for q in found if not (q.record.kind is NodeKind.PLUGIN and q.id in members)]
        if not found:
            continue
        if len(found) < 2 or (p.plugin is not None and any(q.plugin == p.plugin for q in found)):
            return None
        others = ", ".join(q.record.rel for q in found if q is not target)
        return (f"requires {name!r}, which {len(found)} components are named: the relation goes to "
                f"{target.record.rel}, the first by path (also {others}); rename one to choose")
    return None


def _declared_edges(
    p: Placed, order: Sequence[_Index], ids: set[str], edges: _Edges, problems: list[Problem]
) -> dict[str, Any]:
    """Make ``p``'s declared edges; what of them resolved nowhere (`UNRESOLVED_ATTR`)."""
    r, own = p.record, name_key(p.record.name)
    record: dict[str, Any] = {}
    for parent in (p.parent, *p.also):
        if parent in ids:
            edges.add(p.id, parent, EdgeKind.PART_OF)
    required: set[str] = set()
    for name in r.requires:
        key = name_key(name)
        if not key or key == own:
            continue
        target = _resolve(key, p, order)
        if target is not None:
            edges.add(p.id, target.id, EdgeKind.DEPENDS_ON)
            required.add(target.id)
            if note := _ambiguity_note(name, key, p, order, target):
                problems.append(Problem(str(p.source), note, read_whole=True))
        elif not PACKAGE_SPEC_RE.search(name):
            record.setdefault("requires", []).append(name)
            # read whole: an edge to a component gone from the source goes with it
            problems.append(Problem(str(p.source), unknown_component_message(name), read_whole=True, item=p.id))
    if entries := _dependency_edges(p, order, edges, problems, required):
        record["dependencies"] = entries
    for name, reason in r.conflicts:
        target = _resolve(name_key(name), p, order)
        if target is not None:
            edges.add(p.id, target.id, EdgeKind.CONFLICTS_WITH, description=reason)
        elif name_key(name) and name_key(name) != own:
            record.setdefault("conflicts", []).append([name, reason])
    for tool in r.tools:  # only a form that names a server: a bare tool name is no use of one
        server = server_named(tool)
        target = None if server is None else _resolve(name_key(server), p, order, NodeKind.MCP_SERVER)
        if target is not None:
            edges.add(p.id, target.id, EdgeKind.USES)
    return record


def _dependency_edges(
    p: Placed, order: Sequence[_Index], edges: _Edges, problems: list[Problem], required: set[str]
) -> list[list[str | None]]:
    """DEPENDS_ON for ``dependencies`` that all name components; else they are packages.

    Anthropic's skill format and the collections that follow it list software there
    (``[langchain, langchain-core, torch]``): one that happens to share a component's name
    (``transformers``) is no dependency on it, and the rest are no missing components.
    A list naming the component itself (``guidance`` in the skill on that package) is a
    package list too: nothing depends on itself. A list that is mostly components with
    an entry one typo away from another (`_near_misses`) gets a note saying so.

    A list of names alone that some entry of resolves nowhere here is returned as
    ``[written name, local target id or None]`` entries (those whose target a ``requires``
    already reached left out: that edge stands anyway), for `cross_source` to complete.
    """
    own = name_key(p.record.name)
    written = [(d, k) for d in p.record.dependencies if (k := name_key(d))]
    keys = [k for _, k in written]
    targets = [None if k == own else _resolve(k, p, order) for k in keys]
    if any(map(PACKAGE_SPEC_RE.search, p.record.dependencies)):
        return []
    if any(t is None for t in targets):
        problems.extend(_near_misses(p, keys, targets, order))
        if own in keys:
            return []  # a package list (see above)
        return [[d, t.id if t else None] for (d, _), t in zip(written, targets, strict=True)
                if t is None or t.id not in required]
    for target in targets:
        if target is not None:
            edges.add(p.id, target.id, EdgeKind.DEPENDS_ON)
    return []


def _near_misses(
    p: Placed, keys: list[str], targets: list[Placed | None], order: Sequence[_Index]
) -> list[Problem]:
    """Notes for a ``dependencies`` list read as packages only because of a likely typo:
    at least half of it names components, and an entry that names none is close to a
    component's name (`difflib`, ratio 0.85: one wrong or missing letter in a word of
    seven or more). A package list rarely looks like that, and an author who misspelt
    one name would otherwise lose every edge of the list without a word."""
    own = name_key(p.record.name)
    found = [t for t in targets if t is not None]
    if own in keys or not found or 2 * len(found) < len(keys):
        return []  # a list naming its own component is a package list (`_dependency_edges`)
    names = {k: q.record.name for index in reversed(order) for k, q in _firsts(index) if k != own}
    out = []
    for key, target in zip(keys, targets, strict=True):
        close = difflib.get_close_matches(key, names, n=1, cutoff=0.85) if target is None else []
        if close:
            written = next(d for d in p.record.dependencies if name_key(d) == key)
            out.append(Problem(
                str(p.source),
                f"{NEAR_MISS_START} ({', '.join(t.record.name for t in found)}) but not "
                f"{written!r} (did you mean {names[close[0]]!r}?): the list was read as packages and "
                "no dependency edge was made; correct the name to make them",
                read_whole=True,
                item=p.id,
            ))
    return out


def _firsts(index: _Index) -> list[tuple[str, Placed]]:
    return [(key, found[0]) for key, found in index.items() if found]


def _mention_edges(placed: list[Placed], index: _Index, edges: _Edges) -> None:
    scanner = MentionScanner(index.keys())
    found = [scanner.scan(f"{p.record.description}\n{p.record.text}") for p in placed]
    too_common = common_keys(found, len(placed))
    scopes = _skill_scopes(placed)
    for p, keys in zip(placed, found, strict=True):
        for key in sorted(keys - too_common - {name_key(p.record.name)}):
            seen = [q for q in index[key] if _in_scope(p, scopes.get(q.id))]
            target = _resolve(key, p, [{key: seen}])
            if target is not None:
                edges.add(p.id, target.id, EdgeKind.MENTIONS, MENTION_WEIGHT)


def _skill_scopes(placed: Sequence[Placed]) -> dict[str, str]:
    """The folder of the outermost skill each OTHER file inside a skill lies in.

    Such a file (``rules/webhooks.md``, ``templates/cli-tool/TEMPLATE.md``) is named for
    the readers of its skill: a component elsewhere that says "webhooks" or "cli-tool"
    means the word, not that file (on davila7/claude-code-templates, 16 agents and commands
    got a mention edge to the HeyGen skill's ``rules/webhooks.md`` so)."""
    by_id = {p.id: p for p in placed}
    scopes: dict[str, str] = {}
    for p in placed:
        outer = by_id.get(p.parent or "")
        if p.record.kind is not NodeKind.OTHER or outer is None or outer.record.kind is not NodeKind.SKILL:
            continue
        seen = {p.id}
        while (up := by_id.get(outer.parent or "")) is not None and up.record.kind is NodeKind.SKILL and up.id not in seen:
            seen.add(up.id)
            outer = up
        scopes[p.id] = posixpath.dirname(outer.record.rel)
    return scopes


def _in_scope(p: Placed, scope: str | None) -> bool:
    """Whether ``p``'s file may name a target confined to ``scope`` (None: no confinement;
    '': a skill at the root, whose folder holds every file)."""
    return scope is None or not scope or p.record.rel.startswith(f"{scope}/")
