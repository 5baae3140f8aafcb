"""The items of the knowledge graph: `Node` and `Edge`, and their kinds.

A `Node` is anything a caller may want back (a skill, an agent, a passage, an incident,
an entity). An `Edge` is a typed, weighted relation between two nodes. Both validate on
construction, so bad data fails where it enters, with a message naming the item.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Container, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, date, datetime, time
from enum import StrEnum
from typing import Any

from skill_retriever.exceptions import InvalidItemError
from skill_retriever.item_checks import (
    check_attrs,
    check_id,
    has_surrogate,
    json_type,
    str_tuple,
)
from skill_retriever.shown_value import shown
from skill_retriever.time_text import ISO_DATE_PART, TimeTextError, read_time_text


class NodeKind(StrEnum):
    """What an item is: a coding agent's component (skill, agent, command, hook, MCP server,
    plugin), a tool, a document, a passage and its scaffolding (entity, fact), an operations
    node (service, deploy, incident), or other (anything else, such as a named file inside a
    skill). The value is what ``--kinds``, filters and ``--json`` use."""

    SKILL = "skill"
    AGENT = "agent"
    COMMAND = "command"
    HOOK = "hook"
    MCP_SERVER = "mcp_server"
    PLUGIN = "plugin"
    TOOL = "tool"
    DOCUMENT = "document"
    PASSAGE = "passage"
    ENTITY = "entity"
    #: One sentence of a passage, joined to the entities it names (``ingest.facts``): graph
    #: scaffolding that a query is matched against, kept out of BM25 and name matching.
    FACT = "fact"
    SERVICE = "service"
    DEPLOY = "deploy"
    INCIDENT = "incident"
    OTHER = "other"


#: Kinds that carry the graph of a passage corpus and are never an answer of their own:
#: entities (a few words each) and facts (a sentence of their passage).
SCAFFOLD_KINDS: frozenset[NodeKind] = frozenset({NodeKind.ENTITY, NodeKind.FACT})
#: What can be an answer: every other kind (the one definition the channels, the "nothing
#: fits" calibration and its check share).
ANSWER_KINDS: frozenset[str] = frozenset(k.value for k in NodeKind if k not in SCAFFOLD_KINDS)


class EdgeKind(StrEnum):
    """How two items relate: a requirement or conflict (what install resolves), a looser link
    (enhances, related, mentions, part of, uses), an operations link (feeds, touches,
    affects), or one thing under two names (same as). The graph channel walks them."""

    DEPENDS_ON = "DEPENDS_ON"
    CONFLICTS_WITH = "CONFLICTS_WITH"
    ENHANCES = "ENHANCES"
    RELATED_TO = "RELATED_TO"
    MENTIONS = "MENTIONS"
    PART_OF = "PART_OF"
    USES = "USES"
    FEEDS = "FEEDS"
    TOUCHES = "TOUCHES"
    AFFECTS = "AFFECTS"
    #: Source and target name one thing ("U.S." / "United States"; ``ingest.synonyms``).
    SAME_AS = "SAME_AS"


#: Component kinds a coding agent installs (the flagship use).
COMPONENT_KINDS = frozenset(
    {NodeKind.SKILL, NodeKind.AGENT, NodeKind.COMMAND, NodeKind.HOOK, NodeKind.MCP_SERVER}
)

_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _parse_kind(enum: type[StrEnum], value: object, what: str, item: str) -> Any:
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        try:
            return enum(value if enum is NodeKind else value.upper())
        except ValueError:
            pass
    allowed = ", ".join(m.value for m in enum)
    raise InvalidItemError(f"{item}: unknown {what} {value!r}; use one of: {allowed}")


#: The names incident and deploy exports give an item's times (``created_at`` in most),
#: read as ``created`` / ``updated`` where the item gives none of that name (a JSON graph
#: node, a document's frontmatter), the first one given in this order: left unread, they
#: left the item undated, out of every time window without a word. After the record's own
#: times, an incident's start and end as PagerDuty, Opsgenie, incident.io and FireHydrant
#: write them (``startedAt``, ``resolved_at``): an export dating its incidents by them alone
#: had "incidents yesterday" miss every one.
TIME_ALIASES: Mapping[str, tuple[str, ...]] = {
    "created": ("created_at", "createdAt", "creation_time", "started_at", "startedAt", "start_time", "startTime"),
    "updated": ("updated_at", "updatedAt", "modified", "modified_at", "last_modified",
                "resolved_at", "resolvedAt", "ended_at", "endedAt", "end_time", "endTime"),
}
#: Epoch values this large are milliseconds (or finer): in seconds they lie past year 5000.
_EPOCH_MS = 1e11


def parse_timestamp(value: object, item: str = "item") -> datetime | None:
    """Read an ISO-8601 string (date and time apart by ``T`` or a space; ``Z`` or ``z``, also
    after a date alone, is UTC; ``UTC`` or ``GMT`` after a time), an RFC 2822 one
    (``Tue, 03 Nov 2026 14:05:00 +0000``; `time_text`), a datetime, a date or epoch
    seconds; naive means UTC. A
    date is its day's start, as the string of a
    date alone reads (``"2024-01-01"`` is 2024-01-01 00:00 UTC) and as a YAML date in a
    skill's frontmatter does. A time whose zone puts it past year 9999 (or before year 1)
    in UTC is the last (first) instant `datetime` holds, in UTC: what it means ("for ever")
    stays, and every comparison can be made."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime.combine(value, time(), tzinfo=UTC)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            dt = datetime.fromtimestamp(float(value), tz=UTC)
        except (OverflowError, OSError, ValueError) as exc:  # NaN, inf, year 10000+
            unit = " (it looks like milliseconds: divide by 1000, or write ISO-8601)" if _milliseconds(value) else ""
            raise InvalidItemError(
                f"{item}: timestamp {shown(value)} is not a valid time in epoch seconds{unit}"
            ) from exc
    elif isinstance(value, str):
        text = value.strip()
        if text[-1:] in ("Z", "z") and ISO_DATE_PART.fullmatch(text[:-1]):
            text = text[:-1]  # a date "in UTC" (2026-03-14Z): what a date alone reads as
        elif text.endswith("z"):
            text = text[:-1] + "Z"  # RFC 3339 allows a lower-case z, as Python allows a lower-case t
        try:
            dt = read_time_text(text)
        except TimeTextError as exc:
            raise InvalidItemError(f"{item}: timestamp {shown(value)} is not a valid RFC 2822 time: {exc.reason}") from exc
        except ValueError as exc:
            raise InvalidItemError(
                f"{item}: timestamp {shown(value)} is not ISO-8601 (e.g. 2026-11-01T12:00:00Z){_quoted_epoch(text)}"
            ) from exc
    else:
        raise InvalidItemError(f"{item}: timestamp must be text, a datetime or a date, not {type(value).__name__}")
    dt = dt if dt.tzinfo else dt.replace(tzinfo=UTC)
    try:  # the channels and filters compare in UTC: a time that has none failed every query
        dt.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:59:59-05:00 is in year 10000 in UTC: "for ever"
        return (datetime.max if dt.year > 1 else datetime.min).replace(tzinfo=UTC)
    return dt


