"""The write path: what one upsert or delete changes, with the vectors it needs.

:func:`plan_upsert` and :func:`plan_delete` read the live state and return a
`WriteBatch` (the rows to commit and the `Changes` to apply in memory afterwards); they
embed only the texts the index holds no vector of, each once (`stores.text_vectors`). The index
commits the rows in one SQLite transaction, then applies the changes and publishes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from skill_retriever.algorithms.tokenize import bm25_terms
from skill_retriever.exceptions import InvalidItemError, MissingNodeError
from skill_retriever.model import Edge, EdgeKind, Node, validate_graph
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.items import Changes, EdgeRow, NodeRow, StoredVector
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.stored_terms import keyword_indexed
from skill_retriever.stores.text_vectors import TextVectors

#: Edge kinds whose sentence is embedded by default. MENTIONS, PART_OF and SAME_AS are
#: many and carry little text of their own ("X mentions Y"); their value is in the graph.
DEFAULT_EMBEDDED_EDGE_KINDS = frozenset(EdgeKind) - {EdgeKind.MENTIONS, EdgeKind.PART_OF, EdgeKind.SAME_AS}


@dataclass(frozen=True)
class WriteReport:
    """What one write did: how many items changed and how many texts were embedded."""

    nodes_added: int = 0
    nodes_updated: int = 0
    nodes_unchanged: int = 0
    edges_written: int = 0
    nodes_deleted: int = 0
    edges_deleted: int = 0
    #: Edge ids asked to be deleted that the index does not hold. Not an error: a caller
    #: deleting what an earlier run may have taken already (or a damaged row's id) gets
    #: the count, and ``edges_deleted`` counts only the edges that were there.
    edges_not_found: int = 0
    embedded: int = 0  # texts embedded: items' texts and relations' sentences
    embedded_edges: int = 0  # of them, relations' sentences ("<source> <verb> <target>")
    seconds: float = 0.0


@dataclass
class WriteBatch:
    """The rows of one write, the in-memory changes they make, and its report."""

    changes: Changes
    node_rows: list[NodeRow]
    edge_rows: list[EdgeRow]
    delete_nodes: list[str]
    delete_edges: list[str]
    report: WriteReport


def text_hash(text: str) -> str:
    """What a vector was embedded from (a node's content hash, an edge's sentence hash)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def plan_upsert(
    live: LiveState,
    nodes: Sequence[Node],
    edges: Sequence[Edge],
    embedder: Embedder,
    embedded_kinds: Collection[EdgeKind],
    version: int,
    touching: Callable[[list[str]], list[str]],
    progress: Callable[[int], None] | None = None,
) -> WriteBatch | None:
    """The batch that adds or updates ``nodes`` and ``edges``; None when nothing changes.

    Args:
        touching: Node ids -> ids of the edges that touch them (the database's index).
        progress: Called with the number of nodes' texts embedded, as each step of them
            is done (`embed_texts`).

    Raises:
        InvalidItemError: A self edge, a duplicate id, or an edge to a missing node.
    """
    for e in edges:
        if e.source == e.target:
            raise InvalidItemError(f"edge {e.id!r} is a self edge; an item cannot relate to itself")
    validate_graph(list(nodes), list(edges), known_ids=live.nodes.keys())
    current = live.nodes
    fresh_edges = [e for e in {e.id: e for e in edges}.values() if live.edges.get(e.id) != e]
    changed = [n for n in nodes if current.get(n.id) != n]
    retext = [n for n in changed if (old := current.get(n.id)) is None or old.content_hash() != n.content_hash()]
    if not changed and not fresh_edges:
        return None
    changes = Changes(version)
    # A text the index holds a vector of already (a renamed folder's items, a copy), or
    # one this write met before, takes that vector: the model would give the same one
    # again, at seconds per hundred items.
    texts = TextVectors(live, embedder)
    node_hashes = {n.id: n.content_hash() for n in retext}
    by_hash, embedded = texts.vectors({node_hashes[n.id]: n.embedding_text() for n in retext}, progress)
    fresh = {node_id: StoredVector(h, by_hash[h]) for node_id, h in node_hashes.items()}
    # BM25 counts once, for the database and the live index (``stores.stored_terms``)
    if live.keywords.tokenizer is bm25_terms:
        changes.terms = {n.id: live.keywords.analyse(n.embedding_text()) for n in retext if keyword_indexed(n)}
    node_rows = [NodeRow(n, fresh[n.id].vector if n.id in fresh else None, changes.terms.get(n.id)) for n in changed]
    changes.nodes = {n.id: n for n in changed}
    changes.node_vectors = fresh
    # An edge is embedded as "<source name> <verb> <target name>": a renamed node makes
    # the sentences of its edges stale, so they are written again with new vectors.
    names = {n.id: n.name for n in nodes}
    renamed = [n.id for n in changed if (old := current.get(n.id)) is not None and old.name != n.name]
    queued = {e.id: e for e in fresh_edges}
    for edge_id in touching(renamed) if renamed else ():
        if (touched := live.edges.get(edge_id)) is not None:
            queued.setdefault(touched.id, touched)

    def name(node_id: str) -> str:
        return names.get(node_id) or current[node_id].name

    edge_rows = [EdgeRow(e) for e in queued.values() if e.kind not in embedded_kinds]
    sentences = {e.id: e.embedding_text(name(e.source), name(e.target)) for e in queued.values() if e.kind in embedded_kinds}
    hashes = {edge_id: text_hash(sentence) for edge_id, sentence in sentences.items()}
    # (a relation whose sentence is unchanged under its own id takes its vector the same way)
    sentence_vectors, embedded_edges = texts.vectors({hashes[i]: sentence for i, sentence in sentences.items()})
    edge_rows += [EdgeRow(queued[i], h, sentence_vectors[h]) for i, h in hashes.items()]
    embedded += embedded_edges
    changes.edges = {r.edge.id: r.edge for r in edge_rows}
    changes.edge_vectors = {r.edge.id: StoredVector(r.vhash, r.vector) for r in edge_rows if r.vector is not None and r.vhash}
    added = sum(1 for n in changed if n.id not in current)
    report = WriteReport(
        nodes_added=added,
        nodes_updated=len(changed) - added,
        nodes_unchanged=len(nodes) - len(changed),
        edges_written=len(fresh_edges),
        embedded=embedded,
        embedded_edges=embedded_edges,
    )
    return WriteBatch(changes, node_rows, edge_rows, [], [], report)


def plan_delete(
    live: LiveState,
    node_ids: Sequence[str],
    edge_ids: Sequence[str],
    version: int,
    touching: Callable[[list[str]], list[str]],
) -> WriteBatch:
    """The batch that deletes nodes (with every edge touching them) and edges by id.

    Args:
        touching: Node ids -> ids of the edges that touch them (the database's index).

    Raises:
        MissingNodeError: A node id is not in the index.
    """
    ids = list(dict.fromkeys(node_ids))
    missing = [i for i in ids if i not in live.nodes]
    if missing:
        raise MissingNodeError(f"cannot delete {missing[0]!r}: no such node ({len(missing)} missing)")
    edges = list(dict.fromkeys([*edge_ids, *touching(ids)]))
    held = [e for e in edges if e in live.edges or e in live.damaged_edges]
    changes = Changes(version, deleted_nodes=set(ids), deleted_edges=set(edges))
    report = WriteReport(nodes_deleted=len(ids), edges_deleted=len(held), edges_not_found=len(edges) - len(held))
    return WriteBatch(changes, [], [], ids, edges, report)


__all__ = ["DEFAULT_EMBEDDED_EDGE_KINDS", "WriteBatch", "WriteReport", "plan_delete", "plan_upsert", "text_hash"]
