"""Tool catalogues in the toolret format (``../shared/data/toolret/<set>/``).

``tools.jsonl``: one tool a line (``{"id","name","description",...}``); optional
``edges.jsonl``: one relation a line (``{"source","target","type"}``); ``queries.jsonl``:
``{"id","query","relevant":[tool ids],...}``.

Each tool is one `NodeKind.TOOL` node with the tool's id as given (the queries'
``relevant`` lists use those ids); its description is text, or a list of texts joined one
a line. ``Node.description`` stays empty: the embedded text begins with the name and
``Node.description``, so a description there would be read twice (metatool's nDCG@10 went
70.5 -> 69.6 with it, `benchmark --only toolret --max-queries 500`). Text = description, then a compact
rendering of the parameters and outputs the record has (OpenAPI lists, Seal-Tools maps,
ToolBench required/optional lists, JSON Schema objects, TRAJECT output summaries:
`ingest.tool_text`) and its ToolBench tool and category,
then what else names or describes the tool (`tool_text.naming_lines`): an OpenAPI operation's
method and path (``GET /me/playlists``: the path names the resources the call acts on)
and a plugin manifest's display name and model-facing description (MetaTool's
``name_for_human``, ``description_for_model``). Other small fields go to ``attrs``;
category / domain / field labels become tags (a text line of them did not help the
default search: see `tool_text.naming_lines`).

Edge types: ``connected_tools`` (TRAJECT: an output fills another tool's input) and
``tool_graph`` (UltraTool: the source's result is used by the target in task plans) ->
``FEEDS``; a type naming an `EdgeKind` is kept; anything else -> ``RELATED_TO``. REST
operations (tools with a ``method`` and a ``path``) also get ``DEPENDS_ON`` edges to the
operations that produce their path parameters (`ingest.openapi_links`).

Every node records ``source_root`` (the set's folder) and ``source_name`` (its name
unless the caller names the source) in ``attrs``. A line holding a number strict JSON
cannot carry (NaN, Infinity, ``1e999``, an integer over Python's digit limit), or nested
over `json_values.MAX_DEPTH` levels, is a bad line, like one that is not JSON
(`json_lines.read_objects`).

Grouping (StableToolBench ``tool_name``, TRAJECT ``parent_tool_name``): APIs of one tool
are joined pairwise by ``RELATED_TO`` edges (one per pair, meaning symmetric), so
expansion from one API reaches its siblings (907 of the 1,427 pairs of relevant APIs of
a StableToolBench query are siblings). No group nodes are made, so every retrievable
item stays a tool; a group over ``max_group`` APIs gets no edges (no 112-API clique).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Literal

from skill_retriever.exceptions import IngestError, InvalidItemError
from skill_retriever.ingest import json_values
from skill_retriever.ingest.access_keys import access_notes
from skill_retriever.ingest.document_formats import READ_SUFFIXES, unread_format
from skill_retriever.ingest.json_lines import read_objects
from skill_retriever.ingest.jsonl_nodes import nodes_jsonl_advice
from skill_retriever.ingest.openapi_links import operation_links
from skill_retriever.ingest.provenance import Provenance
from skill_retriever.ingest.result import IngestResult, Problem, Unread
from skill_retriever.ingest.tool_text import naming_lines, parameter_lines
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.time_text import unset_time

#: Relation types found in the toolret sets and what they mean here.
EDGE_TYPES: dict[str, EdgeKind] = {
    "connected_tools": EdgeKind.FEEDS,
    "tool_graph": EdgeKind.FEEDS,
}
_GROUP_FIELDS = ("tool_name", "parent_tool_name")
_TAG_FIELDS = ("tags", "category", "domain", "domains", "field")
#: Read as a JSON graph's node reads them (left in attrs, ``access`` made a tool its
#: author meant for some callers public). No shipped set has any of them.
_ITEM_FIELDS = ("tags", "access", "created", "updated")
_RENDERED = frozenset(
    {"id", "name", "description", "parameters", "required", "responses", "required_parameters",
     "optional_parameters", "output_info", "connected_tools", "description_for_model", *_ITEM_FIELDS}
)
#: What this ingester makes; bumped when that changes, so cached benchmark indexes are
#: rebuilt. 2: the naming lines (`tool_text.naming_lines`); 3: REST operations' dependency edges.
#: (JSON Schema parameters, `tool_text`, changed no shipped set's text: still 3.)
INGEST_VERSION = 3
_MAX_ATTR_CHARS = 1000


#: What a tool set is, for a message about a path that is not one.
FORMAT = ('a tool set is a folder holding tools.jsonl (one JSON object a line: "id", "name", "description", '
          '"parameters") and, optionally, edges.jsonl (one a line: "source", "target", "type")')


def tools_folder(path: Path) -> Path:
    """The folder a tool set is read from: a ``tools.jsonl`` file's own (it is read as its
    folder is, ``edges.jsonl`` beside it included), else ``path``."""
    return path.parent if path.name == "tools.jsonl" and not path.is_dir() else path


def jsonl_source(path: Path) -> Literal["toolret"]:
    """The kind of a file no other reader takes: a tool set's ``tools.jsonl`` (read as its
    folder is); any other raises an `IngestError` saying what can be indexed."""
    if path.name == "tools.jsonl":
        return "toolret"
    if path.suffix.lower() == ".jsonl":
        raise IngestError(jsonl_advice(path))
    if (unread := unread_format(path)) is not None:  # guide.html: no JSON graph was meant
        raise IngestError(unread)
    # deploy.py, config.yaml: say every file that is indexed alone, not the JSON graph only
    raise IngestError(
        f"{path}: {f'a {path.suffix} file' if path.suffix else 'a file without a suffix'} is not indexed alone; "
        "a file indexed alone is a JSON graph (.json), a corpus.json, a tool set's tools.jsonl or a document "
        f"({', '.join(READ_SUFFIXES)}); to index the skills or documents around it, give its folder"
    )


def jsonl_advice(path: Path) -> str:
    """Why a ``.jsonl`` file other than ``tools.jsonl`` is not indexed, and what to index."""
    if path.name in ("edges.jsonl", "queries.jsonl") and (path.parent / "tools.jsonl").is_file():
        return f"{path} belongs to the tool set of its folder: index {path.parent} (or its tools.jsonl)"
    if (nodes := nodes_jsonl_advice(path)) is not None:  # an incident export, one node a line
        return nodes
    return (f"{path} is not a file that can be indexed alone: {FORMAT}; name the file tools.jsonl "
            "(or put it in a folder of its own as tools.jsonl) and index it or its folder")


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


def _tool_node(rec: dict[str, Any], source: str, origin: dict[str, str]) -> Node:
    if "id" not in rec:
        raise InvalidItemError("tool without an id")
    name = str(rec.get("name") or rec["id"]).strip() or str(rec["id"])
    description = _description(rec.get("description"))
    lines = ([description] if description else []) + parameter_lines(rec) + naming_lines(rec, description)
    text = "\n".join(lines) or name
    tags: list[str] = []
    for key in _TAG_FIELDS:
        value = rec.get(key)
        if key == "tags" and isinstance(value, str):  # "a, b", as a JSON graph's node writes them
            value = value.split(",")
        for tag in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            tag = tag.strip() if isinstance(tag, str) else tag
            if isinstance(tag, str) and tag and tag not in tags:
                tags.append(tag)
    attrs = {k: v for k, v in rec.items() if k not in _RENDERED
             and len(json.dumps(v, ensure_ascii=False, default=str)) <= _MAX_ATTR_CHARS}
    attrs.update(origin)
    return Node(id=rec["id"], kind=NodeKind.TOOL, name=name, text=text, tags=tuple(tags), source=source,
                access=rec.get("access", ()), created=_time(rec.get("created")), updated=_time(rec.get("updated")),
                attrs=attrs)


def _time(value: Any) -> Any:
    """A tool's time as `Node` reads it, 0 being none as in a JSON graph (`time_text.unset_time`)."""
    return None if unset_time(value) else value


