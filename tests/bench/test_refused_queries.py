"""A query the search refuses (empty, too long) is a failure of that query, counted, and
the run goes on: in the "nothing fits" rates and the latency line as in the quality runs
(one empty question of a set ended a whole ``benchmark`` run before)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench.datasets import Dataset, EvalQuery
from skill_retriever.bench.fit_rates import fit_rates
from skill_retriever.bench.latency import default_latency
from skill_retriever.calibration import ensure_calibration
from skill_retriever.cli import main
from skill_retriever.ingest.result import IngestResult
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_a_refused_query_is_counted_and_the_rates_go_on(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.upsert(tiny_nodes(), tiny_edges())
    ensure_calibration(index)
    texts = ["postgres migration", "   ", "deploy the service", "x" * 200_000]
    queries = [EvalQuery(id=str(i), text=t, relevant={"skill:alembic": 1}) for i, t in enumerate(texts)]
    ds = Dataset("skills", "tiny", queries, lambda _: IngestResult(), {}, ("MRR",), kinds=("skill",))
    retriever = Retriever(index, cache_size=0)
    rates = fit_rates(retriever, ds, None)
    assert rates["answerable"]["queries"] == 4 and rates["answerable"]["refused"] == 2
    lat = default_latency(index, retriever, texts * 4, ds.kinds, n=8)
    assert lat["default_p50_ms"] > 0
    index.close()


@pytest.mark.parametrize("flag", ["--out", "--cache"])
def test_an_out_or_cache_that_is_a_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    file = tmp_path / "a-file"
    file.write_text("mine\n")
    args = ["benchmark", "--quick", "--only", "battery", "--out", str(tmp_path / "out"), flag, str(file)]
    assert main(args) == 2
    assert f"{flag} {file} is a file; give a folder" in capsys.readouterr().err
    assert file.read_text() == "mine\n"
