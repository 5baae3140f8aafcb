"""A query a method refuses is a failure of that method on that query: scored 0, counted,
listed, and the run goes on (a real agent task of 18,686 characters once ended a whole run)."""

from __future__ import annotations

from skill_retriever.bench.datasets import EvalQuery
from skill_retriever.bench.evaluate import evaluate
from skill_retriever.bench.methods import Method, Ranked
from skill_retriever.exceptions import QueryError


def test_a_refused_query_is_counted_and_the_run_goes_on() -> None:
    queries = [EvalQuery("a", "fine", {"x": 1}), EvalQuery("b", "too long " * 10, {"x": 1}), EvalQuery("c", "ok", {"x": 1})]

    def run(q: EvalQuery) -> Ranked:
        if q.id == "b":
            raise QueryError("the query is 90 characters, over the limit of 50")
        return Ranked(["x"], 1.0)

    summary, per_query = evaluate(queries, [Method("m", "pipeline", run)], ["MRR"], log=lambda _: None)
    m = summary["m"]
    assert m["failed"] == 1 and m["failures"][0]["query"] == "b" and "over the limit" in m["failures"][0]["error"]
    assert m["scores"]["MRR"] == 2 / 3  # the failed query scores 0, the others 1
    assert [row[0] for row in per_query["m"]] == ["a", "b", "c"]


def test_the_progress_line_names_its_time_the_mean_beside_the_tables_p50() -> None:
    """Found by a walkthrough: the line printed per method read "(9 ms/query, 0 s)" (a
    mean), and the table printed right after it "ms/q p50 (memo) 0" for the same row: two
    figures under one name."""
    times = iter([1.0, 1.0, 25.0])
    lines: list[str] = []
    queries = [EvalQuery(q, q, {"x": 1}) for q in "abc"]
    summary, _ = evaluate(queries, [Method("m", "pipeline", lambda q: Ranked(["x"], next(times)))], ["MRR"],
                          log=lines.append)
    assert summary["m"]["ms_p50"] == 1.0 and summary["m"]["ms_mean"] == 9.0
    assert "(mean 9 ms/query (memo), p50 1, " in lines[0] and " ms/query, " not in lines[0]