def _description(value: object) -> str:
    """A tool's description as text: a list of texts is joined one a line; null is none."""
    if value is None or isinstance(value, str):
        return (value or "").strip()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(v.strip() for v in value if v.strip())
    raise InvalidItemError(f'"description" must be text or a list of texts, got {json_values.type_name(value)}')


def _same_names_note(names: dict[tuple[str | None, str], list[Node]]) -> str | None:
    """A note naming the tools that share a name (in one group, if grouped): a model that
    picks a tool by its name cannot tell them apart. None when every name is its own."""
    shared = [nodes for nodes in names.values() if len(nodes) > 1]
    if not shared:
        return None
    listed = "; ".join(
        f"{nodes[0].name!r} ({', '.join(n.id for n in nodes[:3])}{', ...' if len(nodes) > 3 else ''})"
        for nodes in shared[:5]
    )
    more = f" and {len(shared) - 5} more" if len(shared) > 5 else ""
    return (f"{len(shared)} tool name(s) shared by tools of different ids: {listed}{more}; all are "
            "indexed, but a model choosing by name cannot tell them apart: give each its own name")


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
        folder: The set's folder (holds ``tools.jsonl``, maybe ``edges.jsonl``), or its
            ``tools.jsonl``.
        sibling_edges: Join APIs of one tool (``tool_name`` / ``parent_tool_name``) by
            ``RELATED_TO`` edges.
        max_group: Groups with more APIs than this get no sibling edges.
        operation_edges: Join each REST operation (a tool with a ``method`` and a
            ``path``) to the operations that produce its path parameters, by
            ``DEPENDS_ON`` edges (`ingest.openapi_links`).
        source_name: Recorded on every node; the folder's name by default.

    Returns:
        Nodes, edges and one problem per bad line (unparsable, no id, duplicate id,
        invalid item, edge to a missing tool, self edge, repeated edge); a note naming
        tools that share a name (`_same_names_note`).

    Raises:
        IngestError: the folder has no ``tools.jsonl``.
    """
    folder = tools_folder(Path(folder))
    if folder.is_file():  # another file named as a tool set (``--kind toolret``)
        raise IngestError(jsonl_advice(folder))
    tools_path = folder / "tools.jsonl"
    if not tools_path.exists():  # one that cannot be read is a problem (`json_lines.read_objects`)
        raise IngestError(f"{folder}: no tools.jsonl; {FORMAT}")
    started = time.perf_counter()
    result = IngestResult(source=str(folder))
    folder = folder.absolute()  # node sources that mean the same from any working directory
    tools_path = folder / "tools.jsonl"
    origin = Provenance.of(folder, source_name).attrs()
    ids: set[str] = set()
    groups: dict[str, list[str]] = {}
    operations: dict[str, tuple[str, str]] = {}
    names: dict[tuple[str | None, str], list[Node]] = {}
    where = str(tools_path)
    for n, rec in read_objects(tools_path, result):
        named = rec["id"] if isinstance(rec.get("id"), str) else None
        if named in ids:  # the line was read: the file stays authoritative (`Unread.NOTHING`)
            result.problems.append(Problem(where, f"line {n}: duplicate tool id {named!r}; the first one is kept: "
                                                  "rename or remove one of them", unread=Unread.NOTHING))
            continue
        try:
            if "id" in rec and named is None:
                raise InvalidItemError(f"tool id must be text, got {json_values.type_name(rec['id'])}")
            node = _tool_node(rec, where, origin)
        except (InvalidItemError, TypeError, ValueError, RecursionError) as exc:
            # TypeError / ValueError: fields of unexpected shapes; RecursionError: measuring
            # a deeply nested field.
            why = str(exc) if isinstance(exc, InvalidItemError) else f"a field has an unexpected shape ({exc}); tool skipped"
            result.problems.append(_unread_tool(where, f"line {n}: {why}", named))
            continue
        ids.add(node.id)
        result.nodes.append(node)
        result.problems += [Problem(where, f"line {n}: {note}", read_whole=True, unread=Unread.NOTHING)
                            for note in access_notes(rec, node.access)]  # "visibility" is not read: public
        group = next((rec[k] for k in _GROUP_FIELDS if isinstance(rec.get(k), str)), None)
        if group:
            groups.setdefault(group, []).append(node.id)
        method, path = rec.get("method"), rec.get("path")
        if isinstance(method, str) and isinstance(path, str) and method.strip() and path.strip():
            operations[node.id] = (method.strip(), path.strip())
        else:  # an operation's method and path tell it from another of its name
            names.setdefault((group, node.name.casefold()), []).append(node)
    if not result.nodes and not any(p.path == where for p in result.problems):
        result.problems.append(Problem(where, f"holds no tool (it is empty); {FORMAT}"))
    if note := _same_names_note(names):
        result.problems.append(Problem(where, note, read_whole=True, unread=Unread.NOTHING))
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


def _unread_tool(where: str, message: str, named: str | None) -> Problem:
    """A tool line that could not be read: its earlier version stays when it names its id
    (`Unread.ITEM`), else the file's (which stored tool it was cannot be told), as a JSON
    graph's node does; every other tool removed from the file goes."""
    if named is None:
        return Problem(where, message)
    return Problem(where, message, unread=Unread.ITEM, item=named)


