"""Near-duplicates: the same component re-hosted in several repositories (or plugins).

Two items are copies of one component when they are of one kind that catalogues re-host
(`COPYABLE_KINDS`: components, plugins, other Markdown files and documents) and

- their names match after normalisation (case, ``-``/``_``/spaces) and their embeddings
  have cosine >= ``same_name_cosine`` (a copy, perhaps lightly edited), or
- their names match and so do their descriptions (`difflib` ratio >= ``description_ratio``,
  both >= `MIN_DESCRIPTION` characters): a copy whose body was reworked, or
- their names are similar (`difflib` ratio >= ``name_ratio``) and cosine >=
  ``cosine`` (a renamed copy), or
- their bodies are identical (whitespace aside) and at least `MIN_SAME_BODY` characters
  long (a copy renamed on the way).

A name is the frontmatter name or the file's own name (a skill's folder, an agent's or
command's file stem): re-hosting collections often prefix the frontmatter name with their
plugin (``comprehensive-review-security-auditor`` for ``agents/security-auditor.md``).

Name alone is not enough ("deploy" in two repositories can be two different commands),
and embedding alone is not either (two skills about one library can be near in meaning).
Groups are the connected parts of that relation. In a ranked result the best-ranked
member stands for its group and lists the others as its other sources.

Everything here reads a `CallerView`: a duplicate the caller may not see is never named.
The name map is built once per snapshot and kept on it, so it cannot go stale.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from skill_retriever.components.present_copy import present_first
from skill_retriever.model import COMPONENT_KINDS, Node, NodeKind

if TYPE_CHECKING:
    from skill_retriever.components.view import CallerView

__all__ = [
    "COPYABLE_KINDS",
    "Collapsed",
    "DedupConfig",
    "collapse_ranked",
    "duplicate_groups",
    "duplicates_of",
    "index_duplicate_groups",
    "is_same_component",
    "name_similarity",
]

_SEP_RE = re.compile(r"[\W_]+")
#: Shorter identical bodies ("Run the tests.") say little about being the same component.
MIN_SAME_BODY = 200
#: Shorter descriptions ("Run the tests.") say little either.
MIN_DESCRIPTION = 40
_BLOCK = 1024
#: The kinds that catalogues re-host, so that one item can have copies: components,
#: the plugins that bundle them (one plugin folder indexed under two source names, or a
#: marketplace mirrored: listed twice otherwise, its skills folded), the other Markdown
#: files they ship (prompt templates: `other`) and documents (a runbook
#: copied into two repositories). An incident, a deploy, a service, a tool or a passage is
#: a record of its own, however alike another one reads: two incidents named "checkout
#: 500s" are two outages, never one shown twice.
COPYABLE_KINDS: frozenset[NodeKind] = COMPONENT_KINDS | {NodeKind.PLUGIN, NodeKind.OTHER, NodeKind.DOCUMENT}


@dataclass(frozen=True)
class DedupConfig:
    """Thresholds of the same-component test (calibrated on ../shared/data/skills)."""

    same_name_cosine: float = 0.80
    description_ratio: float = 0.95
    name_ratio: float = 0.85
    cosine: float = 0.96


def _norm(name: str) -> str:
    return _SEP_RE.sub(" ", name.casefold()).strip()


def body_key(node: Node) -> str | None:
    """The body with whitespace collapsed, or None when too short to identify a copy."""
    body = " ".join(node.text.split())
    return body if len(body) >= MIN_SAME_BODY else None


def name_similarity(a: str, b: str) -> float:
    """1.0 for names equal after normalisation, else the `difflib` ratio of the two."""
    x, y = _norm(a), _norm(b)
    if x == y:
        return 1.0
    return difflib.SequenceMatcher(None, x, y, autojunk=False).ratio()


def name_variants(node: Node) -> tuple[str, ...]:
    """The name and, for a component read from a file (``attrs["path"]``), the file's own
    name: a skill's folder, else the file stem."""
    rel = node.attrs.get("path")
    if not isinstance(rel, str) or not rel:
        return (node.name,)
    path = PurePosixPath(rel.split("#", 1)[0])
    own = path.parent.name if path.name.lower() == "skill.md" else path.stem
    return tuple(dict.fromkeys(n for n in (node.name, own) if _norm(n)))


