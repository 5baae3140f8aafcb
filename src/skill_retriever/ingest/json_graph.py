"""Read a graph of any domain (documents, incidents, services, ...) from one JSON file.

The file holds ``{"nodes": [...], "edges": [...]}``: each node is an object shaped like
`Node.to_dict()` (``id``, ``kind``, ``name``, ``text`` required; unknown keys go to
``attrs``), each edge like `Edge.to_dict()` (``source``, ``target``, ``kind``; ``type`` is
accepted for ``kind``, and a node's ``type`` too when it names a node kind and the node
gives no ``kind``). ``edges`` may be left out. Kinds are read in any case (``TOOL``), and a
node with a ``description`` but no ``text`` has its description as its text (`_as_node`).
Its times under the names exports give them (`model.TIME_ALIASES`) are read as ``created``
/ ``updated`` where it gives none of that name, the first given: created: ``created_at``,
``createdAt``, ``creation_time``, then an incident's start, ``started_at``, ``startedAt``,
``start_time``, ``startTime``; updated: ``updated_at``, ``updatedAt``, ``modified``,
``modified_at``, ``last_modified``, then its end, ``resolved_at``, ``resolvedAt``,
``ended_at``, ``endedAt``, ``end_time``, ``endTime`` (`node_times`). 0, null or ``""``
under any of them is not set, and a time that cannot be read is a problem naming its key
as the file writes it: either way the next name given is read, and the node is indexed
with the times it has (a 0 is one note per file).

A bad item (unknown kind, empty text, duplicate id, an edge to a missing
node, a self edge, a repeated edge, a number strict JSON cannot carry: NaN, Infinity,
``1e999``, an integer over Python's 4,300-digit limit; lists and objects nested over
`json_values.MAX_DEPTH` levels) becomes a `Problem` naming the item and the file; the
good items are kept. A file that cannot be read (a folder, no permission), parsed, or
whose top level has another shape, is one `Problem`. Only a path that does not exist
raises (`IngestError`). A UTF-8 byte order mark (Windows editors write one) is read past.

Every node gets ``attrs["source_root"]`` (the folder holding the file),
``attrs["source_name"]`` (that folder's name unless the caller names the source) and
``attrs["source_file"]`` (the file, absolute), so indexing the file again removes the
nodes it no longer holds (``stale.stale_ids``) whatever ``source`` a node names; a
node that names no ``source`` of its own gets the file's absolute path there.

An edge starts at a node of its own file and may end at one of its file or at any node
the index already holds (``known_ids``): it belongs to the file that states it, so
indexing that file again without it removes it (``stale.stale_edge_ids``). An edge
from a node of another file or source is a problem (state it in that node's file), and
so is one to a node that exists nowhere.
"""

from __future__ import annotations

import difflib
import json
import time
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from skill_retriever.advice import Word, command
from skill_retriever.exceptions import IngestError, InvalidItemError
from skill_retriever.ingest import json_values
from skill_retriever.ingest.access_keys import access_notes
from skill_retriever.ingest.node_times import read_times, zero_keys, zero_note
from skill_retriever.ingest.provenance import SOURCE_FILE, Provenance
from skill_retriever.ingest.result import IngestResult, Problem, Unread
from skill_retriever.kind_names import meant_kind
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind

#: Files larger than this are refused unless the caller raises the limit.
DEFAULT_MAX_BYTES = 512 * 1024 * 1024


def ingest_json_graph(
    path: Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    known_ids: AbstractSet[str] = frozenset(),
    source_name: str | None = None,
) -> IngestResult:
    """Read nodes and edges from a JSON graph file.

    Args:
        path: The JSON file.
        max_bytes: Refuse (with one problem) a file larger than this; the whole file is
            parsed in memory, so this bounds memory use.
        known_ids: Node ids already in the index (not this file's own); edges may end
            at them.
        source_name: Recorded on every node; the name of the file's folder by default.

    Returns:
        The valid nodes and edges, and one problem per rejected item.

    Raises:
        IngestError: ``path`` does not exist.
    """
    path = Path(path)
    if not path.exists():
        raise IngestError(f"{path}: no such file; pass the path of a JSON graph file")
    started = time.perf_counter()
    result = IngestResult(source=str(path))
    data = _load(path, max_bytes, result)  # None, and a problem, for a folder too
    if data is not None:
        origin = Provenance.of(path, source_name)
        node_ids, rejected = _read_nodes(data["nodes"], str(path), result, origin)
        _read_edges(data.get("edges") or [], str(path), node_ids, rejected, known_ids, result)
    result.seconds = time.perf_counter() - started
    return result


