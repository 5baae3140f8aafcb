"""Filters that every channel applies before fusion: kinds, tags, access, time window.

Access rule: a node with no access labels is public; a node with labels is visible only to
a caller holding at least one of them. The principal ``"*"`` sees everything (for admin
tools and the CLI on one's own index); no principals at all sees public items only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from skill_retriever.exceptions import ConfigError, InvalidItemError
from skill_retriever.model import Node, NodeKind, parse_timestamp

ALL_PRINCIPALS = "*"


def _frozen(value: Iterable[str] | str | None, what: str) -> frozenset[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return frozenset({value})
    try:
        items = frozenset(value)
    except TypeError as exc:
        raise ConfigError(f"filters.{what} must be a list of strings, got {value!r:.60}") from exc
    if not all(isinstance(v, str) for v in items):
        raise ConfigError(f"filters.{what} must be a list of strings, got {value!r:.60}")
    return items


@dataclass(frozen=True)
class Filters:
    """Which items a query may see. ``None`` on a field means "no restriction" (except
    ``principals``: ``None`` means an anonymous caller, who sees public items only)."""

    kinds: frozenset[str] | None = None
    tags: frozenset[str] | None = None
    principals: frozenset[str] | None = field(default=None)
    since: datetime | None = None
    until: datetime | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", _frozen(self.kinds, "kinds"))
        object.__setattr__(self, "tags", _frozen(self.tags, "tags"))
        object.__setattr__(self, "principals", _frozen(self.principals, "principals"))
        if self.kinds is not None:
            allowed = {k.value for k in NodeKind}
            bad = sorted(k for k in self.kinds if k not in allowed)
            if bad:
                raise ConfigError(f"filters.kinds: unknown kind(s) {bad}; use any of {sorted(allowed)}")
        try:
            object.__setattr__(self, "since", parse_timestamp(self.since, "filters.since"))
            object.__setattr__(self, "until", parse_timestamp(self.until, "filters.until"))
        except InvalidItemError as exc:
            raise ConfigError(str(exc)) from exc

    @classmethod
    def everything(cls) -> Filters:
        """No restriction at all (the caller holds ``"*"``)."""
        return cls(principals=frozenset({ALL_PRINCIPALS}))

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
            when = node.last_changed
            if when is None:
                return False
            if self.since is not None and when < self.since:
                return False
            if self.until is not None and when > self.until:
                return False
        return True

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
