"""The skills set's out-of-catalogue questions, read from the multi-hop sets' files, when
one of those files cannot be read.

Found by a walkthrough: a damaged ``multihop/hotpotqa/queries.json`` (not JSON, or a
question without its text) ended the skills section with a Python traceback after every
method had run on the set, and its measured result was never written. The rate now comes
from the files that read, and the note names the one left out.
"""

from __future__ import annotations

import json
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


def test_an_unreadable_question_file_is_left_out_and_named(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for name, text in (("hotpotqa", '[{"id": "1", "question": '),
                       ("2wikimultihopqa", json.dumps([{"id": "a", "question": "Who directed Jaws?",
                                                        "supporting_idx": [1]}]))):
        (data / "multihop" / name).mkdir(parents=True)
        (data / "multihop" / name / "queries.json").write_text(text, encoding="utf-8")
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.upsert(tiny_nodes(), tiny_edges())
    ensure_calibration(index)
    queries = [EvalQuery(id="0", text="postgres migration", relevant={"skill:alembic": 1})]
    ds = Dataset("skills", "tiny", queries, lambda _: IngestResult(), {}, ("MRR",), kinds=("skill",))
    rates = fit_rates(Retriever(index, cache_size=0), ds, data)
    index.close()
    assert rates["out_of_catalogue"]["queries"] == 1
    bad = data / "multihop" / "hotpotqa" / "queries.json"
    assert len(rates["unread"]) == 1 and rates["unread"][0].startswith(f"{bad}: not valid JSON")
    note = fit_note(rates)
    assert note.startswith("'nothing fits' flagged: answerable ") and ", out of catalogue " in note
    assert note.endswith(f" (out-of-catalogue questions of a file that could not be read left out: {rates['unread'][0]})")
