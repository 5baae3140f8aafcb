"""An index written through the Python API (``Index.open(dir, create=True)`` and ``add``)
is never calibrated, so its answers carry no ``fit`` and ``nothing_fits`` is False for
every query: the README's ``if hits.nothing_fits:`` never fires. Each answer says so, and
how to calibrate, until it is; never where calibrating would change nothing (found by a
walkthrough of the Python API, which used the bundled model, as here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tiny_graph import NOW, tiny_nodes

from skill_retriever.calibration import calibrate_index
from skill_retriever.config import RetrievalConfig
from skill_retriever.retriever import Retriever
from skill_retriever.stores import run_marks
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

CONFIG = RetrievalConfig(now=NOW)
OFF_TOPIC = "a recipe for sourdough bread with a crisp crust"
NEVER = "no 'nothing fits' judgement: the index was never calibrated"


@pytest.fixture
def api_index(tmp_path: Path, real_embedder: SentenceTransformerEmbedder) -> Iterator[Index]:
    """The walkthrough's index: created and filled through the API, never calibrated."""
    index = Index.open(tmp_path / "ix", embedder=real_embedder, create=True)
    index.add(tiny_nodes())
    yield index
    index.close()


def notes(index: Index, query: str = OFF_TOPIC, **settings: object) -> list[str]:
    response = Retriever(index, CONFIG, reranker=None, cache_size=0).search(query, **settings)  # type: ignore[arg-type]
    return [w for w in response.warnings if "'nothing fits' judgement" in w]


def test_an_uncalibrated_index_says_so_until_it_is_calibrated(api_index: Index) -> None:
    retriever = Retriever(api_index, CONFIG, reranker=None)
    before = retriever.search(OFF_TOPIC)
    assert before.fit is None and not before.nothing_fits  # what the note is about
    [note] = [w for w in before.warnings if NEVER in w]
    assert f"`skill-retriever calibrate --index-dir {api_index.path}`" in note
    assert "skill_retriever.calibration.calibrate_index(index)" in note and "\n" not in note
    assert retriever.search("postgres schema migrations").warnings == [note]  # every answer, as the stale note

    calibrate_index(api_index)
    after = retriever.search(OFF_TOPIC)  # the same retriever: its cache names the calibration
    assert after.nothing_fits and not [w for w in after.warnings if "judgement" in w]
    assert retriever.search("postgres schema migrations").warnings == []


def test_an_index_calibrated_while_empty_says_so(tmp_path: Path, real_embedder: SentenceTransformerEmbedder) -> None:
    index = Index.open(tmp_path / "ix", embedder=real_embedder, create=True)
    try:
        calibrate_index(index)  # nothing to draw a line on yet
        index.add(tiny_nodes())
        [note] = notes(index)
        assert "the index was calibrated while it held no items" in note and "calibrate_index(index)" in note
    finally:
        index.close()


def test_no_note_where_calibrating_would_change_nothing(api_index: Index) -> None:
    assert notes(api_index, use_calibration=False) == []  # the caller turned it off
    assert notes(api_index, channels={"semantic": False}) == []  # the judgement reads that channel
    nothing = Retriever(api_index, CONFIG, reranker=None).search(OFF_TOPIC, filters={"tags": ["no-such-tag"]})
    assert nothing.results == [] and not [w for w in nothing.warnings if "judgement" in w]  # nothing to judge
    assert len(notes(api_index)) == 1  # and the same index otherwise does say it


def test_no_note_while_an_index_run_is_under_way(api_index: Index, tmp_path: Path) -> None:
    """The run calibrates the index when it ends, and the answer says a run is under way."""
    run_marks.begin(api_index, "repo", tmp_path)
    response = Retriever(api_index, CONFIG, reranker=None).search(OFF_TOPIC)
    assert any("under way" in w or "have not finished" in w for w in response.warnings), response.warnings
    assert not [w for w in response.warnings if "judgement" in w]
    run_marks.end(api_index, "repo")
    assert len(notes(api_index)) == 1


def test_no_note_on_an_index_of_the_test_embedder(tiny_index: Index) -> None:
    """The HashingEmbedder is for tests of the maths, not retrieval: a line over its word
    buckets would say nothing of meaning (and every test index would carry the note)."""
    response = Retriever(tiny_index, CONFIG, reranker=None).search(OFF_TOPIC)
    assert response.fit is None and response.warnings == []
