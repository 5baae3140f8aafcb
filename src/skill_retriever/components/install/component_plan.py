"""What happens to each file, settings entry and component of an install (`plan` holds
the whole plan and re-exports these; they were defined there first).

A component's lines, as a person reads them, are `plan_lines`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from skill_retriever.components.install.entry_credentials import SecretSpot
from skill_retriever.components.install.hook_entry import HookEntry
from skill_retriever.ingest.secret_lines import SecretLine

__all__ = [
    "CREDENTIAL_WARNING",
    "ENTRY_CREDENTIAL_WARNING",
    "SAME_PATH",
    "WRITTEN_STATUSES",
    "Action",
    "Clash",
    "ComponentPlan",
    "FileAction",
    "MissingRequirement",
    "Scope",
    "Status",
]

Action = Literal["create", "overwrite", "unchanged", "blocked", "refused", "remove", "held"]
Status = Literal["install", "unchanged", "blocked", "refused", "skipped"]
Scope = Literal["project", "user"]

#: Why a file or server is blocked when another component of the install writes it
#: differently (no ``force`` changes that: one of the two has to be left out).
SAME_PATH = "installs the same path"
#: Said of a copied file that holds what looks like a credential (`credential_files`).
CREDENTIAL_WARNING = "this file holds what looks like a credential; check it before you commit .claude/"
#: Said of a hook or server entry that holds one, written as its source has it (`entry_credentials`).
ENTRY_CREDENTIAL_WARNING = (
    "this entry holds what looks like a credential; install writes it as its source has it: check {file} "
    "before you commit it (a value may come from the environment instead: {how})"
)
#: How a hook or a server reads a value from the environment, in `ENTRY_CREDENTIAL_WARNING`.
_FROM_ENV = {".mcp.json": "${VAR} in .mcp.json", "settings.json": "$VAR in the hook's command"}
#: The statuses of a component whose files reach the target (or are there already).
WRITTEN_STATUSES: tuple[Status, ...] = ("install", "unchanged")
#: The actions that write (or keep) a file when its component is written.
_VERBS: tuple[Action, ...] = ("create", "overwrite", "unchanged", "remove")


@dataclass(frozen=True)
class FileAction:
    """What happens to one file, ``.mcp.json`` server or ``settings.json`` hook.

    Attributes:
        path: Relative to the root, POSIX style; ``.mcp.json#<server>`` for an MCP entry,
            ``.claude/settings.json#hooks.<Event>[<matcher>]`` for a hook (`` if <rule>``
            after it for one with an ``if`` rule: `HookEntry.where`).
        action: create, overwrite (differs, ``force``), unchanged (identical), blocked
            (differs, no ``force``), refused (unsafe), remove (an earlier version of the
            component wrote it, this one no longer ships it, and nobody changed it since),
            held (it holds what looks like a credential and the caller is an agent:
            `credential_files`).
        reason: Why, for blocked and refused.
        mcp_entry: A server's entry as install renders it (and records it).
        mcp_values: The entry ``.mcp.json`` holds instead, when the user filled in values
            install left as placeholders (`server_action`); None: ``mcp_entry`` itself.
        in_group: A hook added to a group of its event and matcher that ``settings.json``
            holds already (the user's, or an earlier install's): it joins that group
            (``"in_group": true`` in its data, as the plan's line says).
        replaces: For a hook ``force`` installs again, the user's changed version of it
            that ``settings.json`` holds instead (`changed_hooks`): it gives way to ``hook``.
        secrets: The lines of a copied file where an ingest secret rule fired, and its
            kind (`credential_files`); the values of a hook or server entry one
            changes (`entry_credentials`): it holds what looks like a credential.
    """

    path: str
    action: Action
    reason: str = ""
    content: bytes = field(default=b"", repr=False, compare=False)
    mode: int = field(default=0o644, repr=False, compare=False)
    mcp_entry: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    mcp_values: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    hook: HookEntry | None = field(default=None, repr=False, compare=False)
    in_group: bool = field(default=False, repr=False, compare=False)
    replaces: HookEntry | None = field(default=None, repr=False, compare=False)
    secrets: tuple[SecretLine | SecretSpot, ...] = field(default=(), repr=False, compare=False)

    @property
    def warning(self) -> str:
        """What to check of it, when it holds what looks like a credential."""
        if self.hook is None and self.mcp_entry is None:
            return CREDENTIAL_WARNING
        file = self.path.split("#", 1)[0]
        return ENTRY_CREDENTIAL_WARNING.format(file=file, how=_FROM_ENV[file.rsplit("/", 1)[-1]])

    def to_dict(self, status: Status = "install") -> dict[str, Any]:
        """The file as data; ``status``: its component's. A file of a component that is
        not written (blocked, refused, skipped) is "not written" whatever was planned for
        it, as `InstallPlan.lines` says it: nothing of that component reaches the target."""
        if status not in WRITTEN_STATUSES and self.action in _VERBS:
            return {"path": self.path, "action": "not written", "reason": f"its component is {status}"}
        out: dict[str, Any] = {"path": self.path, "action": self.action}
        if self.reason:
            out["reason"] = self.reason
        if self.in_group and self.action == "create":  # the lines say so: ", in the existing Stop group"
            out["in_group"] = True
        if self.secrets:  # where and what, never the secret (`credential_files`)
            out["credential_lines"] = [
                {"line": s.line, "kind": s.kind} if isinstance(s, SecretLine) else {"where": s.where} for s in self.secrets
            ]
            out |= {} if self.action == "held" else {"warning": self.warning}
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
    ``required_by`` names the components asked for that it is here for (what `orphans`
    and `brought` go by); ``requirers`` the components of the plan that require it
    directly, each with the plugin it is required through ('' for none): a person reads
    "required by" as the one that needs it, not the one asked for three steps up.
    ``part_of``: ``(id, name)`` of the skill whose folder holds it (`owning_skill`: a
    SKILL.md nested in another skill's folder, which installed alone becomes a skill of its
    own), None for none the caller sees. ``left_out_keys``: the keys of an MCP server's
    source entry its ``.mcp.json`` entry leaves out (other clients' settings: `render_mcp`).
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
    requirers: tuple[tuple[str, str], ...] = ()
    part_of: tuple[str, str] | None = None
    left_out_keys: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "status": self.status,
            "files": [f.to_dict(self.status) for f in self.files],
        }
        if self.part_of:
            out["part_of"] = {"id": self.part_of[0], "name": self.part_of[1]}  # as get_component
        if self.reason:
            out["reason"] = self.reason
        if self.required_by:
            out["required_by"] = list(self.required_by)
            out |= {"via": list(self.via)} if self.via else {}
        if self.requirers:
            out["required_directly_by"] = [i for i, _ in self.requirers]
        if self.missing:
            out["missing_requirements"] = [m.to_dict() for m in self.missing]
        if self.left_out_keys:  # its server's keys .mcp.json does not get (the note says why)
            out["left_out_of_mcp_json"] = list(self.left_out_keys)
        return out
