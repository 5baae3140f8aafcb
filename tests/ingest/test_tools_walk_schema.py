"""A tool set's JSON Schema ``parameters`` (OpenAI function calling's shape) reach the
tool's text, bounded; the other layouts of the shipped sets render as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.ingest.tool_text import SCHEMA_MAX_FIELDS, is_json_schema, parameter_lines
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "toolret"
SETS = sorted(p.name for p in DATA.iterdir() if (p / "tools.jsonl").is_file()) if DATA.is_dir() else []

ORDER = {"id": "create_order", "name": "create_order", "description": "Create an order", "parameters": {
    "type": "object", "required": ["items"], "properties": {
        "items": {"type": "array", "items": {"type": "object", "required": ["sku"], "properties": {
            "sku": {"type": "string", "description": "stock keeping unit"},
            "qty": {"type": "integer"}}}},
        "address": {"type": "object", "description": "shipping address",
                    "properties": {"zip": {"type": ["string", "null"]}}},
        "speed": {"type": "string", "enum": ["standard", "express"]},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "for the courier"},
        "coupon": {"$ref": "#/$defs/Coupon"},
        "tags": {"type": "array", "items": {"type": "string"}}}}}


def test_json_schema_properties_are_rendered_by_path_with_required_marked() -> None:
    assert parameter_lines(ORDER) == [(
        "Parameters: items (array, required); items[].sku (string, required): stock keeping unit; "
        "items[].qty (integer); address (object): shipping address; address.zip (string or null); "
        "speed (string): one of: standard, express; note (string or null): for the courier; "
        "coupon (Coupon); tags (array of string)"
    )]


def test_the_walkthrough_line_is_found_by_its_parameter(tmp_path: Path, index_dir: Path) -> None:
    """It was indexed as "Parameters: type (object); properties; required (['items'])"."""
    rec = {"id": "order", "name": "create_order", "description": "Create an order", "parameters": {
        "type": "object", "properties": {"items": {"type": "array", "items": {"type": "object", "properties": {
            "sku": {"type": "string", "description": "stock keeping unit"}}}}}, "required": ["items"]}}
    other = {"id": "weather", "name": "get_weather", "description": "Weather forecast for a city"}
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "tools.jsonl").write_text(f"{json.dumps(rec)}\n{json.dumps(other)}\n", encoding="utf-8")
    assert main(["index", str(tmp_path / "tools"), "--index-dir", str(index_dir)]) == 0
    with Index.open(index_dir) as index:
        node = index.get("order")
        assert node is not None
        assert node.text == ("Create an order\n"
                             "Parameters: items (array, required); items[].sku (string): stock keeping unit")
        hits = Retriever(index).search("stock keeping unit", k=2).results
    assert [h.id for h in hits][:1] == ["order"]


def test_a_huge_schema_is_bounded_in_depth_and_fields() -> None:
    deep: dict[str, object] = {"type": "string", "description": "bottom"}
    for level in range(30):
        deep = {"type": "object", "properties": {f"l{level}": deep}}
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 500}
                                              for i in range(100_000)}}
    (deep_line,) = parameter_lines({"parameters": deep})
    paths = [entry.split(" (")[0] for entry in deep_line.removeprefix("Parameters: ").split("; ")]
    assert paths[-1] == "l29.l28.l27.l26.l25" and len(paths) == 5  # SCHEMA_MAX_DEPTH levels below the top
    (wide_line,) = parameter_lines({"parameters": wide})
    assert len(wide_line) == 1500 and wide_line.endswith("...")
    assert wide_line.count("(string)") < SCHEMA_MAX_FIELDS
    assert "x" * 160 not in wide_line  # each description cut


def test_seal_maps_naming_parameters_like_schema_keywords_stay_maps() -> None:
    """Seal-Tools names parameters ``type``, ``properties``, ``title``, ``description``."""
    seal = {"parameters": {"element_type": {"type": "str", "description": "The type"},
                           "properties": {"type": "str", "description": "Specific properties"}},
            "required": ["element_type", "properties"]}
    assert not is_json_schema(seal["parameters"])
    assert parameter_lines(seal) == [
        "Parameters: element_type (str, required): The type; properties (str, required): Specific properties"]
    assert not is_json_schema({"type": {"type": "str", "description": "kind"}})
    assert is_json_schema({"type": "object"}) and parameter_lines({"parameters": {"type": "object"}}) == []


@pytest.mark.skipif(not SETS, reason="shared data absent")
@pytest.mark.parametrize("name", SETS)
def test_no_shipped_set_is_read_as_json_schema(name: str) -> None:
    """The benchmark's tool texts do not move: no record of a shipped set takes the new route."""
    for line in (DATA / name / "tools.jsonl").read_text(encoding="utf-8").splitlines():
        params = json.loads(line).get("parameters")
        assert not (isinstance(params, dict) and is_json_schema(params)), line[:200]
    assert ingest_toolret(DATA / name).nodes


def test_fields_nested_in_an_openapi_list_or_a_map_are_rendered_by_path() -> None:
    """The README's ``items[].sku`` holds for every layout, not the JSON Schema object only."""
    sku = {"type": "object", "required": ["sku"], "properties": {"sku": {"type": "string", "description": "unit"}}}
    listed = {"id": "o", "parameters": [
        {"name": "items", "in": "body", "required": True, "schema": {"type": "array", "items": sku}},
        {"name": "address", "in": "body", "schema": {"type": "object", "properties": {"zip": {"type": "string"}}}},
        {"name": "q", "in": "query", "type": "string"}]}
    assert parameter_lines(listed) == [(
        "Parameters: items (array, body, required); items[].sku (string, required): unit; "
        "address (object, body); address.zip (string); q (string, query)")]
    mapped = {"id": "o", "required": ["items"], "parameters": {
        "items": {"type": "array", "description": "line items", "items": sku}, "q": {"type": "string"}}}
    assert parameter_lines(mapped) == [
        "Parameters: items (array, required): line items; items[].sku (string, required): unit; q (string)"]