def _load(path: Path, max_bytes: int, result: IngestResult) -> dict[str, Any] | None:
    """Parse the file and check its top-level shape; on failure add one problem."""
    where = str(path)
    data, why = json_values.read_file(path, max_bytes)
    if why is not None:
        result.problems.append(Problem(where, why))
        return None
    shape = 'expected a JSON object {"nodes": [...], "edges": [...]}'
    if not isinstance(data, dict):
        result.problems.append(Problem(where, f"{shape}, got {json_values.type_name(data)}{_list_hint(data)}"))
        return None
    if not isinstance(data.get("nodes"), list):
        got = "" if "nodes" not in data else f" (it is {json_values.type_name(data['nodes'])})"
        result.problems.append(Problem(where, f'{shape}; "nodes" is missing or not a list{got}'))
        return None
    if "edges" in data and not isinstance(data["edges"], (list, type(None))):
        result.problems.append(Problem(where, f'{shape}; "edges" is not a list (it is {json_values.type_name(data["edges"])})'))
        return None
    return data


def _list_hint(data: object) -> str:
    """What a top-level list most likely is (by its first items' keys), and how to index it."""
    first = data[:5] if isinstance(data, list) else []
    if not first or not all(isinstance(d, dict) for d in first):
        return ""
    if all("kind" in d and "id" in d for d in first):
        return '; a list of nodes: write it as {"nodes": [...], "edges": [...]}'
    if all("text" in d for d in first):
        return "; a list of passages ({title, text}) is a corpus: index it with --kind passages"
    if all("id" in d for d in first):
        return ("; a list of tools ({id, name, description}) is a tool set: write one a line into tools.jsonl, "
                "in a folder of its own, and index that folder")
    return ""


def _label(section: str, i: int, item: object, *keys: str) -> str:
    """Name an item by position and, where it has them, its identifying fields."""
    if isinstance(item, dict):
        named = ", ".join(
            f"{k} {item[k]!r:.80}" if isinstance(item[k], (str, int)) else f"{k} <{type(item[k]).__name__}>"
            for k in keys
            if k in item
        )
        if named:
            return f"{section}[{i}] ({named})"
    return f"{section}[{i}]"


def _read_nodes(
    items: list[Any], where: str, result: IngestResult, origin: Provenance
) -> tuple[set[str], set[str]]:
    """The ids of the nodes read, and of those rejected. A rejected node that names its id
    keeps its earlier version at re-indexing (`Unread.ITEM`); one that does not keeps the
    whole file's (which stored item it was cannot be told). The file being parsed is
    otherwise authoritative: a node taken out of it goes."""
    seen: set[str] = set()
    rejected: set[str] = set()
    file, absolute = str(Path(where).resolve()), str(Path(where).absolute())
    stamped = {**origin.attrs(), SOURCE_FILE: file}  # what the file said is overridden
    zeros: list[tuple[str, str]] = []  # (node, key) of each time given as 0: one note
    for i, item in enumerate(items):
        label = _label("nodes", i, item, "id")
        named = _named_id(item)
        bad = json_values.nesting_message(item) or json_values.unrepresentable_message(item)
        if bad is not None:
            _reject(result, where, f"{label}: {bad}; node skipped", named, rejected)
            continue
        if isinstance(item, dict) and "id" not in item:  # quoted as written, not as `_as_node` renamed it
            _reject(result, where, f"{label}: node without an id: {json.dumps(item, default=str)[:120]}{_id_hint(item)}",
                    None, rejected)
            continue
        fixed = _as_node(item)
        bad_times = read_times(fixed) if isinstance(fixed, dict) else []
        try:
            node = Node.from_dict(fixed)
            # The provenance, and the file as the source of a node that names none (so
            # indexing the file again can mirror it), in one copy: each copy checks the
            # node again, and four of them took half of reading a 60,000-node file.
            node = node.with_changes(attrs={**node.attrs, **stamped}, source=node.source or absolute)
        except (InvalidItemError, TypeError, ValueError, RecursionError) as exc:
            # TypeError / ValueError: ``attrs`` that is not a mapping; RecursionError: a
            # message quoting a deeply nested item.
            said = _once(str(exc), label, "node", [named])
            _reject(result, where, f"{label}: {said}{_kinds_hint(item, NodeKind)}", named, rejected)
            continue
        if node.id in seen:
            message = f"{label}: duplicate node id {node.id!r}; the first one is kept: rename or remove one of them"
            result.problems.append(Problem(where, message, unread=Unread.NOTHING))
            continue
        seen.add(node.id)
        result.nodes.append(node)
        zeros += [(label, key) for key in zero_keys(item)]
        result.problems += [Problem(where, f"{label}: {why}; the node is indexed without it", unread=Unread.NOTHING)
                            for why in bad_times]
        # "visibility", "Access", "acess": not read, so the node is public; say so
        result.problems += [Problem(where, f"{label}: {note}", read_whole=True, unread=Unread.NOTHING)
                            for note in access_notes(item, node.access)]
    note = zero_note(zeros)
    if note is not None:
        result.problems.append(Problem(where, note, read_whole=True, unread=Unread.NOTHING))
    return seen, rejected - seen