def _quoted_epoch(text: str) -> str:
    """What to write for an epoch time quoted as text (an export converted from CSV): read
    as a number only, as the digits of a basic ISO date (``20261201``) are a date."""
    if not re.fullmatch(r"-?\d{9,16}(?:\.\d+)?", text):
        return ""
    if _milliseconds(float(text)):
        return "; epoch milliseconds written as text: divide by 1000 and write the number unquoted"
    return "; epoch seconds written as text: write the number unquoted"


def _milliseconds(value: float) -> bool:
    """Whether ``value``, no time in epoch seconds, is one in milliseconds: 1e300 is in
    neither, and "divide by 1000" would not help."""
    if not abs(value) >= _EPOCH_MS:  # NaN too
        return False
    try:
        datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class Node:
    """One item of the knowledge graph.

    Attributes:
        id: Unique, stable identifier (e.g. ``wshobson__agents/plugins/x/skills/y``).
        kind: What the item is.
        name: Short human name; what names in other items' text refer to.
        description: One or two sentences; the part a model reads first.
        text: The full body. Must not be empty: it is what gets embedded and counted.
        tags: Free labels; filterable.
        created / updated: Timezone-aware timestamps (the temporal channel uses them).
        source: Path or URL the item came from.
        access: Labels a caller must hold one of to see the item; empty = public.
        attrs: Free JSON attributes: text, finite numbers, booleans, null, lists and
            objects with text keys (anything else is refused, so what is stored reads back).
    """

    id: str
    kind: NodeKind
    name: str
    text: str
    description: str = ""
    tags: tuple[str, ...] = ()
    created: datetime | None = None
    updated: datetime | None = None
    source: str = ""
    access: tuple[str, ...] = ()
    attrs: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_id(self.id, "node")
        label = f"node {self.id!r}"
        object.__setattr__(self, "kind", _parse_kind(NodeKind, self.kind, "node kind", label))
        for field_name, why in (("name", "give every node a name"), ("text", "a node needs text to embed and index")):
            value = getattr(self, field_name)
            if not isinstance(value, str):
                raise InvalidItemError(f"{label}: {field_name} must be text, got {json_type(value)}; {why}")
            if not value.strip():
                raise InvalidItemError(f"{label}: {field_name} is empty; {why}")
        if not isinstance(self.description, str):
            raise InvalidItemError(f"{label}: description must be text, got {json_type(self.description)}")
        object.__setattr__(self, "tags", str_tuple(self.tags, f"{label} tags"))
        object.__setattr__(self, "access", str_tuple(self.access, f"{label} access"))
        # Unpaired surrogates cannot be encoded (tokenizers and Chroma reject them): text
        # gets U+FFFD in their place; an access label must be exact, so it is refused.
        for name in ("name", "text", "description"):
            value = getattr(self, name)
            if has_surrogate(value):
                object.__setattr__(self, name, _SURROGATE_RE.sub("\ufffd", value))
        if any(has_surrogate(t) for t in self.tags):
            object.__setattr__(self, "tags", tuple(_SURROGATE_RE.sub("\ufffd", t) for t in self.tags))
        if any(has_surrogate(a) or not a.strip() for a in self.access):
            raise InvalidItemError(f"{label}: access labels must be non-blank text without unpaired surrogates")
        # the field named: a node that gives both times said "timestamp 'x'" of either one
        object.__setattr__(self, "created", parse_timestamp(self.created, f"{label}: 'created'"))
        object.__setattr__(self, "updated", parse_timestamp(self.updated, f"{label}: 'updated'"))
        if not isinstance(self.source, str):
            raise InvalidItemError(f"{label}: source must be a string path")
        if not isinstance(self.attrs, Mapping):
            raise InvalidItemError(f"{label}: attrs must be a mapping")
        check_attrs(self.attrs, label)

    @property
    def last_changed(self) -> datetime | None:
        """The later of ``updated`` and ``created`` (None when neither is set): what recency
        means for this item. The later one, not ``updated`` first: an item whose ``updated``
        is older than its ``created`` (a bad import, a clock skew) was still changed when it
        was created, and the time phrases, the temporal channel and the since/until filters
        must all date an item alike."""
        return max((t for t in (self.created, self.updated) if t is not None), default=None)

    def embedding_text(self) -> str:
        """What gets embedded: name and description first (MiniLM reads 256 word pieces)."""
        head = f"{self.name}: {self.description}".strip(": ") if self.description else self.name
        return f"{head}\n{self.text}"

    def content_hash(self) -> str:
        """Hash of everything that is embedded or indexed; unchanged hash = no re-embedding."""
        return hashlib.sha256(self.embedding_text().encode("utf-8", "surrogatepass")).hexdigest()[:32]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["kind"] = self.kind.value
        d["tags"] = list(self.tags)
        d["access"] = list(self.access)
        d["created"] = self.created.isoformat() if self.created else None
        d["updated"] = self.updated.isoformat() if self.updated else None
        d["attrs"] = dict(self.attrs)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Node:
        if not isinstance(data, Mapping):
            raise InvalidItemError(f"a node must be a JSON object, got {type(data).__name__}")
        known = {f for f in cls.__dataclass_fields__}
        extra = {k: v for k, v in data.items() if k not in known}
        args = {k: v for k, v in data.items() if k in known}
        if "id" not in args:
            raise InvalidItemError(f"node without an id: {json.dumps(data, default=str)[:120]}")
        for required in ("kind", "name", "text"):
            if required not in args:
                raise InvalidItemError(f"node {args['id']!r}: missing field {required!r}")
        given = args.pop("attrs", None) or {}
        if not isinstance(given, Mapping):
            raise InvalidItemError(f"node {args['id']!r}: attrs must be an object, got {json_type(given)}")
        return cls(**args, attrs={**given, **extra})

    def with_changes(self, **changes: Any) -> Node:
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Edge:
    """A typed relation ``source -> target``.

    ``DEPENDS_ON`` reads "source requires target"; ``PART_OF`` "source belongs to target".
    """

    source: str
    target: str
    kind: EdgeKind
    weight: float = 1.0
    description: str = ""

    def __post_init__(self) -> None:
        check_id(self.source, "edge source")
        check_id(self.target, "edge target")
        label = f"edge {self.source!r} -> {self.target!r}"
        object.__setattr__(self, "kind", _parse_kind(EdgeKind, self.kind, "edge kind", label))
        if isinstance(self.weight, bool) or not isinstance(self.weight, (int, float)):
            raise InvalidItemError(f"{label}: weight must be a number, got {self.weight!r}")
        w = float(self.weight)
        if not (w > 0.0 and w < float("inf")):
            raise InvalidItemError(f"{label}: weight must be a positive finite number, got {w}")
        object.__setattr__(self, "weight", w)
        if not isinstance(self.description, str):
            raise InvalidItemError(f"{label}: description must be text, got {json_type(self.description)}")

    @property
    def id(self) -> str:
        """Stable id of the relation: source, kind and target."""
        return f"{self.source}|{self.kind.value}|{self.target}"

    def embedding_text(self, source_name: str, target_name: str) -> str:
        """Edges are embedded as a sentence, so seed retrieval can match relations too."""
        verb = self.kind.value.lower().replace("_", " ")
        tail = f": {self.description}" if self.description else ""
        return f"{source_name} {verb} {target_name}{tail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "kind": self.kind.value,
            "weight": self.weight,
            "description": self.description,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Edge:
        if not isinstance(data, Mapping):
            raise InvalidItemError(f"an edge must be a JSON object, got {type(data).__name__}")
        for required in ("source", "target", "kind"):
            if required not in data:
                raise InvalidItemError(f"edge missing field {required!r}: {json.dumps(data, default=str)[:120]}")
        return cls(
            source=data["source"],
            target=data["target"],
            kind=data["kind"],
            weight=data.get("weight", 1.0),
            description=data.get("description", "") or "",
        )


