"""A tool record's text lines (`ingest.toolret`): its parameters and outputs, compact, and
what else names or describes it (`naming_lines`).

Layouts read: an OpenAPI parameter list (``[{"name", "in", "schema", "required"}]``), a
Seal-Tools map (``{"city": {"type", "description"}}`` with the record's ``required``),
ToolBench ``required_parameters`` / ``optional_parameters`` lists, and a JSON Schema object
(``{"type": "object", "properties": {...}, "required": [...]}``, as OpenAI function calling
and MCP write a tool's input). A JSON Schema's properties are rendered by their path (and
so are those nested in a parameter of a list or a map, `_nested`),
``items (array, required): ...; items[].sku (string): stock keeping unit``, at most
`SCHEMA_MAX_DEPTH` levels deep and `SCHEMA_MAX_FIELDS` fields in all, so a huge schema
costs what a small one does; the whole line is cut at `MAX_SECTION` characters anyway.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import islice
from typing import Any

MAX_PARAM_DESC = 160
MAX_SECTION = 1500
#: Levels of nested objects and array items rendered below a schema's own properties.
SCHEMA_MAX_DEPTH = 4
#: Properties rendered of one schema, all levels together.
SCHEMA_MAX_FIELDS = 60
_MAX_ENUM = 8
#: Keys a JSON Schema object may carry at its top. A Seal-Tools map names parameters
#: ``type``, ``properties``, ``title`` or ``description`` too (29, 1, 68 and 25 of its
#: 4,076 tools), so a map is read as a schema only when every key is one of these.
_SCHEMA_KEYS = frozenset({
    "type", "properties", "required", "description", "title", "additionalProperties", "$schema",
    "$id", "$defs", "definitions", "examples", "default", "strict", "patternProperties", "$comment",
})


def cut(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters (``...`` marks a cut)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def param(p: Any, required: bool = False) -> str:
    """Render one parameter as ``name (type, where, required): description``."""
    if not isinstance(p, dict):
        return cut(str(p), 60)
    if "$ref" in p:
        return str(p["$ref"]).rsplit("/", 1)[-1]
    schema = p.get("schema")
    typ = p.get("type") or (schema.get("type") if isinstance(schema, dict) else None)
    bits = [str(b) for b in (typ, p.get("in"), "required" if required or p.get("required") is True
                             else None) if b]
    head = f"{p.get('name', '?')} ({', '.join(bits)})" if bits else str(p.get("name", "?"))
    desc = cut(p.get("description") or "", MAX_PARAM_DESC)
    return f"{head}: {desc}" if desc else head


def is_json_schema(raw: Mapping[str, Any]) -> bool:
    """Whether a ``parameters`` object is a JSON Schema rather than a name -> spec map."""
    if not raw or not set(raw) <= _SCHEMA_KEYS:
        return False
    props = raw.get("properties")
    if raw.get("type") == "object":
        return props is None or isinstance(props, dict)
    return isinstance(props, dict) and all(isinstance(v, dict) for v in props.values())


def schema_params(schema: Mapping[str, Any], required: object = None) -> list[str]:
    """One entry per property of a JSON Schema object, nested ones by their path.

    Args:
        schema: The ``parameters`` object (`is_json_schema`).
        required: The record's own ``required`` list, if any (Seal-Tools keeps it beside
            the parameters); the schema's ``required`` counts too.
    """
    top = _names(required) | _names(schema.get("required"))
    return list(islice(_fields(schema, "", top, 0), SCHEMA_MAX_FIELDS))


def _names(value: object) -> set[str]:
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()


def _fields(schema: Mapping[str, Any], path: str, required: set[str], depth: int) -> Iterator[str]:
    """The entries of one object's properties, each followed by its nested fields."""
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    for name, spec in islice(props.items(), SCHEMA_MAX_FIELDS):
        full = f"{path}.{name}" if path else str(name)
        if not isinstance(spec, dict):
            yield full
            continue
        yield _entry(full, spec, name in required)
        if depth >= SCHEMA_MAX_DEPTH:
            continue
        items = spec.get("items")
        if isinstance(spec.get("properties"), dict):
            yield from _fields(spec, full, _names(spec.get("required")), depth + 1)
        elif isinstance(items, dict) and isinstance(items.get("properties"), dict):
            yield from _fields(items, f"{full}[]", _names(items.get("required")), depth + 1)


def _nested(name: str, spec: object) -> list[str]:
    """The fields nested in one parameter of an OpenAPI list (its ``schema``) or a name ->
    spec map, by their path (``items[].sku``), as a JSON Schema's are (`_fields`)."""
    if not isinstance(spec, dict):
        return []
    items = spec.get("items")
    if isinstance(spec.get("properties"), dict):
        return list(islice(_fields(spec, name, _names(spec.get("required")), 1), SCHEMA_MAX_FIELDS))
    if isinstance(items, dict) and isinstance(items.get("properties"), dict):
        return list(islice(_fields(items, f"{name}[]", _names(items.get("required")), 1), SCHEMA_MAX_FIELDS))
    return []


