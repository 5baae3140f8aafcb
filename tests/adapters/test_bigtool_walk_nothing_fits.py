""""Nothing fits" reaches bigtool users (walkthrough): an index built only through the API
(`Index.open(create=True)` + `index_tool_registry`) is calibrated by the call, so an
off-topic request is flagged, and `make_bigtool_retrieve(when_nothing_fits="none")` binds
no tools then. The real bundled model: the calibration's line is the point."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from bigtool_support import mk

from skill_retriever.adapters.bigtool import (
    index_tool_registry,
    make_bigtool_aretrieve,
    make_bigtool_retrieve,
)
from skill_retriever.calibration import calibration_of
from skill_retriever.exceptions import ConfigError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

pytestmark = pytest.mark.slow

OFF_TOPIC = "bake sourdough bread"


REGISTRY: dict[str, Any] = {
    "weather": mk("weather", "Get the weather forecast for a city"),
    "web_search": mk("web_search", "Search the web for pages about a topic"),
    "order": mk("create_order", "Create a shop order"),
    "fx": mk("convert_currency", "Convert money between currencies at today's exchange rate"),
    "mail": mk("send_email", "Send an email to a recipient"),
    "sqrt": mk("square_root", "Return the square root of a number"),
    "cal": mk("create_event", "Add an event to the user's calendar"),
    "tr": mk("translate_text", "Translate text from one language to another"),
}


@pytest.fixture(scope="module")
def api_index(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: SentenceTransformerEmbedder
) -> Index:
    index = Index.open(tmp_path_factory.mktemp("bigtool-fit") / "index", embedder=real_embedder, create=True)
    report = index_tool_registry(index, REGISTRY)
    assert report.calibrated
    return index


def test_a_registry_indexed_through_the_api_is_calibrated(api_index: Index) -> None:
    calibration = calibration_of(api_index.snapshot())
    assert calibration is not None and calibration.version == api_index.version
    flagged = Retriever(api_index).search(OFF_TOPIC, k=2)
    assert flagged.nothing_fits and flagged.fit is not None
    answered = Retriever(api_index).search("convert 10 dollars to euros", k=2)
    assert not answered.nothing_fits and answered.ids[0] == "fx"
    again = index_tool_registry(api_index, REGISTRY)  # nothing changed: nothing recomputed
    assert not again.calibrated and again.nodes_unchanged == len(REGISTRY)


def test_calibrate_false_leaves_the_index_uncalibrated(
    tmp_path: Path, real_embedder: SentenceTransformerEmbedder
) -> None:
    index = Index.open(tmp_path / "index", embedder=real_embedder, create=True)
    report = index_tool_registry(index, REGISTRY, calibrate=False)
    assert not report.calibrated and calibration_of(index.snapshot()) is None
    response = Retriever(index).search(OFF_TOPIC, k=2)
    assert response.fit is None and not response.nothing_fits


def test_when_nothing_fits_none_binds_no_tools(api_index: Index, caplog: pytest.LogCaptureFixture) -> None:
    strict = make_bigtool_retrieve(api_index, limit=2, registry=REGISTRY, when_nothing_fits="none")
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        assert strict(OFF_TOPIC) == []
    assert any("when_nothing_fits='none'" in r.getMessage() for r in caplog.records)
    assert strict("convert 10 dollars to euros")[0] == "fx"  # an answer that fits keeps its tools
    closest = make_bigtool_retrieve(api_index, limit=2, registry=REGISTRY)  # the default
    ids = closest(OFF_TOPIC)
    assert len(ids) == 2 and set(ids) <= set(REGISTRY)


@pytest.mark.asyncio
async def test_when_nothing_fits_none_async(api_index: Index) -> None:
    strict = make_bigtool_aretrieve(api_index, limit=2, registry=REGISTRY, when_nothing_fits="none")
    assert await strict(OFF_TOPIC) == []
    assert (await strict("what is the square root of 2"))[0] == "sqrt"


@pytest.mark.parametrize("value", ["never", None, True])
def test_when_nothing_fits_is_checked_when_built(api_index: Index, value: Any) -> None:
    with pytest.raises(ConfigError, match="when_nothing_fits must be 'closest'"):
        make_bigtool_retrieve(api_index, when_nothing_fits=value)
    with pytest.raises(ConfigError, match="when_nothing_fits must be 'closest'"):
        make_bigtool_aretrieve(api_index, when_nothing_fits=value)
