"""Tool catalogues in the toolret format (``../shared/data/toolret/<set>/``).

``tools.jsonl``: one tool a line (``{"id","name","description",...}``); optional
``edges.jsonl``: one relation a line (``{"source","target","type"}``); ``queries.jsonl``:
``{"id","query","relevant":[tool ids],...}``.

Each tool is one `NodeKind.TOOL` node with the tool's id as given (the queries'
``relevant`` lists use those ids). Text = description, then a compact rendering of the
parameters and outputs the record has (OpenAPI lists, Seal-Tools maps, ToolBench
required/optional lists, TRAJECT output summaries) and its ToolBench tool and category,
then what else names or describes the tool (`_naming_lines`): an OpenAPI operation's
method and path (``GET /me/playlists``: the path names the resources the call acts on)
and a plugin manifest's display name and model-facing description (MetaTool's
``name_for_human``, ``description_for_model``). Other small fields go to ``attrs``;
category / domain / field labels become tags (a text line of them did not help the
default search: see `_naming_lines`).

Edge types: ``connected_tools`` (TRAJECT: an output fills another tool's input) and
``tool_graph`` (UltraTool: the source's result is used by the target in task plans) ->
``FEEDS``; a type naming an `EdgeKind` is kept; anything else -> ``RELATED_TO``. REST
operations (tools with a ``method`` and a ``path``) also get ``DEPENDS_ON`` edges to the
operations that produce their path parameters (`ingest.openapi_links`).

Every node records ``source_root`` (the set's folder) and ``source_name`` (its name
unless the caller names the source) in ``attrs``. A line holding a number strict JSON
cannot carry (NaN, Infinity, ``1e999``, an integer over Python's digit limit), or nested
over `json_values.MAX_DEPTH` levels, is a bad line, like one that is not JSON.

Grouping (StableToolBench ``tool_name``, TRAJECT ``parent_tool_name``): APIs of one tool
are joined pairwise by ``RELATED_TO`` edges (one per pair, meaning symmetric), so
expansion from one API reaches its siblings (907 of the 1,427 pairs of relevant APIs of
a StableToolBench query are siblings). No group nodes are made, so every retrievable
item stays a tool; a group over ``max_group`` APIs gets no edges (no 112-API clique).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, TextIO

from skill_retriever.exceptions import IngestError, InvalidItemError
from skill_retriever.ingest import json_values
from skill_retriever.ingest.openapi_links import operation_links
from skill_retriever.ingest.provenance import Provenance
from skill_retriever.ingest.result import IngestResult, Problem
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind

#: Relation types found in the toolret sets and what they mean here.
EDGE_TYPES: dict[str, EdgeKind] = {
    "connected_tools": EdgeKind.FEEDS,
    "tool_graph": EdgeKind.FEEDS,
}
_GROUP_FIELDS = ("tool_name", "parent_tool_name")
_TAG_FIELDS = ("category", "domain", "domains", "field")
_RENDERED = frozenset(
    {"id", "name", "description", "parameters", "required", "responses", "required_parameters",
     "optional_parameters", "output_info", "connected_tools", "description_for_model"}
)
#: What this ingester makes; bumped when that changes, so cached benchmark indexes are
#: rebuilt. 2: the naming lines (`_naming_lines`); 3: REST operations' dependency edges.
INGEST_VERSION = 3
_MAX_ATTR_CHARS = 1000
_MAX_PARAM_DESC = 160
_MAX_SECTION = 1500
#: A line of a .jsonl file longer than this is one problem, not a memory spike.
MAX_LINE_CHARS = 4_000_000
_SURROGATE = re.compile("[\udc80-\udcff]")  # an undecodable byte, kept by surrogateescape


@dataclass(frozen=True, slots=True)
class ToolQuery:
    """One benchmark query: its text and the ids of the tools it needs.

    ``split`` is the set's own partition where it has one (``split``, else ``subset``,
    else ``group``: e.g. Seal-Tools ``test_in_domain``, MetaTool ``multi``).
    """

    id: str
    query: str
    relevant: tuple[str, ...]
    split: str | None = None


def _lines(fh: TextIO) -> Iterator[str | None]:
    """The file's lines, never holding more than `MAX_LINE_CHARS` of one in memory; None
    stands for a longer line (its rest is skipped)."""
    while line := fh.readline(MAX_LINE_CHARS + 1):
        if len(line) <= MAX_LINE_CHARS or line.endswith("\n"):
            yield line
            continue
        while (rest := fh.readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
            pass
        yield None


def _objects(path: Path, result: IngestResult | None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) per non-blank line, streaming the file.

    A line that is not a JSON object, or not UTF-8, becomes a problem in ``result``, or
    raises `IngestError` when ``result`` is None; so does a file that cannot be read (a
    folder, no permission). A byte order mark is read past.
    """
    try:
        # surrogateescape: an invalid byte stays visible (a lone surrogate), so its line
        # is refused rather than stored with U+FFFD in place of what the author wrote.
        with path.open("r", encoding="utf-8-sig", errors="surrogateescape") as fh:
            for n, line in enumerate(_lines(fh), 1):
                rec, why = _parse_line(line)
                if rec is not None:
                    yield n, rec
                if why is None:
                    continue
                if result is None:
                    raise IngestError(f"{path}:{n}: {why}")
                result.problems.append(Problem(str(path), f"line {n}: {why}"))
    except OSError as exc:
        why = f"cannot be read ({exc.strerror or exc}); check that it is a readable file"
        if result is None:
            raise IngestError(f"{path}: {why}") from exc
        result.problems.append(Problem(str(path), why))