_EDGE_ID_RE = re.compile("\\|(" + "|".join(k.value for k in EdgeKind) + ")\\|")


def parse_edge_id(edge_id: str) -> list[tuple[str, EdgeKind, str]]:
    """The ``(source, kind, target)`` readings of an edge id ``source|KIND|target``.

    Node ids may contain ``|`` (some tool catalogues use it), so an id is split at a
    ``|KIND|`` separator, not at every ``|``; an id with several such separators has
    several readings (the caller keeps the one that exists). Empty for a malformed id.
    """
    return [
        (edge_id[: m.start()], EdgeKind(m.group(1)), edge_id[m.end() :])
        for m in _EDGE_ID_RE.finditer(edge_id)
        if m.start() > 0 and m.end() < len(edge_id)
    ]


def validate_graph(nodes: list[Node], edges: list[Edge], known_ids: Container[str] = frozenset()) -> None:
    """Check a batch: no duplicate node ids, no edge to a node missing from batch and index."""
    from skill_retriever.exceptions import DuplicateItemError, MissingNodeError

    seen: set[str] = set()
    for n in nodes:
        if n.id in seen:
            raise DuplicateItemError(f"duplicate node id {n.id!r} in one batch; ids must be unique")
        seen.add(n.id)
    for e in edges:
        for end in (e.source, e.target):
            if end not in seen and end not in known_ids:
                raise MissingNodeError(
                    f"edge {e.source!r} -[{e.kind.value}]-> {e.target!r}: node {end!r} does not exist; "
                    "add the node first or drop the edge"
                )
