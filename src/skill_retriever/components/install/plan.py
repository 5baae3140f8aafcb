"""The types of an install: errors (defined in `errors`), what happens to each file or
settings entry and component (`component_plan`), the plan.

A plan is made by `plan_install` and written by `apply_plan`; nothing is written while
planning. A plan holding a CONFLICTS_WITH pair is refused whole (nothing written) unless
conflicts were allowed; so is one in which two components would write one path with
different content (a `Clash`, see `claims`), allowed or not: one of them must be left out.
``str(plan)`` is its lines as the CLI prints them (`plan_lines` words each component's).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from skill_retriever.components.conflicts import Conflict
from skill_retriever.components.install.claude_folder import claude_folder, shown_root
from skill_retriever.components.install.component_plan import (
    SAME_PATH,
    WRITTEN_STATUSES,
    Action,
    Clash,
    ComponentPlan,
    FileAction,
    MissingRequirement,
    Scope,
    Status,
)
from skill_retriever.components.install.conflict_reasons import ConflictWhy
from skill_retriever.components.install.credential_files import held_dict, held_lines
from skill_retriever.components.install.errors import (
    InstallError,
    UnknownComponentError,
    UnsafePathError,
)
from skill_retriever.components.install.hook_entry import HookEntry
from skill_retriever.components.install.plan_lines import (
    TARGET_REFUSED,
    component_lines,
    refused_lines,
)
from skill_retriever.components.install.with_outer import covered

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


@dataclass(frozen=True, repr=False)
class InstallPlan:
    """What an install does (``applied`` False: a plan, a dry run, or refused).

    Attributes:
        target: The root written into (a project; for a user install the home folder, or
            ``$CLAUDE_CONFIG_DIR``, where ``.claude/`` stands for it: `claude_folder`).
        conflicts: CONFLICTS_WITH pairs within the set and against what the root holds.
        allow_conflicts: Install despite them (else nothing is written).
        plugins: Plugin id -> the member ids it brought.
        marketplaces: Plugin id -> the marketplace its entry is in, where the index
            records one (for the install record: `picked` takes ``<plugin>@<marketplace>``).
        names: Id -> name of every component the plan mentions (conflict sides too).
        requires: Id of each component -> the visible ids it requires directly.
        refused: Why installing it for real would write nothing (a folder it could not
            write or make), found by a dry run, so the user learns it before that run (a
            real run raises `TargetRefusedError`, this plan on it). It refuses the plan
            whole: its lines then list no file as if it would be written (`refused_lines`).
        clashes: Paths two components of the set would write with different content;
            any refuses the plan whole, ``allow_conflicts`` or not.
        named: The ids asked for by their own id or name (not only as a plugin's member).
        notes: What a name given chose among several of it (`resolve`), one line each.
        declares: Id of each component -> the names it declares in its own ``conflicts``
            (`declared_conflicts`), for the install record; no answer shows them.
        dependency_paths: Id of each command several plugins load -> where it goes as none
            of theirs (`shared_commands`), for the install record; no answer shows them.
        held_how: The command that installs the files held back from an agent's install
            (`credential_files`), '' when none is.
        conflict_whys: One per conflict, in order: who declares it, where, and the
            command that gets past it (`conflict_reasons`); none for a plan made without.
    """

    target: Path
    components: tuple[ComponentPlan, ...]
    cycles: tuple[tuple[str, ...], ...] = ()
    applied: bool = False
    conflicts: tuple[Conflict, ...] = ()
    allow_conflicts: bool = False
    plugins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    marketplaces: Mapping[str, str] = field(default_factory=dict)
    scope: Scope = "project"
    requires: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    refused: str = ""
    clashes: tuple[Clash, ...] = ()
    named: frozenset[str] = frozenset()
    notes: tuple[str, ...] = ()
    declares: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    dependency_paths: Mapping[str, str] = field(default_factory=dict)
    held_how: str = ""
    conflict_whys: tuple[ConflictWhy, ...] = ()

    @property
    def refused_for_conflicts(self) -> bool:
        """The set holds conflicts and they were not allowed: nothing is written."""
        return bool(self.conflicts) and not self.allow_conflicts

    @property
    def refused_whole(self) -> bool:
        """Conflicts not allowed, clashes, or a target that cannot be written (``refused``):
        nothing is written, not even the folder."""
        return self.refused_for_conflicts or bool(self.clashes) or bool(self.refused)

    @property
    def ok(self) -> bool:
        """Nothing blocked or refused, nothing asked for by name skipped (an MCP server
        in user scope: the install did not do what was asked; a nested skill written as
        its outer skill's file is there: `with_outer`), no conflict unless
        allowed, no clash, and the target writable."""
        files_ok = all(
            c.status not in ("blocked", "refused")
            and not (c.status == "skipped" and c.id in self.named and not covered(c, self.components))
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
        """One line per conflict: both sides, where the installed one sits, the reason,
        who declares it and where, and what to run to get past it (`conflict_reasons`)."""
        out = []
        for n, c in enumerate(self.conflicts):
            a, b = (
                f"{self._name(i)} ({i})" + (f" (installed at {c.installed})" if i == c.installed_id else "")
                for i in (c.source, c.target)
            )
            why = [c.reason.strip().rstrip(";")] if c.reason.strip() else []
            more = self._why(n).words(self.names)
            why += [more] if more else []
            out.append(f"conflict: {a} vs {b}" + (f": {'; '.join(why)}" if why else ""))
        return out

    def _why(self, n: int) -> ConflictWhy:
        return self.conflict_whys[n] if n < len(self.conflict_whys) else ConflictWhy()

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
            out += refused_lines(c, self._name) if self.refused else component_lines(c, self._name, self.applied)
        out += [f"dependency cycle: {' -> '.join(cycle)}" for cycle in self.cycles]
        out += self.conflict_lines()
        out += self.clash_lines()
        if self.refused:
            out.append(f"refused: {self.refused}")
        out += held_lines(self.components, self.held_how)
        out += [f"nothing written: {why}" for why in self._refused_for()]
        return out

    def _refused_for(self) -> list[str]:
        """Why the set is refused whole, and the way on: its conflicts, its clashes."""
        out = []
        if self.refused_for_conflicts:
            out.append(
                f"the set holds {len(self.conflicts)} conflict(s); drop one side of each, "
                "or allow conflicts (--allow-conflicts, allow_conflicts=true)"
            )
        if self.clashes:
            out.append(
                f"{len(self.clashes)} clash(es), two components writing one path with "
                "different content; leave one of each pair out, or install them into "
                "separate targets"
            )
        return out

    def __str__(self) -> str:
        """The plan as the CLI prints it (`lines`): ``print(install(...))`` reads as a plan."""
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        """One line: the target, whether it was written, ok, and how many components have
        each status (``str()`` and `lines` give every file; `to_dict` the data)."""
        counts = Counter(c.status for c in self.components)
        statuses = ", ".join(f"{n} {status}" for status, n in counts.items()) or "none"
        return (
            f"InstallPlan(target={str(self.target)!r}, applied={self.applied}, ok={self.ok}, "
            f"components: {statuses}, written={len(self.written())}, removed={len(self.removed())})"
        )

    @property
    def nothing_written(self) -> bool:
        """No file or entry created, overwritten or removed: a dry run, a plan refused
        whole, or one applied whose every component was unchanged or not written."""
        return not (self.written() or self.removed())

    def to_dict(self) -> dict[str, Any]:
        """The plan as data. ``applied``: the install ran for real (no dry run, not refused
        whole), which alone does not say that it wrote anything: ``nothing_written`` does.
        ``refused``: why the plan is refused whole (a target that cannot be written, else
        its conflicts or clashes, with the way on, as the lines' last say), or None."""
        return {
            "target": str(self.target),
            "claude_folder": str(claude_folder(self.target)),  # where .claude/... paths lie
            "scope": self.scope,
            "applied": self.applied,
            "nothing_written": self.nothing_written,
            "ok": self.ok,
            "components": [c.to_dict() for c in self.shown_components()],
            "written": self.written(),
            "removed": self.removed(),
            "cycles": [list(c) for c in self.cycles],
            "conflicts": [self.conflict_dict(c) for c in self.conflicts],
            "plugins": {k: list(v) for k, v in self.plugins.items()},
            "refused": self.refused or "; ".join(self._refused_for()) or None,
            "clashes": [self.clash_dict(c) for c in self.clashes],
            "notes": list(self.notes),
        } | held_dict(self.components, self.held_how)

    def shown_components(self) -> tuple[ComponentPlan, ...]:
        """The components as data says them: in a plan the target refuses (``refused``),
        one that would write is "refused" too, its files "not written", so that no
        answer lists as happening what cannot."""
        if not self.refused:
            return self.components
        why = f"{TARGET_REFUSED} (see refused)"
        return tuple(
            replace(c, status="refused", reason=why) if c.status == "install" else c for c in self.components
        )

    def brief(self) -> dict[str, Any]:
        """The short answer's body (MCP ``detail="brief"``): conflicts and clashes as data
        (when there are any) and the summary lines, which leave theirs out (said once)."""
        out: dict[str, Any] = {"nothing_written": self.nothing_written}
        if self.conflicts:
            out["conflicts"] = [self.conflict_dict(c) for c in self.conflicts]
        if self.clashes:
            out["clashes"] = [self.clash_dict(c) for c in self.clashes]
        out |= held_dict(self.components, self.held_how)
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
        n = self.conflicts.index(c) if c in self.conflicts else len(self.conflict_whys)
        return {
            "source": c.source,
            "source_name": self._name(c.source),
            "target": c.target,
            "target_name": self._name(c.target),
            "reason": c.reason,
            "installed": c.installed,
        } | self._why(n).to_dict()
