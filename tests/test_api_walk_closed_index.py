"""A `Retriever` over an `Index` already closed is refused at construction (found by a
walkthrough of the Python API): ``Retriever(index)`` after ``index.close()`` (or after its
``with`` block) was made without a word, and the mistake surfaced only at the first search,
wherever that ran (a server's first request). Like a use after ``close()``, it is an
``IndexClosedError`` that says to open the index again."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.exceptions import IndexClosedError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_a_retriever_over_a_closed_index_is_refused_at_construction(tmp_path: Path) -> None:
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True) as index:
        index.add(Node(id="skill:alpha", kind="skill", name="alpha", text="alpha writes structured logs"))
        assert not index.closed
    assert index.closed
    with pytest.raises(IndexClosedError, match=r"was closed; open it again with Index\.open"):
        Retriever(index, reranker=None)
