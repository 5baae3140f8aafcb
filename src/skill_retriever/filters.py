"""Filters that every channel applies before fusion: kinds, tags, access, time window.

Access rule: a node with no access labels is public; a node with labels is visible only to
a caller holding at least one of them. The principal ``"*"`` sees everything (for admin
tools and the CLI on one's own index); no principals at all sees public items only.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from skill_retriever.exceptions import ConfigError, InvalidItemError
from skill_retriever.kind_names import FEW_CHARS, check_kinds, kind_in_case
from skill_retriever.model import Node, NodeKind, parse_timestamp
from skill_retriever.tag_case import tag_case_hint
from skill_retriever.undated_advice import dating_advice

ALL_PRINCIPALS = "*"
FILTER_KEYS = ("kinds", "tags", "principals", "since", "until")

#: An ``until`` with no time of day, as `model.parse_timestamp` reads one: a day
#: (``2026-11-01``, ``20261101``, ``2026-W44-7``) or an ISO week (``2026-W44``).
_A_DAY = re.compile(r"(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4}-?W\d{2}-?\d)[Zz]?")  # 2026-03-14Z: the day in UTC
_A_WEEK = re.compile(r"\d{4}-?W\d{2}[Zz]?")


def _last_instant(value: object, start: datetime) -> datetime:
    """Where an ``until`` given as ``value`` ends, ``start`` being what it parsed to: a date
    alone (a string of one, or a `date`) names its whole day, and an ISO week its whole
    week, so the window takes it in up to its last microsecond (``until=2026-11-01``
    admits an item of 2026-11-01 15:00, and ``since=until=`` a day is that day); a time
    of day is the instant it names."""
    if isinstance(value, datetime):
        return start
    text = value.strip() if isinstance(value, str) else None
    if isinstance(value, date) or (text is not None and _A_DAY.fullmatch(text)):
        span = timedelta(days=1)
    elif text is not None and _A_WEEK.fullmatch(text):
        span = timedelta(weeks=1)
    else:
        return start
    try:
        return start + span - timedelta(microseconds=1)
    except OverflowError:  # the last day of year 9999: to the end of time
        return datetime.max.replace(tzinfo=UTC)


class ReversedWindowError(ConfigError):
    """``since`` is after ``until``, so no item could pass. ``since`` and ``until`` let
    another entry point, such as the CLI with its ``--since`` / ``--until``, say it with its
    own names (:meth:`worded`)."""

    def __init__(self, since: datetime, until: datetime) -> None:
        self.since, self.until = since, until
        super().__init__(self.worded("filters.since", "filters.until"))

    def worded(self, since_name: str, until_name: str) -> str:
        """The message, naming the two bounds ``since_name`` and ``until_name``."""
        return (f"{since_name} ({self.since.isoformat()}) is after {until_name} ({self.until.isoformat()}), "
                "so no item could pass; swap them")


def star_access_note(nodes: Iterable[Node]) -> str | None:
    """What to say of items whose access labels hold ``"*"``: it reads like "everyone",
    but a label is matched against the caller's principals, so only a caller holding the
    principal ``"*"`` (an admin tool, the CLI on one's own index) sees them. The items stay
    hidden from everyone else (failing closed); None when no item carries it."""
    starred = sorted(n.id for n in nodes if ALL_PRINCIPALS in n.access)
    if not starred:
        return None
    return (
        f"{len(starred)} item(s) carry the access label '*' ({starred[0]}{', ...' if len(starred) > 1 else ''}): "
        "only callers holding the principal '*' see them, not everyone; for a public item leave access empty"
    )


def _frozen(value: Iterable[str] | str | None, what: str) -> frozenset[str] | None:
    return names_of(value, f"filters.{what}")


def names_of(value: Iterable[str] | str | None, what: str) -> frozenset[str] | None:
    """A set of names: one string is one name (``principals="team-*"`` is the principal
    ``team-*``, never the characters t, e, a, m, -, *: a ``*`` among them would see every
    item); a mapping is refused rather than read as its keys.

    Raises:
        ConfigError: Not a string nor an iterable of strings.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, Mapping | bytes):
        raise ConfigError(f"{what} must be a list of strings, got {value!r:.60}")
    try:
        items = frozenset(value)
    except TypeError as exc:
        raise ConfigError(f"{what} must be a list of strings, got {value!r:.60}") from exc
    if not all(isinstance(v, str) for v in items):
        raise ConfigError(f"{what} must be a list of strings, got {value!r:.60}")
    return items


#: At most this many of the names a caller asked for are listed in a warning (then "and N
#: more"): a filter of 100,000 tags gets a line, not a 790,000-character note.
_LISTED = 10


def _listed(values: Iterable[str]) -> str:
    """Names sorted and comma-separated for a warning: the first `_LISTED`, each cut to
    `FEW_CHARS` characters, and how many more there are."""
    names = sorted(values)
    cut = [v if len(v) <= FEW_CHARS else v[:FEW_CHARS] + "..." for v in names[:_LISTED]]
    return ", ".join(cut) + (f" and {len(names) - _LISTED:,} more" if len(names) > _LISTED else "")


