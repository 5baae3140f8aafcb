"""The types of an install: errors (defined in `errors`), what happens to each file or settings entry, the plan.

A plan is made by `plan_install` and written by `apply_plan`; nothing is written while
planning. A plan holding a CONFLICTS_WITH pair is refused whole (nothing written) unless
conflicts were allowed; so is one in which two components would write one path with
different content (a `Clash`, see `claims`), allowed or not: one of them must be left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from skill_retriever.components.conflicts import Conflict
from skill_retriever.components.install.claude_folder import claude_folder, shown_root
from skill_retriever.components.install.errors import (
    InstallError,
    UnknownComponentError,
    UnsafePathError,
)
from skill_retriever.components.install.hook_entry import HookEntry

__all__ = [
    "SAME_PATH",
    "WRITTEN_STATUSES",
    "Action",
    "Clash",
    "ComponentPlan",
    "FileAction",
    "HookEntry",
    "InstallError",
    "InstallPlan",
    "MissingRequirement",
    "Scope",
    "Status",
    "UnknownComponentError",
    "UnsafePathError",
]

Action = Literal["create", "overwrite", "unchanged", "blocked", "refused", "remove"]
Status = Literal["install", "unchanged", "blocked", "refused", "skipped"]
Scope = Literal["project", "user"]

#: Why a file or server is blocked when another component of the install writes it
#: differently (no ``force`` changes that: one of the two has to be left out).
SAME_PATH = "installs the same path"
#: The statuses of a component whose files reach the target (or are there already).
WRITTEN_STATUSES: tuple[Status, ...] = ("install", "unchanged")
#: The actions that write (or keep) a file when its component is written.
_VERBS: tuple[Action, ...] = ("create", "overwrite", "unchanged", "remove")


@dataclass(frozen=True)
class FileAction:
    """What happens to one file, ``.mcp.json`` server or ``settings.json`` hook.

    Attributes:
        path: Relative to the root, POSIX style; ``.mcp.json#<server>`` for an MCP entry,
            ``.claude/settings.json#hooks.<Event>[<matcher>]`` for a hook.
        action: create, overwrite (differs, ``force``), unchanged (identical), blocked
            (differs, no ``force``), refused (unsafe), remove (an earlier version of the
            component wrote it, this one no longer ships it, and nobody changed it since).
        reason: Why, for blocked and refused.
        mcp_entry: A server's entry as install renders it (and records it).
        mcp_values: The entry ``.mcp.json`` holds instead, when the user filled in values
            install left as placeholders (`server_action`); None: ``mcp_entry`` itself.
    """

    path: str
    action: Action
    reason: str = ""
    content: bytes = field(default=b"", repr=False, compare=False)
    mode: int = field(default=0o644, repr=False, compare=False)
    mcp_entry: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    mcp_values: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    hook: HookEntry | None = field(default=None, repr=False, compare=False)

    def to_dict(self, status: Status = "install") -> dict[str, str]:
        """The file as data; ``status``: its component's. A file of a component that is
        not written (blocked, refused, skipped) is "not written" whatever was planned for
        it, as `InstallPlan.lines` says it: nothing of that component reaches the target."""
        if status not in WRITTEN_STATUSES and self.action in _VERBS:
            return {"path": self.path, "action": "not written", "reason": f"its component is {status}"}
        out = {"path": self.path, "action": self.action}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class Clash:
    """Two components of one install that would write one path (a file, or an
    ``.mcp.json`` server) with different content: ``first`` claims it first.
    ``second_path``: the second's spelling of it, when it differs only in case (one file
    on macOS and Windows); empty when it is ``path`` itself."""

    path: str
    first: str
    second: str
    second_path: str = ""


@dataclass(frozen=True)
class MissingRequirement:
    """A component that a written one requires (directly, or through ``via``) and that
    will not be in the target: refused or skipped in this plan, or left out of it
    (``status`` "left out": no dependencies added) and not in the target; or one the
    caller's index does not show, which the target may hold ("installed in the target").
    ``note`` says so in a line (`install.missing`)."""

    id: str
    name: str
    status: str
    reason: str = ""
    via: tuple[str, ...] = ()
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "status": self.status}
        if self.reason:
            out["reason"] = self.reason
        if self.via:
            out["via"] = list(self.via)
        return out | {"note": self.note}


@dataclass(frozen=True)
class ComponentPlan:
    """One component's files and its overall status.

    ``status`` is install (something to write), unchanged, blocked (a differing file and
    no ``force``: nothing written), refused (an unsafe path: nothing written) or skipped
    (a kind, or a hook, that this install cannot place). ``missing``: what it requires
    that will not be in the target (for one written: install or unchanged). ``via``: the
    steps from its first requirer to it, when a required plugin is one (`closure`).
    """

    id: str
    kind: str
    name: str
    status: Status
    files: tuple[FileAction, ...] = ()
    reason: str = ""
    required_by: tuple[str, ...] = ()
    missing: tuple[MissingRequirement, ...] = ()
    via: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "status": self.status,
            "files": [f.to_dict(self.status) for f in self.files],
        }
        if self.reason:
            out["reason"] = self.reason
        if self.required_by:
            out["required_by"] = list(self.required_by)
            out |= {"via": list(self.via)} if self.via else {}
        if self.missing:
            out["missing_requirements"] = [m.to_dict() for m in self.missing]
        return out


@dataclass(frozen=True)
class InstallPlan:
    """What an install does (``applied`` False: a plan, a dry run, or refused).

    Attributes:
        target: The root written into (a project; for a user install the home folder, or
            ``$CLAUDE_CONFIG_DIR``, where ``.claude/`` stands for it: `claude_folder`).
        conflicts: CONFLICTS_WITH pairs within the set and against what the root holds.
        allow_conflicts: Install despite them (else nothing is written).
        plugins: Plugin id -> the member ids it brought.
        names: Id -> name of every component the plan mentions (conflict sides too).
        requires: Id of each component -> the visible ids it requires directly.
        refused: Why installing it for real would write nothing (a folder it could not
            write or make), found by a dry run, so the user learns it before that run.
        clashes: Paths two components of the set would write with different content;
            any refuses the plan whole, ``allow_conflicts`` or not.
        named: The ids asked for by their own id or name (not only as a plugin's member).
        notes: What a name given chose among several of it (`resolve`), one line each.
    """

    target: Path
    components: tuple[ComponentPlan, ...]
    cycles: tuple[tuple[str, ...], ...] = ()
    applied: bool = False
    conflicts: tuple[Conflict, ...] = ()
    allow_conflicts: bool = False
    plugins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    scope: Scope = "project"
    requires: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    refused: str = ""
    clashes: tuple[Clash, ...] = ()
    named: frozenset[str] = frozenset()
    notes: tuple[str, ...] = ()

    @property
    def refused_for_conflicts(self) -> bool:
        """The set holds conflicts and they were not allowed: nothing is written."""
        return bool(self.conflicts) and not self.allow_conflicts

    @property
    def refused_whole(self) -> bool:
        """Conflicts not allowed, or clashes: nothing is written, not even the folder."""
        return self.refused_for_conflicts or bool(self.clashes)

    @property
    def ok(self) -> bool:
        """Nothing blocked or refused, nothing asked for by name skipped (an MCP server
        in user scope: the install did not do what was asked), no conflict unless
        allowed, no clash, and the target writable."""
        files_ok = all(
            c.status not in ("blocked", "refused") and not (c.status == "skipped" and c.id in self.named)
            for c in self.components
        )
        return files_ok and not self.refused_whole and not self.refused

    def written(self) -> list[str]:
        """Paths (and entries) created or overwritten (once applied)."""
        return self._applied(("create", "overwrite"))

    def removed(self) -> list[str]:
        """Paths (and entries) an earlier version of a component installed and its new
        version no longer has, taken out (once applied)."""
        return self._applied(("remove",))

    def _applied(self, actions: tuple[Action, ...]) -> list[str]:
        if not self.applied:
            return []
        return [
            f.path
            for c in self.components
            if c.status == "install"
            for f in c.files
            if f.action in actions
        ]

    def _name(self, node_id: str) -> str:
        return self.names.get(node_id, node_id)

    def conflict_lines(self) -> list[str]:
        """One line per conflict: both sides, where the installed one sits, the reason."""
        out = []
        for c in self.conflicts:
            a, b = (
                f"{self._name(i)} ({i})" + (f" (installed at {c.installed})" if i == c.installed_id else "")
                for i in (c.source, c.target)
            )
            out.append(f"conflict: {a} vs {b}" + (f": {c.reason}" if c.reason else ""))
        return out

    def clash_lines(self) -> list[str]:
        """One line per clash: both components and the path (both spellings of it)."""
        return [
            f"clash: {self._name(c.first)} ({c.first}) and {self._name(c.second)} ({c.second}) "
            + (
                f"would write {c.path} and {c.second_path}, one file on macOS and Windows "
                "(the names differ only in case)"
                if c.second_path
                else f"would both write {c.path}"
            )
            + ", with different content"
            for c in self.clashes
        ]

    def lines(self) -> list[str]:
        """One line per file, for people: what was (or would be) written and why not."""
        would = "" if self.applied else "would "
        verbs = {
            "create": f"{would}create",
            "overwrite": f"{would}overwrite",
            "unchanged": "unchanged",
            "remove": f"{would}remove",
        }
        head = "" if self.applied else "  (dry run: nothing written)"
        if self.applied and not self.ok and self.nothing_written:  # each component refused or kept
            head = "  (nothing written)"
        refusals = ["conflicts"] if self.refused_for_conflicts else []
        refusals += ["two components would write one path"] if self.clashes else []
        if refusals:
            head = f"  (refused: {' and '.join(refusals)}; nothing written)"
        out = [f"target: {shown_root(self.target)}{head}", *(f"note: {n}" for n in self.notes)]
        for plugin, members in self.plugins.items():
            out.append(f"plugin {self._name(plugin)}  {plugin}: {len(members)} component(s)")
        for c in self.components:
            needed = [self._name(i) for i in c.required_by]
            if needed and c.via:  # the first one requires it through a plugin
                needed[0] += f" via {' -> '.join(self._name(i) for i in c.via)}"
            via = f" (required by {', '.join(needed)})" if needed else ""
            # A component its files block or refuse: the file lines say why, and its notes
            # follow them, so that a note never reads as the reason ("refused - its env ...
            # still holds a placeholder", when .mcp.json could not be read).
            by_files = any(f.action in ("blocked", "refused") for f in c.files)
            why = f" - {c.reason}" if c.reason and not by_files else ""
            out.append(f"[{c.kind}] {c.name}  {c.id}{via}: {c.status}{why}")
            out += [f"  note: {m.note}" for m in c.missing]
            for f in c.files:
                why = f": {f.reason}" if f.reason else ""
                if f.action in verbs and c.status in WRITTEN_STATUSES:
                    out.append(f"  {verbs[f.action]} {f.path}{why}")  # why: a copy written once
                elif f.action == "blocked":
                    out.append(f"  {'clash' if SAME_PATH in f.reason else 'kept'} {f.path}{why}")
                elif f.action == "refused":
                    out.append(f"  refused {f.path}: {f.reason}")
                else:
                    out.append(f"  not written {f.path} ({c.status})")
            if c.reason and by_files:
                out.append(f"  note: {c.reason}")
        out += [f"dependency cycle: {' -> '.join(cycle)}" for cycle in self.cycles]
        out += self.conflict_lines()
        out += self.clash_lines()
        if self.refused:
            out.append(f"refused: {self.refused}")
        if self.refused_for_conflicts:
            out.append(
                f"nothing written: the set holds {len(self.conflicts)} conflict(s); drop one "
                "side of each, or allow conflicts (--allow-conflicts, allow_conflicts=true)"
            )
        if self.clashes:
            out.append(
                f"nothing written: {len(self.clashes)} clash(es), two components writing one "
                "path with different content; leave one of each pair out, or install them "
                "into separate targets"
            )
        return out

    @property
    def nothing_written(self) -> bool:
        """No file or entry created, overwritten or removed: a dry run, a plan refused
        whole, or one applied whose every component was unchanged or not written."""
        return not (self.written() or self.removed())

    def to_dict(self) -> dict[str, Any]:
        """The plan as data. ``applied``: the install ran for real (no dry run, not refused
        whole), which alone does not say that it wrote anything: ``nothing_written`` does."""
        return {
            "target": str(self.target),
            "claude_folder": str(claude_folder(self.target)),  # where .claude/... paths lie
            "scope": self.scope,
            "applied": self.applied,
            "nothing_written": self.nothing_written,
            "ok": self.ok,
            "components": [c.to_dict() for c in self.components],
            "written": self.written(),
            "removed": self.removed(),
            "cycles": [list(c) for c in self.cycles],
            "conflicts": [self.conflict_dict(c) for c in self.conflicts],
            "plugins": {k: list(v) for k, v in self.plugins.items()},
            "refused": self.refused or None,
            "clashes": [self.clash_dict(c) for c in self.clashes],
            "notes": list(self.notes),
        }

    def brief(self) -> dict[str, Any]:
        """The short answer's body (MCP ``detail="brief"``): conflicts and clashes as data
        (when there are any) and the summary lines, which leave theirs out (said once)."""
        out: dict[str, Any] = {"nothing_written": self.nothing_written}
        if self.conflicts:
            out["conflicts"] = [self.conflict_dict(c) for c in self.conflicts]
        if self.clashes:
            out["clashes"] = [self.clash_dict(c) for c in self.clashes]
        said = ("conflict: ", "clash: ")
        out["summary"] = [line for line in self.lines() if not line.startswith(said)]
        return out

    def clash_dict(self, c: Clash) -> dict[str, Any]:
        out = {
            "path": c.path,
            "first": c.first,
            "first_name": self._name(c.first),
            "second": c.second,
            "second_name": self._name(c.second),
        }
        return out | ({"second_path": c.second_path} if c.second_path else {})

    def conflict_dict(self, c: Conflict) -> dict[str, Any]:
        return {
            "source": c.source,
            "source_name": self._name(c.source),
            "target": c.target,
            "target_name": self._name(c.target),
            "reason": c.reason,
            "installed": c.installed,
        }
