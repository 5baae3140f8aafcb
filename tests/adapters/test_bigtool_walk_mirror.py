"""`index_tool_registry` mirrors a bigtool registry (walkthrough): a tool removed or
renamed in the registry leaves the index, so retrieval never returns an id bigtool cannot
look up; each registry mirrors only its own tools (``source``), items of CLI-indexed
sources are never touched, tools written before the mark are kept and named, and tool
names two ids share are said."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from bigtool_support import mk

from skill_retriever.adapters.bigtool import (
    REGISTRY_SOURCE_KEY,
    index_tool_registry,
    make_bigtool_retrieve,
)
from skill_retriever.exceptions import ConfigError, MissingNodeError
from skill_retriever.indexing import index_sources
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def v1() -> dict[str, Any]:
    return {
        "weather": mk("weather", "Get the weather forecast for a city"),
        "web_search": mk("web_search", "Search the web for pages about a topic"),
        "order": mk("create_order", "Create a shop order"),
        "fx": mk("convert_currency", "Convert money between currencies"),
        "mail": mk("send_email", "Send an email to a recipient"),
    }


@pytest.fixture
def index(tmp_path: Path) -> Index:
    # calibrate=False below where calibration is not the point: HashingEmbedder vectors
    # draw no meaningful "nothing fits" line anyway.
    return Index.open(tmp_path / "index", embedder=HashingEmbedder(64), create=True)


def test_a_removed_and_a_renamed_tool_leave_the_index(index: Index) -> None:
    first = index_tool_registry(index, v1(), calibrate=False)
    assert first.nodes_added == 5 and first.nodes_deleted == 0 and first.deleted == ()
    v2 = v1()
    del v2["weather"]
    v2["internet_search"] = v2.pop("web_search")
    report = index_tool_registry(index, v2, calibrate=False)
    assert report.deleted == ("weather", "web_search")
    assert report.nodes_deleted == 2 and report.nodes_added == 1 and report.nodes_unchanged == 3
    assert sorted(index.nodes) == ["fx", "internet_search", "mail", "order"]
    with pytest.raises(MissingNodeError):
        index.get("weather")
    # Without a registry filter every id returned must still be one bigtool can look up.
    ids = make_bigtool_retrieve(index, limit=2)("weather forecast for Paris")
    assert ids and set(ids) <= set(v2)
    assert make_bigtool_retrieve(index, limit=1)("search the web")[0] == "internet_search"


def test_each_registry_source_mirrors_only_its_own_tools(index: Index) -> None:
    billing = {"invoice": mk("create_invoice", "Create an invoice"), "refund": mk("refund", "Refund a payment")}
    index_tool_registry(index, v1(), calibrate=False)
    index_tool_registry(index, billing, source="billing", calibrate=False)
    assert index.get("invoice").attrs[REGISTRY_SOURCE_KEY] == "billing"
    assert index.get("mail").attrs[REGISTRY_SOURCE_KEY] == "tool_registry"
    only_mail = {"mail": mk("send_email", "Send an email to a recipient")}
    report = index_tool_registry(index, only_mail, calibrate=False)  # the default source
    assert report.deleted == ("fx", "order", "weather", "web_search")
    assert sorted(index.nodes) == ["invoice", "mail", "refund"]  # billing's tools stay
    report = index_tool_registry(index, {"refund": billing["refund"]}, source="billing", calibrate=False)
    assert report.deleted == ("invoice",) and sorted(index.nodes) == ["mail", "refund"]


def test_a_registry_id_another_source_holds_is_refused(index: Index) -> None:
    index_tool_registry(index, v1(), calibrate=False)
    with pytest.raises(ConfigError, match=r"registry id 'mail' .* held by registry source 'tool_registry'"):
        index_tool_registry(index, {"mail": mk("mailer", "Send mail")}, source="ops", calibrate=False)
    assert index.get("mail").name == "send_email"


def test_items_of_cli_indexed_sources_are_never_touched(index: Index, tmp_path: Path) -> None:
    folder = tmp_path / "catalogue"
    folder.mkdir()
    records = [
        {"id": "getWeather", "name": "getWeather", "description": "Get the weather for a city"},
        {"id": "getStock", "name": "getStock", "description": "Get a stock quote"},
    ]
    (folder / "tools.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    index_sources(index, [folder], calibrate=False)
    index_tool_registry(index, v1(), calibrate=False)
    report = index_tool_registry(index, {"mail": v1()["mail"]}, calibrate=False)
    assert report.nodes_deleted == 4
    assert sorted(index.nodes) == ["getStock", "getWeather", "mail"]
    with pytest.raises(ConfigError, match=r"'getStock' .* held by indexed source 'catalogue'"):
        index_tool_registry(index, {"getStock": mk("stock", "Stock quotes")}, calibrate=False)


def test_tools_written_before_the_mark_are_kept_and_named(
    index: Index, caplog: pytest.LogCaptureFixture
) -> None:
    # What index_tool_registry wrote before it marked its source: registry_id only.
    old = [
        Node(id=i, kind=NodeKind.TOOL, name=i, text=f"the {i} tool", attrs={"registry_id": i})
        for i in ("mail", "legacy_fax")
    ]
    index.upsert(old)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        report = index_tool_registry(index, {"mail": v1()["mail"]}, calibrate=False)
    assert report.unmarked_kept == ("legacy_fax",) and report.nodes_deleted == 0
    assert "legacy_fax" in index and REGISTRY_SOURCE_KEY not in index.get("legacy_fax").attrs
    assert index.get("mail").attrs[REGISTRY_SOURCE_KEY] == "tool_registry"  # adopted
    assert any("'legacy_fax'" in r.getMessage() and "index.delete" in r.getMessage() for r in caplog.records)


def test_an_empty_registry_wipes_nothing(index: Index, caplog: pytest.LogCaptureFixture) -> None:
    index_tool_registry(index, v1(), calibrate=False)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        report = index_tool_registry(index, {}, calibrate=False)
    assert report.nodes_deleted == 0 and len(index) == 5
    assert any("is empty" in r.getMessage() and "5 indexed tool(s) kept" in r.getMessage() for r in caplog.records)


def test_tool_names_two_ids_share_are_said(index: Index, caplog: pytest.LogCaptureFixture) -> None:
    registry = {
        "dup1": mk("search", "Search the web for pages about a topic"),
        "dup2": mk("search", "Search the company's internal wiki"),
        "mail": v1()["mail"],
    }
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        report = index_tool_registry(index, registry, calibrate=False)
    assert report.name_clashes == {"search": ("dup1", "dup2")}
    said = [r.getMessage() for r in caplog.records]
    assert any("'dup1', 'dup2' share the tool name 'search'" in m for m in said), said


@pytest.mark.parametrize("source", ["", "  ", None, 3])
def test_a_source_must_be_a_name(index: Index, source: Any) -> None:
    with pytest.raises(ConfigError, match="source must be a non-empty string"):
        index_tool_registry(index, v1(), source=source, calibrate=False)
    assert len(index) == 0
