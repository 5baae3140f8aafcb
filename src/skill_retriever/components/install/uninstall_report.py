"""What an uninstall did (or, of a dry run, would do), in words (`UninstallReport.lines`)
and as JSON (``to_dict``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.components.install.claude_folder import claude_folder, shown_root
from skill_retriever.components.install.hook_entry import HookEntry
from skill_retriever.components.install.hook_fields import shown_run, what_it_runs
from skill_retriever.components.install.plan_lines import hook_words
from skill_retriever.components.install.record_entry import RecordEntry
from skill_retriever.components.install.your_files import SKILLS_FOLDER

CHANGED = "changed since it was installed"

__all__ = ["CHANGED", "VERBS", "UninstallReport", "said", "verbs", "with_values", "wrote_none"]

#: A hook's key in a report (``.claude/settings.json#hooks.<Event>[<matcher>]``, with
#: `` if <rule>`` for a hook that has an ``if`` rule: `HookEntry.where`; `` @<tag>`` of its
#: command for one that another of the same key would be taken for: `hook_keys`).
_HOOK_KEY = re.compile(
    r"(?P<file>.+?)#hooks\.(?P<event>[^\[\]]+)\[(?P<matcher>.*?)\](?: if (?P<rule>.+?))?(?: @(?P<tag>[0-9a-f]{8}))?"
)

#: The verbs of a line: as the real run says them, and as a dry run does.
VERBS = {
    "along": ("taken back too", "would take back too"),
    "remove": ("removed", "would remove"),
    "restore": ("restored", "would restore"),
    "leave": ("left", "would leave"),
    "keep": ("kept", "would keep"),
    "move": ("moved", "would move"),
}


def verbs(*, dry_run: bool) -> dict[str, str]:
    """`VERBS` as a dry run or the real run says them."""
    return {key: said[1] if dry_run else said[0] for key, said in VERBS.items()}


@dataclass
class UninstallReport:
    """What an uninstall did.

    Attributes:
        along: Names of what installing the named components brought, taken back with
            them (their ids are in ``ids`` too).
        removed: Paths and entries taken out (``.mcp.json#server``,
            ``.claude/settings.json#hooks.<Event>[<matcher>]``, with `` if <rule>``
            for a hook that has an ``if`` rule).
        kept: Path -> why it stayed (changed since the install, or cannot be read).
        gone: Paths and entries already gone (deleted, removed or never written by an
            install that was stopped): forgotten, nothing to take back.
        restored: What ``install --force`` replaced that was put back.
        recorded: Paths kept because they changed, still in the install record.
        left_ids: The ids whose entries stay in the record (what to name to finish: the
            component asked for may be gone from it, and a dependency it brought not).
        forced: What ``force`` removed although the user changed it since the install
            (also in ``removed``).
        shared: Path or entry -> the name of a component that stays and installed it too
            (left in place, now that component's alone).
        moved: Path -> where it went: a command another plugin still installed holds,
            moved out of the folder of a plugin uninstalled into that one's (`shared_moves`).
        unloaded: Of ``moved``, those no plugin still installed loads, moved where
            installing what holds them (a plugin that requires one, or its own name) puts them.
        stayed: Name -> why a member of a plugin being uninstalled stays (an install
            asked for it by its own name), or a member named that a plugin staying loads.
        needed: Name of what was taken back -> the names of components that stay and
            require it (they may not work without it).
        copies: Earlier versions of yours that ``install --force`` replaced (copy ->
            what it is a copy of): left in the backup folder, no longer recorded.
        refused: Of a dry run: why the real uninstall would be refused, changing nothing
            (a folder it cannot write); None when it would run.
        filled: ``.mcp.json#server`` (in ``removed``) -> the placeholder values install
            asked the user to set that the user had set (``env KEY``): the server counted
            as unchanged (`filled_in`), and went with the user's values.
        applied: False for a dry run: what it says is what the real run would do.
        notes: How a name was read (one a plugin shares with its own members takes the
            plugin: `by_name.plugin_note`).
        runs: A hook's key (removed, kept or left shared) -> the hook as it was installed
            (its command), so its line says what it ran rather than its event and matcher,
            or an ``@<tag>`` hash, alone.
        yours: Files left in a folder an install wrote into (a skill's, a plugin's command
            folder, ...: `your_files`) that no install wrote (the user's own, such as
            notes) -> that folder, which stays for them (a skill's without its SKILL.md).
    """

    target: Path
    ids: list[str]
    along: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: dict[str, str] = field(default_factory=dict)
    gone: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    recorded: list[str] = field(default_factory=list)
    left_ids: list[str] = field(default_factory=list)
    forced: list[str] = field(default_factory=list)
    shared: dict[str, str] = field(default_factory=dict)
    moved: dict[str, str] = field(default_factory=dict)
    unloaded: list[str] = field(default_factory=list)
    stayed: dict[str, str] = field(default_factory=dict)
    needed: dict[str, list[str]] = field(default_factory=dict)
    copies: dict[str, str] = field(default_factory=dict)
    refused: str | None = None
    filled: dict[str, list[str]] = field(default_factory=dict)
    applied: bool = True
    notes: list[str] = field(default_factory=list)
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)
    yours: dict[str, str] = field(default_factory=dict)

    def hooks_removed(self, removed: list[tuple[str, HookEntry]]) -> None:
        """Add each removed hook's key to ``removed`` and what it ran to ``runs``."""
        for path, hook in removed:
            self.removed.append(path)
            self.runs[path] = dict(hook.hook)

    def __str__(self) -> str:
        """The report as the CLI prints it (`lines`): ``print(uninstall(...))`` reads as one."""
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        """One line: the target, whether it was applied, ok, and how many of each (``str()``
        and `lines` give every path; `to_dict` the data)."""
        return (
            f"UninstallReport(target={str(self.target)!r}, applied={self.applied}, ok={self.ok}, "
            f"components={len(self.ids)}, removed={len(self.removed)}, restored={len(self.restored)}, "
            f"kept={len(self.kept)}, gone={len(self.gone)})"
        )

    @property
    def ok(self) -> bool:
        """Everything the installs added was taken back (or, of a dry run, would be)."""
        return not self.kept and self.refused is None

    def lines(self, again: str | None = None) -> list[str]:
        """The CLI's report: the target, then `item_lines` indented; what stays recorded
        (the ids to name to finish: ``again``, the command that does, when the caller
        knows how it was invoked), and a dry run's counts."""
        out = [f"target: {shown_root(self.target)}"]
        if self.refused is not None and not self.applied:  # nothing of it could happen: say why, once
            return [*out, *(f"  note: {n}" for n in self.notes), f"  refused: {self.refused}"]
        out += [f"  {line}" for line in self.item_lines("install --force")]
        if self.recorded:
            out.append(
                f"  {'still recorded' if self.applied else 'would stay recorded'}: "
                f"{', '.join(self.recorded)}: undo your change (or delete "
                f"it) and run `{again or 'uninstall ' + ' '.join(self.left_ids)}` to finish, or add --force "
                "to remove it as it is"
            )
        elif self.left_ids:  # kept for another reason (a hook still runs it): the plugin
            # named may be forgotten, its name then refused; the ids left finish it
            out.append(
                f"  {'still recorded' if self.applied else 'would stay recorded'}: "
                f"{', '.join(self.left_ids)}: once you have done what the kept lines above say, "
                f"run `{again or 'uninstall ' + ' '.join(self.left_ids)}` to finish"
            )
        if not self.applied:
            out.append(f"  dry run, nothing changed; would be {self.counts()}")
        return out

    def item_lines(self, force: str) -> list[str]:
        """A line per note, path removed, put back, left or kept, in a dry run's words when
        it is one: what the CLI (`lines`) and the MCP tool's summary both say. ``force``
        names install's force option the way the reader calls it."""
        verb = verbs(dry_run=not self.applied)
        out = [f"note: {n}" for n in self.notes]
        if self.along:
            out.append(f"{verb['along']}, as the install brought them: {', '.join(self.along)}")
        out += [
            f"{verb['remove']} {p}: {CHANGED}, removed as it {'was' if self.applied else 'is'} (force)"
            if p in self.forced
            else f"{verb['remove']} {said(p, 'from', self.runs)}{with_values(self, p)}"
            for p in self.removed
        ]
        out += [f"{verb['restore']} {p}: what {force} replaced" for p in self.restored]
        out += [f"{verb['leave']} {said(p, 'in', self.runs)}: {name} installed it too, and stays"
                for p, name in self.shared.items()]
        out += [f"{verb['keep']} {name}: {why}" for name, why in self.stayed.items()]
        out += [f"{verb['move']} {p} to {to}, where installing what holds it puts it: no plugin still installed "
                "loads it" if p in self.unloaded else
                f"{verb['move']} {p} to {to}, the folder of a plugin still installed that holds it"
                for p, to in self.moved.items()]
        out += [
            f"note: {', '.join(users)} still require{'s' if len(users) == 1 else ''} {name}, "
            f"which {'is' if self.applied else 'would be'} gone; install it again if needed"
            for name, users in self.needed.items()
        ]
        out += [f"{verb['keep']} {said(p, 'in', self.runs)}: {why}" for p, why in self.kept.items()]
        out += [f"{verb['keep']} {p}: your file (no install wrote it), so {folder} stays"
                f"{', without its SKILL.md' if folder.startswith(f'{SKILLS_FOLDER}/') else ''}; "
                "delete it if you no longer need it" for p, folder in self.yours.items()]
        out += [f"{verb['leave']} {c}: an earlier version of your {p} that {force} replaced" for c, p in self.copies.items()]
        if self.gone:
            out.append(f"gone already (nothing to take back): {', '.join(said(p) for p in self.gone)}")
        if self.refused:
            out.append(f"refused: {self.refused}")
        return out

    def counts(self) -> str:
        return f"{len(self.removed)} removed, {len(self.restored)} restored, {len(self.kept)} kept"

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": str(self.target),
            "claude_folder": str(claude_folder(self.target)),  # where .claude/... paths lie
            "ids": list(self.ids),
            "along": list(self.along),
            "ok": self.ok,
            "removed": list(self.removed),
            "removed_changed": list(self.forced),
            "kept": dict(self.kept),
            "gone": list(self.gone),
            "restored": list(self.restored),
            "still_recorded": list(self.recorded),
            "still_recorded_ids": list(self.left_ids),
            "left_shared": dict(self.shared),
            "stayed": dict(self.stayed),
            "moved": dict(self.moved),
            "still_required_by": {k: list(v) for k, v in self.needed.items()},
            "earlier_copies": dict(self.copies),
            "notes": list(self.notes),
            "removed_with_your_values": {k: list(v) for k, v in self.filled.items()},
            "applied": self.applied,
            "refused": self.refused,  # always there (null: not refused), as install's is
            "removed_hooks_run": {p: shown_run(h) for p, h in self.runs.items() if p in self.removed},
            "hooks_run": {p: shown_run(h) for p, h in self.runs.items()},  # kept and left ones too
            "kept_yours": dict(self.yours),
        }


def with_values(report: UninstallReport, path: str) -> str:
    """What a removed line adds for a server that went with values the user set where
    install left placeholders (`UninstallReport.filled`): nothing for any other path."""
    keys = report.filled.get(path)
    if not keys:
        return ""
    return f" (with the value{'s' if len(keys) > 1 else ''} you set for {', '.join(keys)})"


def said(path: str, into: str = "in", runs: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """``path`` as a line says it: a hook's key in words, as install's plan says it
    (``hook Stop in .claude/settings.json``; ``into``: "from" for one removed), and any
    other path as it is. A hook in ``runs`` (what was removed) says what it ran, in one
    shortened line (``runs bash .claude/hooks/check.sh``); its ``@<tag>`` is kept only
    where another hook of ``runs`` under the same key would read the same."""
    key = _HOOK_KEY.fullmatch(path)
    if key is None:
        return path
    rule = {"if": key["rule"]} if key["rule"] else {}
    ran = (runs or {}).get(path)
    if ran is None or not what_it_runs(ran):  # nothing it ran to say: its key alone
        hook = HookEntry(key["event"], key["matcher"] or None, rule)
        return f"{hook_words(hook, tag=key['tag'] or '')} {into} {key['file']}"
    words = _ran_words(key, ran)
    twins = [p for p, h in (runs or {}).items() if p != path and (k := _HOOK_KEY.fullmatch(p)) and _ran_words(k, h) == words]
    return f"{_ran_words(key, ran, key['tag'] or '') if twins else words} {into} {key['file']}"


def _ran_words(key: re.Match[str], ran: Mapping[str, Any], tag: str = "") -> str:
    """A removed hook in words with what it ran (`hook_words`), and ``tag`` when given."""
    hook = HookEntry(key["event"], key["matcher"] or None, {**ran, **({"if": key["rule"]} if key["rule"] else {})})
    return hook_words(hook, command=True, tag=tag)


def wrote_none(entries: list[RecordEntry]) -> list[str]:
    """A note for each of ``entries`` that holds nothing to take back or put back: the
    install found all of it there already (``unchanged``: your own copy) and wrote none of
    it. Taking such a component back changes nothing, and without the note an uninstall of
    it printed its ``target:`` line alone, as if it had done nothing it was asked to."""
    return [
        f"{e.kind.replace('_', ' ')} {e.name}: the install wrote nothing of it (it was there "
        "already), so there is nothing to take back; it stays as it is"
        for e in entries if e.empty and not (e.kept or e.earlier)
    ]
