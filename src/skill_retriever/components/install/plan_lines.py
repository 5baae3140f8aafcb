"""A component's lines in a plan, as a person reads them (`InstallPlan.lines` joins them).

The header names the component, its status, the skill whose folder holds it (a SKILL.md
nested in another's) and who requires it: the components of the plan that need it directly (``required by deploy-helper``), not the one asked for several
steps up, which told the reader nothing about why it is there. Each file gets a line; a
``settings.json`` hook is said in words (``add hook PreToolUse (tools matching Bash) to
.claude/settings.json``), not as the ``#hooks.PreToolUse[Bash]`` key its data carries,
and says when it joins a group the file holds already (Claude Code runs every hook of a
group). A new version of a hook that replaces the earlier one under the same event and
matcher is one ``update`` line, not a ``create`` and a ``remove`` of what reads as one key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from skill_retriever.components.install.component_plan import (
    SAME_PATH,
    WRITTEN_STATUSES,
    ComponentPlan,
    FileAction,
)
from skill_retriever.components.install.credential_files import lines_said
from skill_retriever.components.install.hook_entry import HookEntry
from skill_retriever.components.install.hook_fields import shown_run

__all__ = ["TARGET_REFUSED", "component_lines", "hook_words", "refused_lines"]

#: The events whose matcher is matched against a tool's name (Claude Code's hooks reference).
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"})
_NAMED = 5  # requirers named on the header; more are counted
_RUNS_SHOWN = 60  # characters of a hook's command said to tell it from its twin
#: Why a component that would write is not written when the target refuses the install.
TARGET_REFUSED = "not written: the target cannot be written"


def hook_words(hook: HookEntry, command: bool = False, tag: str = "") -> str:
    """``hook Stop``, ``hook PreToolUse (every tool)``, ``hook PreToolUse (tools matching
    Bash)``, ``hook SessionStart (matcher startup)``; with the hook's ``if`` rule where it
    has one (``hook PreToolUse (tools matching Bash, if Bash(git push *-f*))``): two hooks
    of one group told apart by that alone were said in the same words twice. ``command``
    adds what it runs (``runs bash .claude/hooks/start.sh``), for hooks of one component
    that even the rule does not tell apart; ``tag`` the ``@<tag>`` of such a hook's key
    (`hook_keys`), where a report knows it and not the command (``command @1a2b3c4d``)."""
    matcher = hook.matcher or ""
    if hook.event in TOOL_EVENTS:
        scope = "every tool" if matcher in ("", "*") else f"tools matching {matcher}"
    else:  # a matcher there picks a source or a kind (startup, manual), not a tool
        scope = f"matcher {matcher}" if matcher else ""
    if rule := hook.rule:
        scope = f"{scope}, if {rule}" if scope else f"if {rule}"
    if tag:
        scope = f"{scope}, command @{tag}" if scope else f"command @{tag}"
    if command:
        runs = " ".join(shown_run(hook.hook).split())
        runs = runs if len(runs) <= _RUNS_SHOWN else runs[: _RUNS_SHOWN - 3] + "..."
        kind = hook.hook.get("type")
        runs = f"runs {runs}" if kind == "command" else f"{kind} {runs}"  # agent You are a guard...
        scope = f"{scope}, {runs}" if scope else runs
    return f"hook {hook.event}" + (f" ({scope})" if scope else "")


def _group(hook: HookEntry) -> str:
    return f"the existing {hook.event} group" + (f" for {hook.matcher}" if hook.matcher else "")


def _required_by(c: ComponentPlan, name: Callable[[str], str]) -> str:
    """`` (required by a, b via kit)``: its direct requirers (else, for a plan made
    without them, the components asked for, the first with its chain), or ''; first,
    ``part of skill game-development`` for a skill nested in another's folder (`owning_skill`)."""
    part = [f"part of skill {c.part_of[1]}"] if c.part_of else []
    if c.requirers:
        parts = [name(i) + (f" via {name(p)}" if p else "") for i, p in c.requirers]
    else:
        parts = [name(i) for i in c.required_by]
        if parts and c.via:  # the first one requires it through a plugin
            parts[0] += f" via {' -> '.join(name(i) for i in c.via)}"
    if len(parts) > _NAMED:
        parts = [*parts[:_NAMED], f"{len(parts) - _NAMED} more"]
    said = [*part, *([f"required by {', '.join(parts)}"] if parts else [])]
    return f" ({'; '.join(said)})" if said else ""