#: Keys (lower case) exports give an item's id under, besides ``ID``: named in the problem
#: of a node without an ``id``.
_ID_LIKE = frozenset({"_id", "uuid", "key", "number", "identifier", "incident_id", "incident_number", "alert_id"})


def _id_hint(item: dict[str, Any]) -> str:
    """For a node without an ``id``: the key of it that looks meant as one (``ID``,
    ``incident_number``), as a question."""
    key = next((k for k in item if isinstance(k, str) and (k.lower() == "id" or k.lower() in _ID_LIKE)), None)
    return f'; it gives {key!r}: is that its id? write it as "id"' if key is not None else ""


def _as_node(item: Any) -> Any:
    """``item`` as `Node.from_dict` reads it: its kind in lower case (``"TOOL"``, as an
    edge's kind is read in any case), under ``type`` when it gives no ``kind`` and its
    ``type`` is a node kind (as an edge's is read); a ``description`` that is a list of
    texts joined one a line (as a tool set's); ``tags`` and ``access`` written as one
    comma-separated string (``"a, b"``) as a list, as a skill's frontmatter reads them (one
    tag ``"a, b"`` could never be asked for, ``--tags`` parting at commas); and with no
    text, its description as its text. Its times are read apart (`node_times.read_times`)."""
    if not isinstance(item, dict):
        return item
    fixed = dict(item)
    if "kind" not in fixed and isinstance(fixed.get("type"), str) and fixed["type"].lower() in _NODE_KINDS:
        fixed["kind"] = fixed.pop("type")
    if isinstance(fixed.get("kind"), str):
        fixed["kind"] = fixed["kind"].lower()
    description = fixed.get("description")
    if isinstance(description, list) and all(isinstance(d, str) for d in description):
        description = fixed["description"] = "\n".join(d.strip() for d in description if d.strip())
    for key in ("tags", "access"):
        parts = [p.strip() for p in fixed[key].split(",") if p.strip()] if isinstance(fixed.get(key), str) else []
        if parts:  # an empty access string stays, and is refused: it must not make a node public
            fixed[key] = parts
    text = fixed.get("text")
    if (text is None or text == "") and isinstance(description, str) and description.strip():
        fixed["text"] = description
    return fixed


def _once(message: str, label: str, what: str, ids: list[Any]) -> str:
    """``message`` (`Node`'s or `Edge`'s) without its opening ``node 'inc:2': `` (``edge 'a'
    -> 'b': ``) when ``label`` (``nodes[2] (id 'inc:2')``) already says those ``ids`` whole:
    said twice, it read as two items. An id the label cuts short stays, said whole there."""
    if not ids or not all(isinstance(i, str) and repr(i) in label for i in ids):
        return message
    named = f"{what} {' -> '.join(map(repr, ids))}"
    for opening in (f"{named}: ", f"{named} "):  # "node 't' tags must be a list ..."
        if message.startswith(opening):
            return message[len(opening):]
    return message


_NODE_KINDS = frozenset(k.value for k in NodeKind)


#: What a skill's frontmatter or another graph calls an edge kind, for the hint.
_EDGE_WORDS = {"REQUIRES": "DEPENDS_ON", "NEEDS": "DEPENDS_ON", "DEPENDS": "DEPENDS_ON",
               "CONFLICTS": "CONFLICTS_WITH", "RELATED": "RELATED_TO", "RELATES_TO": "RELATED_TO"}


def _kinds_hint(item: object, kinds: type[NodeKind | EdgeKind]) -> str:
    """The kinds to choose from, for an item that gives none (an unknown one names them),
    and the kind a near miss means: a node's ``skills`` (`kind_names.meant_kind`), an edge's
    ``requires`` (``DEPENDS_ON``, "source requires target")."""
    if not isinstance(item, dict):
        return ""
    if "kind" not in item:
        typed = f'; its "type" {item["type"]!r:.40} is not a node kind' if "type" in item else ""
        return f"{typed}; use one of: {', '.join(k.value for k in kinds)}"
    kind = item["kind"]
    if not isinstance(kind, str) or kind.lower() in _NODE_KINDS or kind.upper() in EdgeKind.__members__:
        return ""
    if kinds is NodeKind:
        meant = meant_kind(kind)
    else:
        word = kind.strip().upper().replace("-", "_").replace(" ", "_")
        meant = _EDGE_WORDS.get(word) or next(iter(difflib.get_close_matches(word, EdgeKind.__members__, 1, 0.75)), None)
    return f" (did you mean {meant!r}?)" if meant else ""