@dataclass(frozen=True)
class Filters:
    """Which items a query may see. ``None`` on a field means "no restriction" (except
    ``principals``: ``None`` means an anonymous caller, who sees public items only)."""

    kinds: frozenset[str] | None = None
    tags: frozenset[str] | None = None
    principals: frozenset[str] | None = field(default=None)
    since: datetime | None = None
    until: datetime | None = None

    if TYPE_CHECKING:
        # What __post_init__ reads, so that a user's type checker takes the calls that run
        # (``Filters(kinds=["skill"], since="2026-11-01")``); the fields hold the results.
        def __init__(self, kinds: Iterable[str] | str | None = None, tags: Iterable[str] | str | None = None,
                     principals: Iterable[str] | str | None = None, since: datetime | date | str | float | None = None,
                     until: datetime | date | str | float | None = None) -> None: ...

    def __post_init__(self) -> None:
        kinds = _frozen(self.kinds, "kinds")  # in any case: Agent is the kind agent
        object.__setattr__(self, "kinds", None if kinds is None else frozenset(map(kind_in_case, kinds)))
        object.__setattr__(self, "tags", _frozen(self.tags, "tags"))
        object.__setattr__(self, "principals", _frozen(self.principals, "principals"))
        if self.kinds is not None:
            check_kinds(self.kinds, "filters.kinds")
        for name in ("since", "until"):
            # None leaves the window open; "" is no time, not "no limit": refused like " ".
            value = getattr(self, name)
            if isinstance(value, str) and not value.strip():
                raise ConfigError(
                    f"filters.{name} is {'empty' if not value else 'blank'}; give a time "
                    f"(e.g. 2026-11-01 or 2026-11-01T12:00:00Z), or leave {name} out for no limit"
                )
        try:
            object.__setattr__(self, "since", parse_timestamp(self.since, "filters.since"))
            until = parse_timestamp(self.until, "filters.until")
        except InvalidItemError as exc:
            raise ConfigError(str(exc)) from exc
        object.__setattr__(self, "until", None if until is None else _last_instant(self.until, until))
        if self.since is not None and self.until is not None and self.since > self.until:
            raise ReversedWindowError(self.since, self.until)

    @classmethod
    def from_spec(cls, spec: Any) -> Filters:
        """Filters from their JSON form (``{"kinds": [...], "principals": [...], "since": "..."}``).

        Raises:
            ConfigError: ``spec`` is not a mapping or names an unknown filter.
        """
        if spec is None:
            return cls()
        if not isinstance(spec, dict):
            raise ConfigError(f"filters must be a mapping, got {type(spec).__name__}")
        unknown = set(spec) - set(FILTER_KEYS)
        if unknown:
            first = str(min(unknown, key=str))
            meant = difflib.get_close_matches(first, FILTER_KEYS, n=1)
            hint = f" (did you mean {meant[0]!r}?)" if meant else ""
            raise ConfigError(f"unknown filter(s) {sorted(unknown, key=str)}{hint}; use {', '.join(FILTER_KEYS)}")
        return cls(**spec)

    def to_spec(self) -> dict[str, Any]:
        """The JSON form (:meth:`from_spec` reads it back to equal filters)."""
        spec: dict[str, Any] = {}
        for name in ("kinds", "tags", "principals"):
            value = getattr(self, name)
            if value is not None:
                spec[name] = sorted(value)
        for name in ("since", "until"):
            value = getattr(self, name)
            if value is not None:
                spec[name] = value.isoformat()
        return spec

    def visibility(self) -> Filters:
        """Access only: what the caller may see at all (graph walks cross other kinds)."""
        return Filters(principals=self.principals)

    @classmethod
    def everything(cls) -> Filters:
        """No restriction at all (the caller holds ``"*"``)."""
        return cls(principals=frozenset({ALL_PRINCIPALS}))

    def sees_all_labels(self, labelled: bool) -> bool:
        """Whether no access label can hide an item from this caller: the index holds none
        (``labelled`` False), or the caller holds ``"*"``."""
        return not labelled or (self.principals is not None and ALL_PRINCIPALS in self.principals)

    def can_see(self, node: Node) -> bool:
        """Access only: may the caller see this node at all?"""
        if not node.access:
            return True
        if self.principals is None:
            return False
        return ALL_PRINCIPALS in self.principals or not self.principals.isdisjoint(node.access)

    def admits(self, node: Node) -> bool:
        """Access and every other restriction."""
        if not self.can_see(node):
            return False
        if self.kinds is not None and node.kind.value not in self.kinds:
            return False
        if self.tags is not None and self.tags.isdisjoint(node.tags):
            return False
        if self.since is not None or self.until is not None:
            # Created or updated inside the window, as README says: an incident opened
            # last week and updated today is one of last week's (its later time alone
            # would leave it out of every window that ends before today). An update
            # dated before the creation (a bad import, a clock skew) reads as the
            # creation, as `Node.last_changed` reads it: nothing changes before it exists.
            return any(self.in_window(t) for t in (node.created, node.last_changed) if t is not None)
        return True

    def in_window(self, when: datetime) -> bool:
        """Whether ``since <= when <= until`` (an open bound admits every time)."""
        return (self.since is None or when >= self.since) and (self.until is None or when <= self.until)

    @property
    def is_trivial(self) -> bool:
        """True when nothing is filtered (every node admitted)."""
        return (
            self.kinds is None
            and self.tags is None
            and self.since is None
            and self.until is None
            and self.principals is not None
            and ALL_PRINCIPALS in self.principals
        )