def _parse_line(line: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """One line's JSON object, or why it is not a usable one; (None, None) when blank."""
    if line is None:
        return None, f"longer than {MAX_LINE_CHARS:,} characters; skipped unread"
    if not line.strip():
        return None, None
    if _SURROGATE.search(line):
        return None, "not UTF-8 text; save the file as UTF-8"
    try:
        rec = json_values.loads(line)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        return None, f"not JSON ({exc})"
    if not isinstance(rec, dict):
        return None, f"not a JSON object (it is {json_values.type_name(rec)})"
    why = json_values.nesting_message(rec) or json_values.unrepresentable_message(rec)
    return (rec, None) if why is None else (None, why)


def _cut(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def _param(p: Any, required: bool = False) -> str:
    """Render one parameter as ``name (type, where, required): description``."""
    if not isinstance(p, dict):
        return _cut(str(p), 60)
    if "$ref" in p:
        return str(p["$ref"]).rsplit("/", 1)[-1]
    schema = p.get("schema")
    typ = p.get("type") or (schema.get("type") if isinstance(schema, dict) else None)
    bits = [str(b) for b in (typ, p.get("in"), "required" if required or p.get("required") is True
                             else None) if b]
    head = f"{p.get('name', '?')} ({', '.join(bits)})" if bits else str(p.get("name", "?"))
    desc = _cut(p.get("description") or "", _MAX_PARAM_DESC)
    return f"{head}: {desc}" if desc else head


def _render(rec: dict[str, Any]) -> list[str]:
    """Compact lines for parameters, outputs and grouping of one tool record."""
    params: list[str] = []
    raw = rec.get("parameters")
    if isinstance(raw, list):
        params = [_param(p) for p in raw]
    elif isinstance(raw, dict):
        req = set(rec.get("required") or [])
        params = [_param({"name": k, **v} if isinstance(v, dict) else {"name": k, "type": v},
                         k in req) for k, v in raw.items()]
    for key, req_flag in (("required_parameters", True), ("optional_parameters", False)):
        if isinstance(rec.get(key), list):
            params += [_param(p, req_flag) for p in rec[key]]
    out: list[str] = []
    if params:
        out.append(_cut("Parameters: " + "; ".join(params), _MAX_SECTION))
    resp, info = rec.get("responses"), rec.get("output_info")
    if isinstance(resp, dict) and resp:
        returns = [_param({"name": k, **v} if isinstance(v, dict) else {"name": k})
                   for k, v in resp.items()]
        out.append(_cut("Returns: " + "; ".join(returns), _MAX_SECTION))
    elif isinstance(info, dict) and info.get("output_info_summary"):
        out.append(_cut("Returns: " + str(info["output_info_summary"]), _MAX_SECTION))
    if isinstance(rec.get("tool_name"), str) and isinstance(rec.get("category"), str):
        out.append(f"Tool: {rec['tool_name']}. Category: {rec['category']}.")
    return out


def _naming_lines(rec: dict[str, Any]) -> list[str]:
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
    description = str(rec.get("description") or "").strip()
    for_model = rec.get("description_for_model")
    if isinstance(for_model, str) and for_model.strip() and for_model.strip() != description:
        out.append(for_model.strip())  # whole: it is the documentation the tool wrote for a model
    return out


def _tool_node(rec: dict[str, Any], source: str, origin: dict[str, str]) -> Node:
    if "id" not in rec:
        raise InvalidItemError("tool without an id")
    name = str(rec.get("name") or rec["id"]).strip() or str(rec["id"])
    description = str(rec.get("description") or "").strip()
    lines = ([description] if description else []) + _render(rec) + _naming_lines(rec)
    text = "\n".join(lines) or name
    tags: list[str] = []
    for key in _TAG_FIELDS:
        value = rec.get(key)
        for tag in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            if isinstance(tag, str) and tag and tag not in tags:
                tags.append(tag)
    attrs = {k: v for k, v in rec.items() if k not in _RENDERED
             and len(json.dumps(v, ensure_ascii=False, default=str)) <= _MAX_ATTR_CHARS}
    attrs.update(origin)
    return Node(id=rec["id"], kind=NodeKind.TOOL, name=name, text=text, tags=tuple(tags),
                source=source, attrs=attrs)


def _edge_kind(kind: str) -> tuple[EdgeKind, str]:
    if kind in EDGE_TYPES:
        return EDGE_TYPES[kind], ""
    try:
        return EdgeKind(kind.upper()), ""
    except ValueError:
        return EdgeKind.RELATED_TO, kind


def ingest_toolret(
    folder: Path,
    *,
    sibling_edges: bool = True,
    max_group: int = 30,
    operation_edges: bool = True,
    source_name: str | None = None,
) -> IngestResult:
    """Read one toolret set: tools as TOOL nodes, relations and groupings as edges.

    Args:
        folder: The set's folder (holds ``tools.jsonl``, maybe ``edges.jsonl``).
        sibling_edges: Join APIs of one tool (``tool_name`` / ``parent_tool_name``) by
            ``RELATED_TO`` edges.
        max_group: Groups with more APIs than this get no sibling edges.
        operation_edges: Join each REST operation (a tool with a ``method`` and a
            ``path``) to the operations that produce its path parameters, by
            ``DEPENDS_ON`` edges (`ingest.openapi_links`).
        source_name: Recorded on every node; the folder's name by default.

    Returns:
        Nodes, edges and one problem per bad line (unparsable, no id, duplicate id,
        invalid item, edge to a missing tool, self edge, repeated edge).

    Raises:
        IngestError: the folder has no ``tools.jsonl``.
    """
    folder = Path(folder)
    tools_path = folder / "tools.jsonl"
    if not tools_path.exists():  # one that cannot be read is a problem (`_objects`)
        raise IngestError(f"{folder}: no tools.jsonl; pass a toolret set folder")
    started = time.perf_counter()
    result = IngestResult(source=str(folder))
    folder = folder.absolute()  # node sources that mean the same from any working directory
    tools_path = folder / "tools.jsonl"
    origin = Provenance.of(folder, source_name).attrs()
    ids: set[str] = set()
    groups: dict[str, list[str]] = {}
    operations: dict[str, tuple[str, str]] = {}
    where = str(tools_path)
    for n, rec in _objects(tools_path, result):
        try:
            if "id" in rec and not isinstance(rec["id"], str):
                raise InvalidItemError(f"tool id must be text, got {json_values.type_name(rec['id'])}")
            if rec.get("id") in ids:
                raise InvalidItemError(f"duplicate tool id {rec['id']!r}; the first one is kept")
            node = _tool_node(rec, where, origin)
        except InvalidItemError as exc:
            result.problems.append(Problem(where, f"line {n}: {exc}"))
            continue
        except (TypeError, ValueError, RecursionError) as exc:
            # TypeError / ValueError: fields of unexpected shapes; RecursionError: measuring
            # a deeply nested field.
            result.problems.append(Problem(where, f"line {n}: a field has an unexpected shape ({exc}); tool skipped"))
            continue
        ids.add(node.id)
        result.nodes.append(node)
        group = next((rec[k] for k in _GROUP_FIELDS if isinstance(rec.get(k), str)), None)
        if group:
            groups.setdefault(group, []).append(node.id)
        method, path = rec.get("method"), rec.get("path")
        if isinstance(method, str) and isinstance(path, str) and method.strip() and path.strip():
            operations[node.id] = (method.strip(), path.strip())
    edge_ids: set[str] = set()
    if (folder / "edges.jsonl").exists():
        _read_edges(folder / "edges.jsonl", ids, edge_ids, result)
    for group, members in groups.items() if sibling_edges else ():
        for a, b in combinations(members, 2) if len(members) <= max_group else ():
            edge = Edge(a, b, EdgeKind.RELATED_TO, description=f"both APIs of {group}")
            if edge.id not in edge_ids:
                edge_ids.add(edge.id)
                result.edges.append(edge)
    for edge in operation_links(operations) if operation_edges else ():
        if edge.id not in edge_ids:
            edge_ids.add(edge.id)
            result.edges.append(edge)
    result.seconds = time.perf_counter() - started
    return result


def _read_edges(path: Path, ids: set[str], edge_ids: set[str], result: IngestResult) -> None:
    """Add the relations of ``edges.jsonl``, one problem per rejected line.

    Re-indexing keeps what a file with a problem held, but relations are held by their
    tools, whose file is ``tools.jsonl``: when lines of ``edges.jsonl`` (or all of it)
    could not be read, a problem of ``tools.jsonl`` says so and keeps its tools and
    relations as they were, rather than dropping every relation that went unread. An
    edge read and rejected (a self edge, an unknown tool) is not such a line.
    """
    before, rejected = len(result.problems), 0
    for n, rec in _objects(path, result):
        found = _edge(rec, ids, edge_ids)
        if isinstance(found, str):
            rejected += 1
            result.problems.append(Problem(str(path), f"line {n}: {found}"))
        else:
            edge_ids.add(found.id)
            result.edges.append(found)
    if len(result.problems) - before > rejected:  # `_objects` met lines it could not read
        result.problems.append(Problem(
            str(path.parent / "tools.jsonl"),
            f"its tools and relations are kept as indexed: {path.name} could not be read whole (see above)",
        ))


def _edge(rec: dict[str, Any], ids: set[str], edge_ids: set[str]) -> Edge | str:
    """The edge a line describes, or why it is rejected."""
    src, dst = rec.get("source"), rec.get("target")
    if not isinstance(src, str) or not isinstance(dst, str):
        return (f'"source" and "target" must be tool ids (text), got {json_values.type_name(src)} '
                f"and {json_values.type_name(dst)}; edge dropped")
    missing = [end for end in (src, dst) if end not in ids]
    if missing:
        return f"tool {missing[0]!r} does not exist (or its line was rejected); edge dropped"
    if src == dst:
        return f"self edge on {src!r} dropped"
    kind, desc = _edge_kind(str(rec.get("type") or "related_to"))
    edge = Edge(src, dst, kind, description=desc)
    return f"repeats edge {edge.id!r}" if edge.id in edge_ids else edge


def load_toolret_queries(folder: Path) -> list[ToolQuery]:
    """Read ``queries.jsonl`` of a toolret set.

    Raises:
        IngestError: the file is missing or a line is not a valid query (benchmark
            labels must be exact, so nothing is skipped silently).
    """
    path = Path(folder) / "queries.jsonl"
    if not path.is_file():
        raise IngestError(f"{folder}: no queries.jsonl; pass a toolret set folder")
    queries: list[ToolQuery] = []
    for n, rec in _objects(path, None):
        relevant = rec.get("relevant")
        if not isinstance(rec.get("query"), str) or not isinstance(relevant, list) or not all(
                isinstance(r, str) for r in relevant):
            raise IngestError(f"{path}:{n}: expected {{\"id\", \"query\", \"relevant\": [ids]}}")
        split = next((rec[k] for k in ("split", "subset", "group") if isinstance(rec.get(k), str)),
                     None)
        queries.append(ToolQuery(id=str(rec.get("id", n)), query=rec["query"],
                                 relevant=tuple(relevant), split=split))
    return queries
