"""An index of a JSON graph's nodes, written and calibrated as ``skill-retriever index``
does (the "nothing fits" line drawn), for the tests of that line's exemptions
(`test_time_only_fit`, `test_letter_query_fit`, `test_named_query_fit`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skill_retriever.calibration import calibrate_index
from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.index import Index


def calibrated_graph_index(folder: Path, nodes: list[dict[str, Any]], embedder: Embedder) -> Index:
    """``nodes`` read from a JSON graph file in ``folder``, indexed there and calibrated."""
    graph = folder / "graph.json"
    graph.write_text(json.dumps({"nodes": nodes, "edges": []}))
    result = ingest_json_graph(graph)
    assert not result.problems, result.problems
    index = Index.open(folder / "index", embedder=embedder, create=True)
    index.upsert(result.nodes, result.edges)
    calibrate_index(index)
    return index