def _updates(files: Sequence[FileAction]) -> dict[int, int]:
    """Index of a hook added -> index of the hook of the same event and matcher that the
    same plan removes (an earlier version's): said as one update."""
    removed = [i for i, f in enumerate(files) if f.hook is not None and f.action == "remove"]
    out: dict[int, int] = {}
    for i, f in enumerate(files):
        if f.hook is None or f.action != "create":
            continue
        twin = next((r for r in removed if r not in out.values() and _key(files[r]) == _key(f)), None)
        if twin is not None:
            out[i] = twin
    return out


def _key(f: FileAction) -> tuple[str, str]:
    assert f.hook is not None
    return f.hook.event, f.hook.matcher or ""


def _file_line(c: ComponentPlan, f: FileAction, would: str, update: bool, twins: set[str]) -> str:
    why = f": {f.reason}" if f.reason else ""
    written = c.status in WRITTEN_STATUSES
    if f.hook is not None:
        where = f.path.split("#", 1)[0]
        what = hook_words(f.hook, command=hook_words(f.hook) in twins)
        if f.action in ("blocked", "refused"):
            return f"  {'kept' if f.action == 'blocked' else 'refused'} {what} in {where}{why}"
        if not written:
            return f"  not written {what} in {where} ({c.status})"
        if update:
            return f"  {would}update {what} in {where}: the new version replaces the earlier one"
        if f.action == "create":
            joins = f", in {_group(f.hook)}" if f.in_group else ""
            return f"  {would}add {what} to {where}{joins}{why}"
        if f.action == "remove":
            return f"  {would}remove {what} from {where}{why}"
        if f.action == "overwrite":  # the user's changed copy, which force replaces
            return f"  {would}replace {what} in {where}{why}"
        return f"  {f.action} {what} in {where}{why}"  # unchanged
    verbs = {"create": "create", "overwrite": "overwrite", "remove": "remove"}
    if f.action == "unchanged" and written:
        return f"  unchanged {f.path}{why}"
    if f.action in verbs and written:
        return f"  {would}{verbs[f.action]} {f.path}{why}"  # why: a copy written once
    if f.action == "blocked":
        return f"  {'clash' if SAME_PATH in f.reason else 'kept'} {f.path}{why}"
    if f.action == "refused":
        return f"  refused {f.path}: {f.reason}"
    if f.action == "held":
        return f"  held back {f.path}: {f.reason}"
    return f"  not written {f.path} ({c.status})"


def _warning(f: FileAction) -> list[str]:
    """The warning under a file to be written (or there) that holds what looks like a
    credential: where, of what kind (`credential_files`), never the secret."""
    if not f.secrets or f.action == "held":
        return []
    holds, check = f.warning.split("; ", 1)
    return [f"    warning: {holds} ({lines_said(f.secrets)}); {check}"]


def component_lines(c: ComponentPlan, name: Callable[[str], str], applied: bool) -> list[str]:
    """``c``'s header, its notes and one line per file (``name``: an id's name)."""
    would = "" if applied else "would "
    # A component its files block or refuse: the file lines say why, and its notes
    # follow them, so that a note never reads as the reason ("refused - its env ...
    # still holds a placeholder", when .mcp.json could not be read).
    by_files = any(f.action in ("blocked", "refused") for f in c.files)
    why = f" - {c.reason}" if c.reason and not by_files else ""
    out = [f"[{c.kind}] {c.name}  {c.id}{_required_by(c, name)}: {c.status}{why}"]
    out += [f"  note: {m.note}" for m in c.missing]
    updates = _updates(c.files) if c.status in WRITTEN_STATUSES else {}
    merged = set(updates.values())
    said = Counter(hook_words(f.hook) for i, f in enumerate(c.files) if f.hook is not None and i not in merged)
    twins = {words for words, n in said.items() if n > 1}  # two lines alike: say what each runs
    out += [
        line
        for i, f in enumerate(c.files)
        if i not in merged
        for line in (_file_line(c, f, would, i in updates, twins), *_warning(f))
    ]
    if c.reason and by_files:
        out.append(f"  note: {c.reason}")
    return out


def refused_lines(c: ComponentPlan, name: Callable[[str], str]) -> list[str]:
    """``c``'s line in a plan the target refuses (one it cannot write): the refusal is said
    once, below, so a component that would write says only what it would have done, never
    its files as if they were written; the others (unchanged, blocked...) read as always."""
    if c.status != "install":
        return component_lines(c, name, applied=False)
    return [f"[{c.kind}] {c.name}  {c.id}{_required_by(c, name)}: would have been installed if the target could be written"]
