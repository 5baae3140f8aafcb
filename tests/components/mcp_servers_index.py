"""An index of one source folder whose ``mcps/servers.json`` holds the MCP server entries
a test gives, read by the real ingest (hashing embedder), for the install tests of MCP
servers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

__all__ = ["servers_index"]


@contextmanager
def servers_index(tmp_path: Path, servers: dict[str, Any]) -> Iterator[Index]:
    """The open index of ``tmp_path/repo`` holding ``servers``, read without a problem."""
    path = tmp_path / "repo" / "mcps" / "servers.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        run = index_sources(index, [tmp_path / "repo"], "skills", calibrate=False)
        assert not [p for s in run.sources for p in s.problems]
        yield index
    finally:
        index.close()