def chroma_where(f: Filters, labelled: bool) -> dict[str, Any] | None:
    """``f``'s kinds and access as a Chroma metadata filter (the metadata each vector
    carries: ``kind``, ``public`` and the ``access`` labels); None when nothing is filtered.

    Tags and the time window are not compiled: the caller filters those on the snapshot.

    Args:
        f: The filters.
        labelled: Whether any item carries access labels (without, access filters nothing).
    """
    clauses: list[dict[str, Any]] = []
    if f.kinds is not None:
        clauses.append({"kind": {"$in": sorted(f.kinds)}})
    if labelled and not (f.principals and ALL_PRINCIPALS in f.principals):
        visible: list[dict[str, Any]] = [{"public": True}]
        visible += [{"access": {"$contains": p}} for p in sorted(f.principals or ())]
        clauses.append(visible[0] if len(visible) == 1 else {"$or": visible})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def vector_metadata(node: Node, vhash: str) -> dict[str, Any]:
    """What a node's vector carries in a vector store, for :func:`chroma_where`. Its
    ``hash`` also holds the kind and access the filter reads, so a changed label shows as
    a stale entry when a writer brings the store in step."""
    sig = f"{vhash}|{node.kind.value}|{','.join(sorted(node.access))}"
    meta: dict[str, Any] = {"hash": sig, "kind": node.kind.value, "public": not node.access}
    if node.access:
        meta["access"] = list(node.access)
    return meta


#: How `nothing_admitted_note` ends a note on kinds the index does not hold: a person at
#: the CLI runs `stats`. An agent cannot, so the agent tool names the kinds (`kinds_named`).
KINDS_POINTER = "`stats` lists its kinds"


def kinds_named(warning: str, visible: Filters, nodes: Iterable[Node]) -> str:
    """``warning`` with the pointer at `stats` that ends a note on absent kinds replaced by
    the kinds the index holds that ``visible`` may see (in `NodeKind` order), for a
    caller that cannot run `stats`: an agent asked for ``kinds=["incident"]`` learns
    which kinds it can ask for. Any other warning comes back as it is. Only the kinds
    of items the caller may see are named: a private item's kind is not said to exist.
    """
    if not (warning.startswith("the index holds no ") and warning.endswith(f"you may see; {KINDS_POINTER}")):
        return warning
    held = {n.kind for n in nodes if visible.can_see(n)}
    named = ", ".join(k.value for k in NodeKind if k in held)
    return warning.removesuffix(KINDS_POINTER) + f"the kinds you may see are {named}"


def nothing_admitted_note(f: Filters, nodes: Iterable[Node]) -> str | None:
    """Why an empty answer is empty when the filters themselves admit no item the caller
    may see (a kind the index does not hold, a tag no item has, a time window over undated
    items): without it an empty answer reads as "nothing matched", and the caller rewords
    the query instead of the filters. None when some item passes them: then the query,
    not the filters, found nothing. Names only what the caller asked for, never an item."""
    visible = [n for n in nodes if f.can_see(n)]
    if any(f.admits(n) for n in visible):
        return None
    if not visible:
        whose = f"the principals {_listed(f.principals)}" if f.principals else "a caller without principals (public items only)"
        return f"no item of the index is visible to {whose}, so every query comes back empty; check the principals"
    if f.kinds is not None and not any(n.kind.value in f.kinds for n in visible):
        return f"the index holds no {_listed(f.kinds)} items you may see; {KINDS_POINTER}"
    asked = [f"{name} {_listed(v)}" for name in ("kinds", "tags") if (v := getattr(f, name)) is not None]
    asked += [f"{name} {v.isoformat()}" for name in ("since", "until") if (v := getattr(f, name)) is not None]
    undated = (f.since or f.until) is not None and all(n.last_changed is None for n in visible)
    why = (f"; since/until admit only items with a created or updated time, and none has one{dating_advice(visible)}"
           if undated else "") + tag_case_hint(f.tags, visible)  # `--tags PAYMENTS` of an item tagged payments
    return f"no item you may see passes the filters ({'; '.join(asked)}){why}, so every query comes back empty with them"