def names_similarity(a: Node, b: Node) -> float:
    """The best `name_similarity` over the two nodes' name variants."""
    return max(name_similarity(x, y) for x in name_variants(a) for y in name_variants(b))


def _same_description(a: Node, b: Node, ratio: float) -> bool:
    """Descriptions equal or nearly so, compared word by word (first 100 words)."""
    if min(len(a.description), len(b.description)) < MIN_DESCRIPTION:
        return False
    x, y = a.description.casefold().split()[:100], b.description.casefold().split()[:100]
    if x == y:
        return True
    matcher = difflib.SequenceMatcher(None, x, y, autojunk=False)
    return (
        matcher.real_quick_ratio() >= ratio
        and matcher.quick_ratio() >= ratio
        and matcher.ratio() >= ratio
    )


def _part(node: Node) -> str | None:
    """Which part of its file ``node`` is (``alpha#hooks`` of ``marketplace.json#alpha#hooks``);
    None for an item that is its whole file. One file read by two overlapping sources gives
    each the same part: those are copies."""
    rel = node.attrs.get("path")
    return rel.split("#", 1)[1] if isinstance(rel, str) and "#" in rel else None


def is_same_component(a: Node, b: Node, cosine: float, config: DedupConfig = DedupConfig()) -> bool:
    """The test of the module docstring for one pair, given their embeddings' cosine;
    False for kinds that have no copies (`COPYABLE_KINDS`).
    Two documents read from one file (sections of it, `ingest.document_sections`) are
    parts of it, never copies, however alike their names ("Runbook › Restore" and
    "Runbook › Restore (staging)"); so are two parts of any file (two plugins, or two
    entries' hooks, of one marketplace.json, whose stem was a name variant of each)."""
    if a.kind is not b.kind or a.id == b.id or a.kind not in COPYABLE_KINDS:
        return False
    if a.kind is NodeKind.DOCUMENT and a.source and a.source == b.source:
        return False
    if a.source and a.source == b.source and _part(a) != _part(b):
        return False  # two parts of one file (two entries of a marketplace.json), not re-hostings
    if abs(len(a.text) - len(b.text)) <= 0.2 * max(len(a.text), len(b.text)):
        key = body_key(a)
        if key is not None and key == body_key(b):
            return True
    sim = names_similarity(a, b)
    if sim == 1.0 and (
        cosine >= config.same_name_cosine or _same_description(a, b, config.description_ratio)
    ):
        return True
    return sim >= config.name_ratio and cosine >= config.cosine


