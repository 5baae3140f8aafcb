"""Files an install copies that hold what looks like a credential: named, or held back.

The index keeps a skill's (agent's, command's) text redacted (`ingest.prose_secrets`), but
`install` copies its files as the repository has them: a script must run byte for byte,
so a real key a public repository committed reaches the target's ``.claude/`` too. Each
file to be written (or there already) whose text the ingest secret rules change
(`ingest.secret_lines`: the same rules, so nothing the index keeps as written is flagged)
is named in the plan with the lines where a rule fired and the rule's kind, never the
secret, and a warning to check it before committing ``.claude/``. So is a hook or an MCP
server entry holding one, which install writes as its source has it into
``settings.json`` or ``.mcp.json`` (`entry_credentials`: its values named by where they are).

A caller that is an agent (the MCP tool, ``hold_credentials=True``) gets less: such a
file is not written at all (action ``held``), and the plan names the files held back,
why, and the CLI command that installs them, for the user to run after checking them. A
hook whose script is held back is held back whole (its entry would run a missing script
and fail, or block, on every call it guards), and so is a component that would write
nothing else.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from skill_retriever.advice import command
from skill_retriever.components.install.component_plan import (
    CREDENTIAL_WARNING,
    ComponentPlan,
    FileAction,
    Scope,
)
from skill_retriever.components.install.entry_credentials import SecretSpot, entry_spots
from skill_retriever.ingest.secret_lines import SecretLine, secret_lines

__all__ = [
    "WARNING",
    "HeldCommand",
    "held_command",
    "held_dict",
    "held_lines",
    "held_paths",
    "lines_said",
    "note_credentials",
]

WARNING = CREDENTIAL_WARNING
#: Why a file is held back from an agent's install.
HELD = "not written by an agent's install (MCP): check it, then install it yourself with the command the plan names"
#: Why files are held back, in the plan's data.
HELD_WHY = (
    "each holds what looks like a credential (its reason names the lines and their kind); an agent's "
    "install does not write such a file: check it, then run the command to install it"
)
#: The actions that put (or leave) a file in the target.
_IN_TARGET = ("create", "overwrite", "unchanged")
_WRITES = ("create", "overwrite")

#: The CLI command that installs the given component ids (`held_command`).
HeldCommand = Callable[[Sequence[str]], str]


def held_command(
    index_dir: Path,
    root: Path,
    scope: Scope,
    principals: Iterable[str] | None,
    *,
    force: bool,
    with_dependencies: bool,
    allow_conflicts: bool,
) -> HeldCommand:
    """The command, as the user runs it, that installs component ids into this target with
    this install's switches and the caller's principals (the CLI's default, ``*``, sees
    more than an agent may: a file of the folder private to others would come along)."""
    words: list[str] = ["--user"] if scope == "user" else ["--target", str(root)]
    words += ["--force"] * force + ["--no-deps"] * (not with_dependencies) + ["--allow-conflicts"] * allow_conflicts
    chosen = sorted(principals or ())
    if "*" not in chosen:
        words += ["--principals", ",".join(chosen)]
    return lambda ids: command(["install", *ids, *words], os.path.abspath(index_dir))  # run from anywhere


def lines_said(found: Sequence[SecretLine | SecretSpot]) -> str:
    """``line 12: a token of a well-known format; lines 3-6: a private key (PEM block)``:
    runs of lines of one kind as a range; an entry's values by where they are
    (``args[3], env LEAKY_TOKEN``)."""
    runs: list[tuple[int, int, str]] = []
    spots = [s.where for s in found if isinstance(s, SecretSpot)]
    for s in found:
        if isinstance(s, SecretSpot):
            continue
        if runs and runs[-1][2] == s.kind and runs[-1][1] == s.line - 1:
            runs[-1] = (runs[-1][0], s.line, s.kind)
        else:
            runs.append((s.line, s.line, s.kind))
    return "; ".join([", ".join(spots)] * bool(spots) + [
        f"line {a}: {k}" if a == b else f"lines {a}-{b}: {k}" for a, b, k in runs
    ])


def _found(f: FileAction) -> tuple[SecretLine | SecretSpot, ...]:
    if f.action not in _IN_TARGET:
        return ()
    if f.hook is not None or f.mcp_entry is not None:
        return entry_spots(f.mcp_entry, f.hook.hook if f.hook is not None else None)
    if not f.content:
        return ()
    try:
        text = f.content.decode("utf-8")
    except UnicodeDecodeError:
        return ()  # a binary file: no text rule reads it, the index holds none of it
    return secret_lines(text)


def note_credentials(plans: Sequence[ComponentPlan], hold: HeldCommand | None) -> list[ComponentPlan]:
    """``plans`` with each file holding what looks like a credential noted (its
    ``secrets``); with ``hold`` (an agent's install), those that would be written are
    held back instead (see the module)."""
    out = []
    for c in plans:
        if c.status not in ("install", "unchanged"):
            out.append(c)
            continue
        files = [replace(f, secrets=found) if (found := _found(f)) else f for f in c.files]
        if hold is not None:
            files = [
                replace(f, action="held", reason=f"it holds what looks like a credential ({lines_said(f.secrets)}); {HELD}")
                if f.secrets and f.action in _WRITES else f
                for f in files
            ]
        held = [f.path for f in files if f.action == "held"]
        writes = any(f.action in _IN_TARGET for f in files)
        if held and (c.kind == "hook" or not writes):
            scripts = any(f.action == "held" and f.hook is None for f in files)  # not an entry of settings.json
            why = "a hook whose script is not written would fail on each run" if c.kind == "hook" and scripts else ""
            reason = f"held back: {', '.join(held)} hold(s) what looks like a credential" + (f" ({why})" if why else "")
            out.append(replace(c, status="skipped", reason=reason, files=tuple(files)))
            continue
        out.append(replace(c, files=tuple(files)))
    return out


def held_paths(plans: Iterable[ComponentPlan]) -> dict[str, list[str]]:
    """Component id -> the paths of its files held back."""
    out: dict[str, list[str]] = {}
    for c in plans:
        for f in c.files:
            if f.action == "held" and f.secrets:
                out.setdefault(c.id, []).append(f.path)
    return out


def held_lines(plans: Iterable[ComponentPlan], how: str) -> list[str]:
    """The plan's closing line for what it held back (none when nothing), ``how`` the
    command that installs it."""
    held = held_paths(plans)
    if not held:
        return []
    paths = [p for ps in held.values() for p in ps]
    what = "file(s)" if not any("#" in p for p in paths) else "file(s) or entries"  # .mcp.json#<server>
    said = f"held back: {len(paths)} {what} holding what looks like a credential ({', '.join(paths)})"
    return [f"{said}; an agent's install does not write them: check them, then run {how}"]


def held_dict(plans: Iterable[ComponentPlan], how: str) -> dict[str, Any]:
    """``held_back`` of the plan's data: the files, why, the command; empty when none."""
    held = held_paths(plans)
    if not held:
        return {}
    return {"held_back": {"files": [p for ps in held.values() for p in ps], "why": HELD_WHY, "command": how}}
