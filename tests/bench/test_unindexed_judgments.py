"""A judged item the index does not hold (a file that did not ingest, a gold id the corpus
lacks) is a miss for every method: the set's report says so, naming it, instead of the
figures silently standing lower."""

from __future__ import annotations

from pathlib import Path

from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench.datasets import EvalQuery
from skill_retriever.bench.retrieval_sets import unindexed_note
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_judged_items_missing_from_the_index_are_named(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.upsert(tiny_nodes(), tiny_edges())
    nodes = index.snapshot().nodes
    queries = [
        EvalQuery("1", "postgres migration", {"skill:alembic": 1}),
        EvalQuery("2", "deploy", {"skill:alembic": 1, "passage:gone": 2}),
        EvalQuery("3", "nothing fits", {}),
    ]
    assert unindexed_note(queries[:1], nodes) is None
    note = unindexed_note(queries, nodes)
    assert note is not None and note.startswith("1 judged item(s) of 1 query are not in the index")
    assert note.endswith(": passage:gone")
    many = [EvalQuery(str(i), "q", {f"gone:{i}": 1}) for i in range(7)]
    assert unindexed_note(many, nodes) == (
        "7 judged item(s) of 7 queries are not in the index and count as misses for every method: "
        "gone:0, gone:1, gone:2, gone:3, gone:4 and 2 more"
    )
    index.close()