def duplicate_groups(
    nodes: Sequence[Node], vectors: NDArray[np.float32], config: DedupConfig = DedupConfig()
) -> list[tuple[str, ...]]:
    """Groups (size >= 2) of the same component among ``nodes``.

    Args:
        nodes: The nodes to compare.
        vectors: L2-normalised embeddings, row ``i`` for ``nodes[i]``.
        config: Thresholds.

    Returns:
        Groups of ids, each in ``nodes`` order, the groups ordered by their first id.
    """
    if len(nodes) != len(vectors):
        raise ValueError(f"{len(nodes)} nodes but {len(vectors)} vectors; give one row per node")
    parent = list(range(len(nodes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    floor = min(config.same_name_cosine, config.cosine)
    by_kind: dict[str, list[int]] = {}
    for i, n in enumerate(nodes):
        by_kind.setdefault(n.kind.value, []).append(i)
    for rows in by_kind.values():
        if len(rows) < 2:
            continue
        sub = np.asarray(vectors[rows], dtype=np.float32)
        for start in range(0, len(rows), _BLOCK):  # blocks of rows: memory stays O(block * n)
            sims = sub[start : start + _BLOCK] @ sub.T
            for da, b in zip(*np.nonzero(sims >= floor), strict=True):
                a = start + int(da)
                if b <= a:
                    continue
                i, j = rows[a], rows[int(b)]
                if find(i) != find(j) and is_same_component(
                    nodes[i], nodes[j], float(sims[da, b]), config
                ):
                    parent[find(j)] = find(i)
        for bucket in _name_buckets(nodes, rows).values():  # same name, whatever the cosine
            for x, i in enumerate(bucket):
                for j in bucket[x + 1 :]:
                    if find(i) != find(j):
                        cos = float(np.dot(vectors[i], vectors[j]))
                        if is_same_component(nodes[i], nodes[j], cos, config):
                            parent[find(j)] = find(i)
        bodies: dict[str, int] = {}
        for i in rows:  # identical bodies, whatever the names and embeddings say
            key = body_key(nodes[i])
            j = bodies.setdefault(key, i) if key is not None else i
            if j != i:
                parent[find(i)] = find(j)
    groups: dict[int, list[str]] = {}
    for i, n in enumerate(nodes):
        groups.setdefault(find(i), []).append(n.id)
    position = {n.id: i for i, n in enumerate(nodes)}
    return sorted((tuple(g) for g in groups.values() if len(g) > 1), key=lambda g: position[g[0]])


def _name_buckets(nodes: Sequence[Node], rows: Iterable[int]) -> dict[str, list[int]]:
    buckets: dict[str, list[int]] = {}
    for i in rows:
        for name in {_norm(v) for v in name_variants(nodes[i])}:
            buckets.setdefault(name, []).append(i)
    return {k: v for k, v in buckets.items() if len(v) > 1}


def _name_map(view: CallerView, kind: NodeKind) -> Mapping[str, tuple[str, ...]]:
    """Normalised name variant -> ids of every node of ``kind`` in the snapshot, built once
    per snapshot and kind and kept on it (callers filter by what they may see). Per kind:
    the answers of a passage query are passages, a sixth of the nodes of a corpus of
    passages, entities and facts, so the rest are never read for it."""

    def build() -> Mapping[str, tuple[str, ...]]:
        names: dict[str, list[str]] = {}
        for n in view.snapshot.nodes.values():
            if n.kind == kind:
                for v in {_norm(x) for x in name_variants(n)}:
                    names.setdefault(v, []).append(n.id)
        return {k: tuple(v) for k, v in names.items()}

    return view.snapshot.memo("dedup-names", kind, build, len(NodeKind))


def _same_name_ids(view: CallerView, node: Node) -> list[str]:
    """Ids of visible nodes of ``node``'s kind sharing one of its name variants."""
    names = _name_map(view, node.kind)
    out: dict[str, None] = {}
    for v in {_norm(x) for x in name_variants(node)}:
        out.update(dict.fromkeys(i for i in names.get(v, ()) if view.sees(i)))
    out.pop(node.id, None)
    return list(out)


def index_duplicate_groups(
    view: CallerView, kinds: Iterable[str] | None = None, config: DedupConfig = DedupConfig()
) -> list[tuple[str, ...]]:
    """Duplicate groups among the visible components (``kinds``, default all component kinds)."""
    wanted = {str(k) for k in (kinds if kinds is not None else COMPONENT_KINDS)}
    gm, emb = view.graph, view.embeddings
    nodes = view.nodes
    rows = [
        r
        for r, node_id in enumerate(gm.ids)
        if (n := nodes.get(node_id)) is not None and n.kind.value in wanted
    ]
    return duplicate_groups([nodes[gm.ids[r]] for r in rows], emb[rows], config)


def duplicates_of(
    view: CallerView, node_id: str, *, config: DedupConfig = DedupConfig()
) -> tuple[str, ...]:
    """Other visible components that are the same as ``node_id``, nearest first."""
    node = view.get(node_id)
    gm, emb = view.graph, view.embeddings
    row = gm.index.get(node_id)
    if row is None:
        return ()
    sims = emb @ emb[row]
    floor = min(config.same_name_cosine, config.cosine)
    rows = {int(r) for r in np.nonzero(sims >= floor)[0]}
    rows.update(r for i in _same_name_ids(view, node) if (r := gm.index.get(i)) is not None)
    found: list[tuple[float, str]] = []
    for r in sorted(rows):
        other_id = gm.ids[r]
        if other_id == node_id or not view.sees(other_id):
            continue
        if is_same_component(node, view.get(other_id), float(sims[r]), config):
            found.append((-float(sims[r]), other_id))
    return tuple(i for _, i in sorted(found))


def copy_candidates(rows: NDArray[np.float32], vector: NDArray[np.float32], floor: float) -> NDArray[np.intp]:
    """Positions of ``rows`` whose cosine with ``vector`` may reach ``floor``: a margin
    below it, since one matrix product can round a pair's cosine below the scalar one
    that `is_same_component` is then given."""
    return np.nonzero(rows @ vector >= floor - 1e-4)[0]


@dataclass(frozen=True)
class Collapsed:
    """A ranked list with each group of duplicates shown once.

    Attributes:
        ids: Representatives, in rank order.
        folded: Representative -> the lower-ranked duplicates removed from the list.
    """

    ids: tuple[str, ...]
    folded: Mapping[str, tuple[str, ...]]


def collapse_ranked(
    view: CallerView,
    ranked: Sequence[str],
    *,
    config: DedupConfig = DedupConfig(),
) -> Collapsed:
    """Fold every lower-ranked duplicate into the best-ranked member of its group, which
    gives way to a copy of the same text whose file is there when its own is gone
    (`present_copy`); ids the caller may not see are left out."""
    gm, emb = view.graph, view.embeddings
    keep: list[str] = []
    folded: dict[str, list[str]] = {}
    # Only a pair sharing a name variant, an identical body or a cosine at the floor can be
    # copies (the module docstring): testing every kept representative instead was
    # quadratic, ~30 s of a `query -k 1000` on two real catalogues (725 items).
    floor = min(config.same_name_cosine, config.cosine)
    reps: list[str] = []  # the kept representatives that have a vector, in rank order
    rep_rows: list[int] = []
    by_name: dict[str, list[int]] = {}  # normalised name variant -> positions in reps
    by_body: dict[str, list[int]] = {}
    for node_id in dict.fromkeys(ranked):
        if not view.sees(node_id):
            continue
        node = view.get(node_id)
        row = gm.index.get(node_id)
        owner = None
        names = {_norm(v) for v in name_variants(node)}
        body = body_key(node)
        if row is not None and reps:
            near = set(copy_candidates(emb[rep_rows], emb[row], floor).tolist())
            near.update(p for v in names for p in by_name.get(v, ()))
            near.update(by_body.get(body, ()) if body is not None else ())
            for pos in sorted(near):
                cos = float(emb[row] @ emb[rep_rows[pos]])
                if is_same_component(view.get(reps[pos]), node, cos, config):
                    owner = reps[pos]
                    break
        if owner is None:
            keep.append(node_id)
            folded[node_id] = []
            if row is not None:
                for v in names:
                    by_name.setdefault(v, []).append(len(reps))
                if body is not None:
                    by_body.setdefault(body, []).append(len(reps))
                reps.append(node_id)
                rep_rows.append(row)
        else:
            folded[owner].append(node_id)
    # the copy whose file is there names the entry, in its place (a renamed folder's old copy does not)
    named = [present_first(rep, folded[rep], view.get) for rep in keep]
    return Collapsed(tuple(rep for rep, _ in named), dict(named))
