"""A k past each channel's depth (50) is answered with k results when the index holds
them: each channel's list stopped at 50, so k=500 came back with far fewer and nothing
said why (found in a CLI walkthrough on trailofbits' skills)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.mark.parametrize("k", [10, 60, 150])
def test_k_results_come_back_up_to_what_the_index_holds(tmp_path: Path, k: int) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.upsert([Node(f"s{i}", NodeKind.SKILL, f"fuzzing skill {i}", f"fuzz target number {i} with a harness")
                  for i in range(120)])
    found = Retriever(index, reranker=None).search("fuzzing harness", k=k, principals=["*"])
    assert len(found.ids) == min(k, 120)
    assert RetrievalConfig().channel_depth == 50  # the depth a small k keeps
    index.close()