def _entry(path: str, spec: Mapping[str, Any], required: bool) -> str:
    """``path (type, required): description (one of: a, b)``."""
    bits = [b for b in (_type(spec), "required" if required else "") if b]
    head = f"{path} ({', '.join(bits)})" if bits else path
    desc = spec["description"] if isinstance(spec.get("description"), str) else ""
    enum = spec.get("enum")
    if isinstance(enum, list) and enum:
        shown = ", ".join(str(v) for v in enum[:_MAX_ENUM]) + (", ..." if len(enum) > _MAX_ENUM else "")
        desc = f"{desc} (one of: {shown})" if desc else f"one of: {shown}"
    desc = cut(desc, MAX_PARAM_DESC)
    return f"{head}: {desc}" if desc else head


def _type(spec: Mapping[str, Any]) -> str:
    """A property's type in words: ``string``, ``string or null``, ``array of string``,
    a ``$ref``'s last segment, the alternatives of ``anyOf`` / ``oneOf``."""
    typ = spec.get("type")
    if isinstance(typ, list):
        return " or ".join(str(t) for t in typ[:4])
    if isinstance(ref := spec.get("$ref"), str):
        return ref.rsplit("/", 1)[-1]
    if typ == "array" and isinstance(spec.get("items"), dict):
        inner = _type(spec["items"])
        return f"array of {inner}" if inner and inner != "object" else "array"
    if isinstance(typ, str):
        return typ
    for key in ("anyOf", "oneOf"):
        if isinstance(spec.get(key), list):
            return " or ".join(t for alt in spec[key][:4] if isinstance(alt, dict) and (t := _type(alt)))
    return ""


def parameter_lines(rec: dict[str, Any]) -> list[str]:
    """Compact lines for parameters, outputs and grouping of one tool record."""
    params: list[str] = []
    raw = rec.get("parameters")
    if isinstance(raw, list):
        for p in raw:
            spec = p.get("schema", p) if isinstance(p, dict) else None
            params += [param(p), *_nested(str(p.get("name", "?")) if isinstance(p, dict) else "", spec)]
    elif isinstance(raw, dict) and is_json_schema(raw):
        params = schema_params(raw, rec.get("required"))
    elif isinstance(raw, dict):
        req = set(rec.get("required") or [])
        for k, v in raw.items():
            params += [param({"name": k, **v} if isinstance(v, dict) else {"name": k, "type": v}, k in req),
                       *_nested(str(k), v)]
    for key, req_flag in (("required_parameters", True), ("optional_parameters", False)):
        if isinstance(rec.get(key), list):
            params += [param(p, req_flag) for p in rec[key]]
    out: list[str] = []
    if params:
        out.append(cut("Parameters: " + "; ".join(params), MAX_SECTION))
    resp, info = rec.get("responses"), rec.get("output_info")
    if isinstance(resp, dict) and resp:
        returns = [param({"name": k, **v} if isinstance(v, dict) else {"name": k})
                   for k, v in resp.items()]
        out.append(cut("Returns: " + "; ".join(returns), MAX_SECTION))
    elif isinstance(info, dict) and info.get("output_info_summary"):
        out.append(cut("Returns: " + str(info["output_info_summary"]), MAX_SECTION))
    if isinstance(rec.get("tool_name"), str) and isinstance(rec.get("category"), str):
        out.append(f"Tool: {rec['tool_name']}. Category: {rec['category']}.")
    return out


def naming_lines(rec: dict[str, Any], description: str) -> list[str]:
    """What else names or describes a tool: an OpenAPI operation's ``method path``, a
    display name that differs from the name, a model-facing description that differs from
    the description.

    The default search, ``skill-retriever benchmark --only skills,toolret --max-queries
    500`` at 1fe7ce1 (before) and 0b634b1 (after), nDCG@10: metatool 67.8 -> 70.8,
    restbench-spotify 66.2 -> 67.7, restbench-tmdb 52.5 -> 52.4; the other sets carry none
    of these fields. Domain and field labels as a text line were tried and left out
    (scratch run of the default search on the same cached sets): seal-tools 86.1 -> 86.1,
    ultratool 78.2 -> 72.7, because tools of one domain grew alike and that moved
    ultratool's route decision (`calibration.defaults`).
    """
    out: list[str] = []
    method, path = rec.get("method"), rec.get("path")
    if isinstance(method, str) and isinstance(path, str) and method.strip() and path.strip():
        out.append(f"{method.strip().upper()} {path.strip()}")
    name = str(rec.get("name") or "").strip()
    shown = rec.get("name_for_human")
    if isinstance(shown, str) and shown.strip() and shown.strip().casefold() != name.casefold():
        out.append(shown.strip())
    for_model = rec.get("description_for_model")
    if isinstance(for_model, str) and for_model.strip() and for_model.strip() != description:
        out.append(for_model.strip())  # whole: it is the documentation the tool wrote for a model
    return out
