"""Each item's access labels after indexing a repository into an index (made on first use,
indexed again on each call, as `skill-retriever index` re-reads a source): the tests of
what an unreadable access source leaves (`tests/ingest/test_component_access.py`,
`test_plugin_access.py`, `test_unreadable_marketplace.py`)."""

from __future__ import annotations

from pathlib import Path

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def indexed_access(repo: Path, ix: Path) -> dict[str, tuple[str, ...]]:
    """Item name -> access labels, after indexing ``repo`` into the index at ``ix``."""
    index = Index.open(ix, embedder=HashingEmbedder(), create=not ix.exists())
    try:
        index_sources(index, [repo], "skills")
        return {n.name: n.access for n in index.nodes.values()}
    finally:
        index.close()
