"""Whether the "nothing fits" flag is right about the answerable queries it flags: the
benchmark counts, among the flagged and among the unflagged, the queries whose first result
the set judges relevant (`fit_rates`), and the report's note says both."""

from __future__ import annotations

from pathlib import Path

from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench.datasets import Dataset, EvalQuery
from skill_retriever.bench.figures import fit_note
from skill_retriever.bench.fit_rates import fit_rates
from skill_retriever.calibration import ensure_calibration
from skill_retriever.ingest.result import IngestResult
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_first_results_are_counted_on_each_side_of_the_flag(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.upsert(tiny_nodes(), tiny_edges())
    ensure_calibration(index)
    retriever = Retriever(index, cache_size=0)
    texts = ["postgres schema migrations with alembic", "pytest fixtures scopes and factories",
             "bake sourdough bread at home", "   "]
    # Each query judged relevant to one item; the refused one (blank) counts on neither side.
    queries = [EvalQuery(id=str(n), text=t, relevant={"skill:postgres-migrations": 1})
               for n, t in enumerate(texts)]
    ds = Dataset("skills", "tiny", queries, lambda _: IngestResult(), {}, ("MRR",), kinds=("skill",))
    rates = fit_rates(retriever, ds, None)["answerable"]
    # What the counts must be, from the same searches made here directly.
    expected = {True: 0, False: 0}
    for q in queries[:3]:
        resp = retriever.search(q.text, k=10, kinds=["skill"], principals=["*"], rerank=False)
        assert resp.fit is not None
        expected[resp.nothing_fits] += resp.ids[0] == "skill:postgres-migrations"
    index.close()
    assert rates["first_right_flagged"] == expected[True]
    assert rates["first_right_unflagged"] == expected[False]
    assert expected[False] >= 1  # the first query's first result is its judged item, unflagged
    assert rates["refused"] == 1


def test_the_note_says_how_often_the_flagged_and_the_unflagged_are_right() -> None:
    fit = {"answerable": {"queries": 502, "flagged": 86, "rate": 0.172, "refused": 2,
                          "first_right_flagged": 19, "first_right_unflagged": 266}}
    assert fit_note(fit) == ("'nothing fits' flagged: answerable 86/500 (2 refused) "
                             "(first result right: 19 of 86 flagged, 266 of 414 not)")
    # None flagged: nothing to compare; a result written before the counts: as it was.
    assert fit_note({"answerable": {"queries": 48, "flagged": 0, "rate": 0.0, "first_right_flagged": 0,
                                    "first_right_unflagged": 40}}) == "'nothing fits' flagged: answerable 0/48"
    assert fit_note({"answerable": {"queries": 48, "flagged": 3, "rate": 0.0625}}) == (
        "'nothing fits' flagged: answerable 3/48")
