"""Keys that tell apart hooks `HookEntry.where` alone does not.

Two hooks of one event, matcher and ``if`` rule that run different commands had one key
(``.claude/settings.json#hooks.PreToolUse[Bash]``) in ``install --json`` and in an
uninstall's report, which could then not say which of them went or stayed. Where an
operation names two such hooks, each key gets `` @<tag>``: the first 8 hex digits of the
SHA-256 of its command, the same every run. Every other key stays as it was, and a note a
record holds under any of a hook's keys (`record_keys`) is found by each of them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace

from skill_retriever.components.install.component_plan import ComponentPlan, FileAction
from skill_retriever.components.install.hook_entry import HookEntry
from skill_retriever.components.install.hook_fields import what_it_runs
from skill_retriever.components.install.layout import SETTINGS_FILE

__all__ = ["command_tag", "hook_key", "hook_path", "kept_keys", "keyed_plans", "record_keys"]


def command_tag(hook: HookEntry) -> str:
    """8 hex digits of the SHA-256 of what ``hook`` runs (its command; a prompt hook's
    prompt: `what_it_runs`): stable across runs and machines."""
    return hashlib.sha256(what_it_runs(hook.hook).encode("utf-8")).hexdigest()[:8]


def hook_key(hook: HookEntry, among: Sequence[HookEntry]) -> str:
    """``hook.where``, with `` @<command tag>`` when a hook of ``among`` has the same
    `where` and runs another command (or prompt, URL, tool)."""
    command = what_it_runs(hook.hook)
    if any(h.where == hook.where and what_it_runs(h.hook) != command for h in among):
        return f"{hook.where} @{command_tag(hook)}"
    return hook.where


def hook_path(hook: HookEntry, among: Sequence[HookEntry]) -> str:
    """``.claude/settings.json#<hook_key>``: the hook as a plan or report names it."""
    return f"{SETTINGS_FILE}#{hook_key(hook, among)}"


def record_keys(hook: HookEntry) -> tuple[str, ...]:
    """Every key a record's note on ``hook`` may be under: its group's (a record of before
    the rule was in the key), its `where`, and that with its command's tag."""
    return tuple(f"{SETTINGS_FILE}#{k}" for k in (hook.group, hook.where, f"{hook.where} @{command_tag(hook)}"))


def kept_keys(f: FileAction) -> tuple[str, ...]:
    """Every key a record's note on ``f``'s file, hook or server may be under."""
    return record_keys(f.hook) if f.hook is not None else (f.path,)


def keyed_plans(plans: Sequence[ComponentPlan]) -> list[ComponentPlan]:
    """``plans`` with each hook's path made unique across the whole plan (`hook_key`): two
    components, or one component, may hold such twins. A hook the plan removes is told
    apart from the others it removes only: a new version that replaces it under its key is
    one update (`plan_lines`), keyed as it was."""
    among = {
        gone: [f.hook for c in plans for f in c.files if f.hook is not None and (f.action == "remove") == gone]
        for gone in (False, True)
    }
    out = []
    for c in plans:
        files = tuple(
            replace(f, path=hook_path(f.hook, among[f.action == "remove"])) if f.hook is not None else f
            for f in c.files
        )
        out.append(replace(c, files=files) if files != c.files else c)
    return out
