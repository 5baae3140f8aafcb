"""``repr(Index)``, ``repr(Retriever)``, ``repr(index.snapshot())`` and ``repr(index.embedder)``
say what they are: each printed ``<skill_retriever.stores.index.Index object at 0x7f...>``, so a notebook, a log line or a
debugger showed neither which index nor whether it could write. A repr reads nothing from
disk and loads no model: it shows what the object already holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_graph import build_tiny_index, tiny_edges, tiny_nodes

from skill_retriever import retriever as retriever_module
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import (
    DEFAULT_MODEL,
    HashingEmbedder,
    SentenceTransformerEmbedder,
)
from skill_retriever.stores.index import Index

NODES, EDGES = len(tiny_nodes()), len(tiny_edges())


def test_an_index_shows_its_path_its_counts_and_whether_it_writes(tmp_path: Path) -> None:
    where = tmp_path / "ix"
    writer = build_tiny_index(where)
    assert repr(writer) == f"<Index {str(where)!r}: {NODES} nodes, {EDGES} edges, writer>"
    writer.close()
    assert repr(writer) == f"<Index {str(where)!r}: closed>"
    with Index.open(where) as reader:
        assert repr(reader) == f"<Index {str(where)!r}: {NODES} nodes, {EDGES} edges, read-only>"


def test_a_retriever_shows_its_index_and_reranker_without_loading_it(
    shared_tiny_index: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[str] = []

    def load() -> None:
        loads.append("loaded")

    monkeypatch.setattr(retriever_module, "default_reranker", load)
    retriever = Retriever(shared_tiny_index)
    index = repr(shared_tiny_index)
    assert repr(retriever) == f"<Retriever over {index}, reranker: the default, not loaded yet>"
    assert loads == []  # the repr loaded nothing
    retriever.search("postgres migrations", k=1)
    assert loads == ["loaded"]
    assert repr(retriever) == f"<Retriever over {index}, reranker: none>"  # the default found none
    mine = EmbeddingReranker(shared_tiny_index.embedder)
    assert repr(Retriever(shared_tiny_index, reranker=mine)) == f"<Retriever over {index}, reranker: {mine.name}>"
    retriever.close()
    assert repr(retriever) == f"<Retriever over {index}: closed>"


def test_a_snapshot_shows_its_index_version_and_counts(shared_tiny_index: Index) -> None:
    snap = shared_tiny_index.snapshot()
    where = str(shared_tiny_index.snapshot().path)
    assert repr(snap) == f"<IndexSnapshot of {where!r} at version {snap.version}: {NODES} nodes, {EDGES} edges>"


def test_an_embedder_shows_its_model_and_what_it_loaded_without_loading_it() -> None:
    embedder = SentenceTransformerEmbedder()
    said = f"<SentenceTransformerEmbedder {DEFAULT_MODEL!r} on cpu"
    assert repr(embedder) == f"{said}: not loaded yet>"
    assert embedder.load_seconds == 0.0  # the repr loaded nothing
    embedder.embed(["a query"])  # a query: the NumPy encoder, not sentence-transformers
    assert repr(embedder) == f"{said}: loaded (NumPy)>"
    assert repr(HashingEmbedder(32)) == "HashingEmbedder(dim=32)"
    assert eval(repr(HashingEmbedder(32))).dim == 32  # its repr is the call that makes it


def test_an_answer_is_one_line_naming_its_ids_route_and_warnings(shared_tiny_index: Index) -> None:
    """The dataclass repr wrote every field, each snippet and every phase's figures among
    them: about 4,000 characters for five results of the sample catalogue."""
    retriever = Retriever(shared_tiny_index, reranker=None)
    few = retriever.search("postgres migrations", k=2)
    shown = repr(few)
    assert shown == (
        f"SearchResponse(results=2, ids=[{few.ids[0]!r}, {few.ids[1]!r}], route={few.route!r}, reranker='none', "
        f"confidence={few.confidence if few.confidence is None else round(few.confidence, 3)}, "
        f"nothing_fits={few.nothing_fits}, warnings={len(few.warnings)}, snapshot_version={few.snapshot_version})"
    )
    assert few.results[0].snippet in repr(few.results[0])  # each result still shows its fields
    many = retriever.search("postgres migrations checkout deploy", k=8, budget=60)
    assert len(many.results) > 5 or many.warnings
    shown = repr(many)
    assert "\n" not in shown and len(shown) < 600 and "plan_query" not in shown, shown
    assert f"warnings={len(many.warnings)}," in shown and f"results={len(many.results)}," in shown
    if len(many.results) > 5:
        assert f"... {len(many.results) - 5} more]" in shown and many.ids[5] not in shown
