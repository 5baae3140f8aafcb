"""``repr(Index)`` and ``repr(Retriever)`` say what they are: both printed
``<skill_retriever.stores.index.Index object at 0x7f...>``, so a notebook, a log line or a
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
