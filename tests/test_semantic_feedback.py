"""Feedback for the semantic channel (algorithms.feedback, phases.retrieve_seeds): a
catalogue of long items searches again from the query moved toward the best items of a
keyword + semantic fusion; short items, the caller's 0 and a keyword channel that is off
leave the channel as it was; "nothing fits" keeps reading the search against the query."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from long_catalogue import QUERY, cli_query, long_catalogue, pad

from skill_retriever.algorithms.feedback import feedback_items, rocchio
from skill_retriever.calibration import calibrate_index
from skill_retriever.calibration.defaults import (
    FEEDBACK_DOCS,
    LONG_ITEM_WORDS,
    decide,
)
from skill_retriever.calibration.index_shape import long_item_share
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import resolve
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture()
def long_items(tmp_path: Path) -> Index:
    index = long_catalogue(tmp_path / "long", long=True)
    calibrate_index(index)
    yield index
    index.close()


def test_rocchio_moves_toward_the_mean_and_stays_unit_length() -> None:
    query = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    feedback = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    moved = rocchio(query, feedback, 0.5)
    assert np.isclose(np.linalg.norm(moved), 1.0)
    expected = np.array([1.0, 0.25, 0.25]) / np.linalg.norm([1.0, 0.25, 0.25])
    assert np.allclose(moved, expected, atol=1e-6)
    assert float(moved @ feedback.mean(axis=0)) > 0.0  # the query itself is orthogonal to it
    assert np.array_equal(rocchio(query, feedback, 0.0), query)
    assert np.array_equal(rocchio(query, np.zeros((0, 3), dtype=np.float32), 0.5), query)
    # A mean exactly opposite the query: nothing to move toward.
    assert np.array_equal(rocchio(query, np.array([[-2.0, 0.0, 0.0]], dtype=np.float32), 0.5), query)
    with pytest.raises(ValueError, match="weight must be >= 0"):
        rocchio(query, feedback, -0.1)


def test_feedback_items_need_both_channels() -> None:
    keyword = [("a", 9.0), ("b", 5.0), ("c", 1.0)]
    semantic = [("b", 0.8), ("d", 0.7), ("a", 0.2)]
    assert feedback_items(keyword, semantic, 2) == ["b", "a"]  # both lists back them
    assert feedback_items(keyword, [], 2) == [] and feedback_items([], semantic, 2) == []
    assert feedback_items(keyword, semantic, 0) == []


def test_a_catalogue_of_long_items_suggests_feedback(long_items: Index, tmp_path: Path) -> None:
    found = decide(long_items.snapshot())
    assert long_item_share(long_items.snapshot(), LONG_ITEM_WORDS) == 1.0
    assert found.settings["feedback_docs"] == FEEDBACK_DOCS
    assert any(f"run past {LONG_ITEM_WORDS} words" in r for r in found.reasons)
    assert resolve(RetrievalConfig(), {}, long_items.snapshot()).feedback_docs == FEEDBACK_DOCS
    assert resolve(RetrievalConfig(feedback_docs=0), {}, long_items.snapshot()).feedback_docs == 0  # the caller wins
    short = long_catalogue(tmp_path / "short", long=False)
    assert long_item_share(short.snapshot(), LONG_ITEM_WORDS) == 0.0
    assert "feedback_docs" not in decide(short.snapshot()).settings
    assert resolve(RetrievalConfig(), {}, short.snapshot()).feedback_docs == 0
    short.close()


def test_the_semantic_channel_reaches_what_the_best_items_resemble(long_items: Index) -> None:
    retriever = Retriever(long_items, cache_size=0)
    plain = retriever.search(QUERY, k=8, rerank=False, feedback_docs=0)
    default = retriever.search(QUERY, k=8, rerank=False)  # on by default here: long items
    assert plain.stats["retrieve_seeds"]["feedback"] == []
    assert default.stats["retrieve_seeds"]["feedback"][0] == "skill:queueing"
    assert len(default.stats["retrieve_seeds"]["feedback"]) == FEEDBACK_DOCS
    fed = retriever.search(QUERY, k=8, rerank=False, feedback_docs=1)
    assert fed.stats["retrieve_seeds"]["feedback"] == ["skill:queueing"]
    # simpy shares no word with the query: the search against the query ranks it with the
    # unrelated items; the search from the moved query ranks it right after queueing.
    semantic = {r.id: r.channels.get("semantic") for r in fed.results}
    assert semantic["skill:queueing"] == 1 and semantic["skill:simpy"] == 2
    before = {r.id: r.channels.get("semantic") for r in plain.results}
    assert before["skill:simpy"] is None or before["skill:simpy"] > 2
    assert fed.ids[:2] == ["skill:queueing", "skill:simpy"]
    # "Nothing fits" reads the search against the query, as its calibration did.
    assert fed.fit is not None and plain.fit is not None
    assert fed.fit == plain.fit
    snap = long_items.snapshot()
    query = snap.embed_query(QUERY)
    item = snap.node_vector("skill:queueing")
    assert item is not None
    assert fed.fit["top_similarity"] == pytest.approx(float(query @ item), abs=1e-4)
    moved = rocchio(query, item.reshape(1, -1), RetrievalConfig().feedback_weight)
    assert float(moved @ item) > float(query @ item) + 0.05  # what the channel's own list scores


def test_no_feedback_without_keyword_evidence(long_items: Index) -> None:
    retriever = Retriever(long_items, cache_size=0)
    off = retriever.search(QUERY, k=5, rerank=False, channels={"keyword": False})
    assert off.stats["retrieve_seeds"]["feedback"] == []
    nothing = retriever.search("zzzz qqqq", k=5, rerank=False)  # no item holds a word of it
    assert nothing.stats["retrieve_seeds"]["feedback"] == []


def test_a_negative_feedback_weight_is_refused() -> None:
    with pytest.raises(ConfigError, match="feedback_weight must be >= 0"):
        RetrievalConfig(feedback_weight=-1.0)


def test_the_query_command_turns_it_off_and_refuses_a_negative_count(
    long_items: Index, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(long_items.path)
    long_items.close()  # the command opens the index itself
    query = cli_query(path, capsys)

    code, out, _ = query()
    assert code == 0 and json.loads(out)["stats"]["retrieve_seeds"]["feedback"][0] == "skill:queueing"
    code, out, _ = query("--feedback-docs", "0")
    assert code == 0 and json.loads(out)["stats"]["retrieve_seeds"]["feedback"] == []
    code, out, err = query("--feedback-docs", "-1")
    said = "argument --feedback-docs: must be 0 or more items, got -1"
    assert code == 2 and said in err and json.loads(out) == {"error": said}  # --json: the answer's JSON too


def test_an_item_the_caller_may_not_see_never_moves_the_query(tmp_path: Path) -> None:
    index = long_catalogue(tmp_path / "private", long=True)
    index.upsert([Node(id="skill:triage-internal", kind="skill", name="triage-internal",
                       description="simulate patients waiting for triage simulate patients waiting for triage",
                       text=f"{'kubernetes unrelated ' * 20} {pad('internal', True)}", access=("ops",))], [])
    retriever = Retriever(index, cache_size=0)
    ops = retriever.search(QUERY, k=5, rerank=False, principals=["ops"])
    assert "skill:triage-internal" in ops.stats["retrieve_seeds"]["feedback"]  # it would, for a caller who may
    dev = retriever.search(QUERY, k=5, rerank=False, principals=["dev"])
    assert dev.stats["retrieve_seeds"]["feedback"][0] == "skill:queueing"
    assert "skill:triage-internal" not in dev.stats["retrieve_seeds"]["feedback"]
    assert "skill:triage-internal" not in dev.ids
    index.close()