def _read_edges(path: Path, ids: set[str], edge_ids: set[str], result: IngestResult) -> None:
    """Add the relations of ``edges.jsonl``, one problem per rejected line.

    Re-indexing keeps what a file with a problem held, but relations are held by their
    tools, whose file is ``tools.jsonl``: when lines of ``edges.jsonl`` (or all of it)
    could not be read, a problem of ``tools.jsonl`` says so and keeps its tools and
    relations as they were, rather than dropping every relation that went unread. An
    edge read and rejected (a self edge, an unknown tool) is not such a line.
    """
    before, rejected = len(result.problems), 0
    for n, rec in read_objects(path, result):
        found = _edge(rec, ids, edge_ids)
        if isinstance(found, str):
            rejected += 1  # read and refused: nothing of it to keep (`Unread.NOTHING`)
            result.problems.append(Problem(str(path), f"line {n}: {found}", unread=Unread.NOTHING))
        else:
            edge_ids.add(found.id)
            result.edges.append(found)
    if len(result.problems) - before > rejected:  # `read_objects` met lines it could not read
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
    for n, rec in read_objects(path, None):
        relevant = rec.get("relevant")
        if not isinstance(rec.get("query"), str) or not isinstance(relevant, list) or not all(
                isinstance(r, str) for r in relevant):
            raise IngestError(f"{path}:{n}: expected {{\"id\", \"query\", \"relevant\": [ids]}}")
        split = next((rec[k] for k in ("split", "subset", "group") if isinstance(rec.get(k), str)),
                     None)
        queries.append(ToolQuery(id=str(rec.get("id", n)), query=rec["query"],
                                 relevant=tuple(relevant), split=split))
    return queries