def graph_files_note(folder: Path, index_dir: Word | None = None) -> Problem | None:
    """For a folder that gave no item read as skills or documents: how to index the JSON
    graph files it holds into the index at ``index_dir``, one file at a time (the files of
    one folder make one source); with none, what a tool set is when it holds ``.jsonl`` files."""
    graphs = sorted(p for p in folder.glob("*.json") if not p.name.startswith(".") and p.is_file())
    if not graphs:
        return _tool_lines_note(folder)
    named = ", ".join(p.name for p in graphs[:3]) + (f" and {len(graphs) - 3} more" if len(graphs) > 3 else "")
    return Problem(
        str(folder),
        f"no skill, agent, command, hook, MCP file or document here, but JSON file(s) {named}: a JSON "
        f"graph is indexed file by file (`{command(['index', graphs[0]], index_dir)}`; the files of one folder "
        "make one source)",
    )


def _tool_lines_note(folder: Path) -> Problem | None:
    """For a folder that gave no item but holds JSON Lines files: what a tool set is (one
    holding ``tools.jsonl`` is read as one, `ingest.toolret`)."""
    from skill_retriever.ingest.toolret import FORMAT

    files = sorted(p.name for p in folder.glob("*.jsonl") if not p.name.startswith(".") and p.is_file())
    if not files:
        return None
    named = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    return Problem(str(folder), f"no skill, agent, command, hook, MCP file or document here, but JSON Lines file(s) "
                                f"{named}: {FORMAT}; name the tools' file tools.jsonl")


def _named_id(item: object) -> str | None:
    """The id a node names, as the index would store it: its text, or a whole number's
    digits (``"id": 42`` is refused, but it is no other node: the file's other items that
    are gone from it go, where an id that cannot be read at all keeps them all)."""
    value = item.get("id") if isinstance(item, dict) else None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value if isinstance(value, str) else None


def _reject(result: IngestResult, where: str, message: str, named: str | None, rejected: set[str]) -> None:
    """A node that could not be read: its earlier version stays when it names its id."""
    unread = Unread.FILE if named is None else Unread.ITEM
    result.problems.append(Problem(where, message, unread=unread, item=named))
    if named is not None:
        rejected.add(named)


def _read_edges(
    items: list[Any],
    where: str,
    node_ids: set[str],
    rejected: set[str],
    known_ids: AbstractSet[str],
    result: IngestResult,
) -> None:
    """Read the edges. A rejected edge is gone at re-indexing (the file was parsed: what it
    no longer states goes), unless it touches a rejected node, whose earlier version and
    relations are kept (`Unread.ITEM`)."""
    seen: set[str] = set()

    def drop(message: str, edge: Edge | None = None) -> None:
        kept = edge is not None and bool({edge.source, edge.target} & rejected)
        item = edge.id if kept and edge is not None else None
        result.problems.append(Problem(where, message, unread=Unread.ITEM if kept else Unread.NOTHING, item=item))

    for i, item in enumerate(items):
        label = _label("edges", i, item, "source", "target")
        if isinstance(item, dict) and "kind" not in item and "type" in item:
            item = {**item, "kind": item["type"]}
        bad = json_values.nesting_message(item) or json_values.unrepresentable_message(item)
        if bad is not None:
            drop(f"{label}: {bad}; edge dropped")
            continue
        try:
            edge = Edge.from_dict(item)
        except (InvalidItemError, TypeError, ValueError, RecursionError) as exc:
            ends = [item.get("source"), item.get("target")] if isinstance(item, dict) else []
            drop(f"{label}: {_once(str(exc), label, 'edge', ends)}{_kinds_hint(item, EdgeKind)}")
            continue
        missing = [end for end in (edge.source, edge.target) if end not in node_ids and end not in known_ids]
        if failed := [end for end in missing if end in rejected]:
            # Its node's earlier version stays (`Unread.ITEM`), and so does this edge's.
            drop(f"{label}: node {failed[0]!r} does not exist: it was rejected (see its problem); edge not read", edge)
        elif missing:
            end = "source" if missing[0] == edge.source else "target"
            drop(
                f"{label}: node {missing[0]!r} does not exist in this file or the index; edge dropped: "
                f"add that node, or fix the edge's {end} id",
                edge,
            )
        elif edge.source not in node_ids:
            drop(
                f"{label}: node {edge.source!r} is not in this file; an edge belongs to the file of "
                f"the node it starts from, so state it in the file that holds {edge.source!r}; edge dropped",
                edge,
            )
        elif edge.source == edge.target:
            drop(f"{label}: self edge on {edge.source!r} dropped")
        elif edge.id in seen:
            drop(f"{label}: repeats edge {edge.id!r}; dropped")
        else:
            seen.add(edge.id)
            result.edges.append(edge)
