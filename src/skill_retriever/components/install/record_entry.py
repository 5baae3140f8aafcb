"""One component's entry in the install record (`inventory` re-exports it): what installing
it added to a root, and what an uninstall kept of it and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skill_retriever.components.install.layout import LAYOUT, MCP_FILE
from skill_retriever.components.install.plan import HookEntry
from skill_retriever.components.install.record_projects import entry_parts, joined, split
from skill_retriever.model import NodeKind

__all__ = ["RecordEntry"]


@dataclass
class RecordEntry:
    """What installing one component added to a root."""

    kind: str
    name: str
    files: dict[str, str] = field(default_factory=dict)  # path -> sha256 of what was written
    hooks: list[HookEntry] = field(default_factory=list)
    mcp: dict[str, dict[str, Any]] = field(default_factory=dict)  # server -> entry written
    #: path -> SHA-256 of the user's file ``force`` replaced (kept at `backup_path`)
    replaced_files: dict[str, str] = field(default_factory=dict)
    #: server -> the user's entry ``force`` replaced
    replaced_servers: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: path (``.mcp.json#<server>`` for a server) -> why an uninstall kept it
    kept: dict[str, str] = field(default_factory=dict)
    #: copy -> what it is a copy of (a path, ``.mcp.json#<server>``): an earlier version of
    #: the user's own that ``force`` replaced, kept on disk when a later one was replaced
    #: (`replaced`); uninstall puts back the latest, these stay
    earlier: dict[str, str] = field(default_factory=dict)
    #: an install named it (on the command line, or as a member of a plugin)
    asked: bool = False
    #: an install named it by its own id or name (uninstalling a plugin leaves it)
    named: bool = False
    #: the ids it requires directly (when installed)
    requires: list[str] = field(default_factory=list)
    #: the dependencies installing it newly added (uninstalled with it, unless needed)
    brought: list[str] = field(default_factory=list)
    #: the names it declares in its own ``conflicts`` (`declared_conflicts`): a hook's or
    #: a server's entry keeps none, so `unseen` reads them here for a caller who may not see it
    conflicts: list[str] = field(default_factory=list)
    #: a command several plugins load: where it goes installed as no loading plugin's member
    #: (where the index files it, `shared_commands`); an uninstall that leaves it with none
    #: of those plugins moves it there (`shared_moves`), and needs no index to know it
    dependency_path: str = ""
    #: another project sharing this ``.claude`` -> its servers, replaced servers and kept
    #: server entries there, as JSON (`record_projects`): carried along, written back as read
    elsewhere: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        """Nothing of it is left to take back or put back, here or in another project."""
        return not (self.here or self.elsewhere)

    @property
    def here(self) -> bool:
        """Something of it is left to take back or put back in the project that loaded it."""
        return bool(self.files or self.hooks or self.mcp or self.replaced_files or self.replaced_servers)

    @property
    def first_path(self) -> str:
        if self.files:
            return next(iter(self.files))
        if self.mcp:
            return f"{MCP_FILE}#{next(iter(self.mcp))}"
        return LAYOUT[NodeKind(self.kind)].pattern.split("{", 1)[0]

    def to_json(self, project: str | None = None) -> dict[str, Any]:
        """As JSON, its servers marked as ``project``'s (`record_projects`)."""
        parts = entry_parts({"mcp_servers": self.mcp, "replaced_servers": self.replaced_servers, "kept": self.kept})
        return {
            "kind": self.kind,
            "name": self.name,
            "files": dict(self.files),
            "hooks": [h.to_dict() for h in self.hooks],
            "mcp_servers": dict(self.mcp),
            **({"replaced_files": dict(self.replaced_files)} if self.replaced_files else {}),
            **({"replaced_servers": dict(self.replaced_servers)} if self.replaced_servers else {}),
            **({"earlier_copies": dict(self.earlier)} if self.earlier else {}),
            **({"kept": dict(self.kept)} if self.kept else {}),
            **({"asked": True} if self.asked else {}),
            **({"named": True} if self.named else {}),
            **({"requires": list(self.requires)} if self.requires else {}),
            **({"brought": list(self.brought)} if self.brought else {}),
            **({"conflicts": list(self.conflicts)} if self.conflicts else {}),
            **({"dependency_path": self.dependency_path} if self.dependency_path else {}),
            **joined(parts, self.elsewhere, project),
        }

    @classmethod
    def from_json(cls, data: Any, project: str | None = None) -> RecordEntry:
        """An entry as read by the project ``project`` (None: the top level is its own)."""
        if not isinstance(data, dict) or data.get("kind") not in {k.value for k in LAYOUT}:
            raise ValueError("an entry needs a component kind")
        parts, elsewhere = split(data, entry_parts(data), project)
        kept = {k: v for k, v in (data.get("kept") or {}).items() if k not in entry_parts(data)["kept"]}
        data = {**data, "mcp_servers": parts["mcp_servers"], "replaced_servers": parts["replaced_servers"],
                "kept": {**kept, **parts["kept"]}}
        hooks = [
            HookEntry(str(h["event"]), h.get("matcher"), dict(h["hook"]))
            for h in data.get("hooks") or []
        ]
        return cls(
            str(data["kind"]),
            str(data.get("name") or ""),
            {str(k): str(v) for k, v in (data.get("files") or {}).items()},
            hooks,
            {str(k): dict(v) for k, v in (data.get("mcp_servers") or {}).items()},
            {str(k): str(v) for k, v in (data.get("replaced_files") or {}).items()},
            {str(k): dict(v) for k, v in (data.get("replaced_servers") or {}).items()},
            {str(k): str(v) for k, v in (data.get("kept") or {}).items()},
            {str(k): str(v) for k, v in (data.get("earlier_copies") or {}).items()},
            asked=data.get("asked") is True,
            named=data.get("named") is True,
            requires=[str(i) for i in data.get("requires") or []],
            brought=[str(i) for i in data.get("brought") or []],
            conflicts=_names(data.get("conflicts")),
            dependency_path=_path(data.get("dependency_path")),
            elsewhere=elsewhere,
        )


def _names(value: Any) -> list[str]:
    """A record's list of names (none when it lacks the key: an older record).

    Raises:
        ValueError: It is there and no list of names.
    """
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise ValueError("'conflicts' must be a list of names")
    return list(value)


def _path(value: Any) -> str:
    """A record's path ('' when it lacks the key: an older record).

    Raises:
        TypeError: It is there and no text.
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TypeError("'dependency_path' must be a path")
    return value
