"""Merging into the shared JSON files Claude Code reads, and taking entries back out.

- ``.claude/settings.json``: hooks under ``"hooks"``, in Claude Code's schema
  ``{"hooks": {"<Event>": [{"matcher": "<pattern>", "hooks": [{"type": "command",
  "command": "...", "timeout": N}]}]}}``. A hook is merged into the group of its event
  with the same matcher (a group without a matcher matches a hook without one), appended
  unless an equal hook is already there: installing twice changes nothing. Every other
  key, group and hook of the file is kept as it was.
- ``.mcp.json``: servers under ``"mcpServers"`` by name; other servers are kept.

Removing takes out only an entry equal to the one recorded at install time: one a user
changed since is theirs and stays.
"""

from __future__ import annotations

import copy
import errno
import json
import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from skill_retriever.components.install.claude_folder import on_disk
from skill_retriever.components.install.json_layout import JsonStyle, json_style, style_of
from skill_retriever.components.install.json_splice import splice
from skill_retriever.components.install.json_syntax import unreadable_why
from skill_retriever.components.install.json_text import json_text
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import HookEntry, InstallError, UnsafePathError
from skill_retriever.fsutil import leftover_temps, write_atomic

__all__ = [
    "MCP_CATALOGUE_KEYS",
    "MCP_ENTRY_KEYS",
    "JSONWriteError",
    "JsonStyle",
    "check_settings",
    "has_hook",
    "json_problem",
    "json_style",
    "merge_hooks",
    "read_json_object",
    "remove_hooks",
    "style_of",
    "write_json",
]

#: The keys of an ``mcpServers`` entry Claude Code reads (code.claude.com/docs/en/mcp): a
#: local server's ``command``, ``args`` and ``env``, a remote one's ``type``, ``url``,
#: ``headers``, ``headersHelper`` (a command that prints headers) and ``oauth`` (a
#: pre-registered client, a fixed callback port); ``type`` may also say ``stdio``. Other
#: keys are left out, said per server (`render_mcp`): other clients' settings (Cline's
#: ``autoApprove``, ``disabled``, ``transportType``, ``timeout`` in seconds) and catalogue
#: metadata (description, tags), which goes unsaid (`MCP_CATALOGUE_KEYS`).
MCP_ENTRY_KEYS = ("type", "command", "args", "env", "url", "headers", "headersHelper", "oauth")
#: Keys of a catalogue's server entry that describe it and configure nothing (davila7's
#: files give each server a ``description``, one ``descrption``): left out unsaid.
MCP_CATALOGUE_KEYS = frozenset(
    {"description", "descrption", "name", "title", "tags", "category", "categories", "homepage", "author"}
)

#: Half of a UTF-16 pair, alone in a string (``"\\ud83d"`` read from JSON): UTF-8 cannot hold it.
_SURROGATE_RE = re.compile(r"[\ud800-\udfff]")
#: How a refusal to read a shared JSON file ends: it stays as it is.
_UNCHANGED = "nothing is written to it as it is"


class JSONWriteError(InstallError, OSError):
    """A shared JSON file cannot be written as valid JSON (what it would hold is named).
    An `OSError` too: an install that fails so half-way records what it wrote, as for a
    full disk."""

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


class _NotWritable(ValueError):
    """A value read that would not be written back as valid JSON."""


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _NotWritable(
            f"the number {text}, too large to write back as JSON (it would become Infinity, "
            "which is not JSON: Claude Code would then read no setting of the file); write it "
            f'smaller, or as a string ("{text}")'
        )
    return value


def _constant(name: str) -> Any:
    raise _NotWritable(f"{name}, which is not JSON; write it as a string or a number")


def _lone_surrogate(data: Any, where: str = "") -> str:
    """Where ``data`` holds a string with half of a UTF-16 pair (``"\\ud83d"`` alone), which
    UTF-8 cannot write ('' when none does)."""
    if isinstance(data, str):
        return where or "the top" if _SURROGATE_RE.search(data) else ""
    if isinstance(data, dict):
        for key, value in data.items():
            at = f"{where}.{key}" if where else str(key)
            if _SURROGATE_RE.search(str(key)):
                return at
            if found := _lone_surrogate(value, at):
                return found
    if isinstance(data, list):
        for i, value in enumerate(data):
            if found := _lone_surrogate(value, f"{where}[{i}]"):
                return found
    return ""


def json_problem(data: Any) -> str:
    """Why ``data`` cannot be written as valid UTF-8 JSON ('' when it can): a number
    that is not finite, or a string with a lone surrogate."""
    try:
        json.dumps(data, allow_nan=False)
    except ValueError:
        return "a number that is not finite (NaN or Infinity), which is not JSON"
    where = _lone_surrogate(data)
    if where:
        return f"half of a character (a lone UTF-16 surrogate escape) at {where}, which UTF-8 cannot hold"
    return ""


def read_json_object(root: Path, rel: str, key: str) -> tuple[dict[str, Any] | None, str]:
    """The JSON object at ``root/rel`` (``{}`` when missing), or None and why it cannot be
    merged into (unreadable, not an object, ``key`` not an object, an unsafe path, or
    something in it `write_json` could not write back as valid JSON: a number too large,
    ``NaN``, half of a character)."""
    try:
        path = safe_destination(root, rel)
    except UnsafePathError as exc:
        return None, _unsafe_why(root, rel, exc)
    if not path.exists():
        return {}, ""
    raw = None
    try:
        raw = path.read_bytes()
        text = json_text(raw)  # past a byte order mark; blank: {}
        data = json.loads(text.json(), parse_float=_finite, parse_constant=_constant)
    except _NotWritable as exc:
        return None, f"the existing {rel} holds {exc}; {_UNCHANGED}"
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # a comment, UTF-16, ...: said so
        return None, unreadable_why(rel, raw, exc)
    if not isinstance(data, dict):  # a list, a string: Claude Code reads neither
        return None, f"the existing {rel} is {_shape(data)}, not a JSON object; fix or move it first"
    if where := _lone_surrogate(data):
        return None, (
            f"the existing {rel} holds half of a character at {where} (a lone UTF-16 "
            "surrogate escape such as \\ud83d, which UTF-8 cannot hold); write the whole "
            f"character, or remove it; {_UNCHANGED}"
        )
    if not isinstance(value := data.get(key, {}), dict):
        return None, _not_object(rel, key, value)
    return data, ""


def _shape(value: object) -> str:
    shape = {list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return shape.get(type(value), "a number")


def _not_object(rel: str, key: str, value: object) -> str:
    """Why ``rel`` cannot be merged into when its ``key`` holds no object, and the fix
    (an empty list is the likely slip: ``"hooks": []`` where Claude Code reads events)."""
    like = {"hooks": ' such as {"PostToolUse": [...]}', "mcpServers": ' such as {"<server>": {...}}'}
    fix = f"replace the empty {_shape(value)[2:]} with {{}}" if value in ([], "") else (
        f"rewrite it as an object{like.get(key, '')}"
    )
    return (
        f"{key!r} in the existing {rel} holds {_shape(value)}, not an object; "
        f"{fix}, or move the file first"
    )


def _unsafe_why(root: Path, rel: str, exc: UnsafePathError) -> str:
    """Why ``rel`` cannot be merged into, in one sentence: a link to a file is never
    written through, wherever it leads (`safe_destination`'s words for it would name a
    folder to make, which fits a link on the way, not the file itself)."""
    path = on_disk(root, rel)
    if path.is_symlink():
        try:
            leads = f" to {path.readlink()}"
        except OSError:  # gone since: the refusal stands without where it led
            leads = ""
        return (
            f"{rel} is a symbolic link{leads}, and an install writes no file through a link; "
            "replace the link by a copy of the file it points to (Claude Code reads either), "
            "or install into another target"
        )
    return str(exc)


def write_json(root: Path, rel: str, data: Mapping[str, Any], mode: int | None = None) -> None:
    """Write ``data`` to ``root/rel`` atomically, keeping the text of every member of the
    file it replaces that ``data`` leaves as it was, and writing the rest in that file's
    style (`JsonStyle`; a new one: 2-space indent, a final newline), with ``mode``, or else
    the permissions of the file it replaces (0644 for a new one).

    Raises:
        JSONWriteError: ``data`` cannot be written as valid JSON (nothing is written).
        OSError: The write failed; its ``filename`` is ``rel``'s path (not the
            temporary file's).
    """
    dest = safe_destination(root, rel)
    why = json_problem(data)
    if why:
        raise JSONWriteError(errno.EINVAL, f"it would hold {why}; nothing is written to it", str(dest))
    text = _new_text(dest, data)
    if mode is None:
        mode = dest.stat().st_mode & 0o777 if dest.is_file() else 0o644
    for partial in leftover_temps(dest):  # an install killed mid-write left it (the target is held)
        partial.unlink(missing_ok=True)
    write_atomic(dest, text.encode("utf-8"), mode)  # an error names dest, not the copy beside it


def _new_text(dest: Path, data: Mapping[str, Any]) -> str:
    """The text of ``dest`` holding ``data``: its old text with only the members that
    changed rewritten (`splice`), so a user's hand layout (an inline array, a one-line
    object) shows no diff; the whole of ``data`` in the file's style when the old text
    cannot be spliced (not one JSON object, unreadable) or there is none."""
    try:
        old = json_text(dest.read_bytes()) if dest.is_file() else None
    except (OSError, UnicodeDecodeError):  # nothing to keep: the write names any error
        old = None
    if old is None:
        return JsonStyle().dumps(data)
    style = json_style(old.body)
    spliced = splice(old.body, data, style)
    # The byte order mark goes back as found: an editor that wrote it expects it there.
    return old.bom + (style.dumps(data) if spliced is None else spliced)


def _groups(settings: Mapping[str, Any], event: str) -> list[Any]:
    hooks = settings.get("hooks")
    if not isinstance(hooks, Mapping):
        return []
    groups = hooks.get(event)
    return groups if isinstance(groups, list) else []


def _same_group(group: Any, matcher: str | None) -> bool:
    """Claude Code reads a group without ``matcher`` as one whose matcher is ``""``."""
    if not isinstance(group, Mapping):
        return False
    theirs = group.get("matcher")
    return (theirs if theirs is not None else "") == (matcher if matcher is not None else "")


def has_hook(settings: Mapping[str, Any], entry: HookEntry) -> bool:
    """Whether an equal hook sits in the group of its event and matcher."""
    for group in _groups(settings, entry.event):
        hooks = group.get("hooks") if _same_group(group, entry.matcher) else None
        if isinstance(hooks, list) and any(h == entry.hook for h in hooks):
            return True
    return False


def merge_hooks(settings: Mapping[str, Any], entries: Iterable[HookEntry]) -> dict[str, Any]:
    """``settings`` with ``entries`` merged in (see the module docstring); the input is
    not changed.

    Raises:
        TypeError: ``settings["hooks"]`` or an event's value has another shape (the
            caller checked the file with `check_settings` first).
    """
    out = copy.deepcopy(dict(settings))
    hooks = out.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise TypeError("settings 'hooks' is not an object")
    for entry in entries:
        if has_hook(out, entry):
            continue
        groups = hooks.setdefault(entry.event, [])
        if not isinstance(groups, list):
            raise TypeError(f"settings hooks.{entry.event} is not a list")
        group = next((g for g in groups if _same_group(g, entry.matcher)), None)
        if group is None or not isinstance(group.get("hooks"), list):
            group = {"matcher": entry.matcher} if entry.matcher is not None else {}
            group["hooks"] = []
            groups.append(group)
        group["hooks"].append(copy.deepcopy(dict(entry.hook)))
    return out


def check_settings(settings: Mapping[str, Any]) -> str:
    """Why ``settings`` cannot take hooks ('' when it can)."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, Mapping):
        return "its 'hooks' is not an object"
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            return f"its hooks.{event} is not a list"
    return ""


def remove_hooks(
    settings: Mapping[str, Any], entries: Iterable[HookEntry]
) -> tuple[dict[str, Any], list[HookEntry], list[HookEntry]]:
    """``settings`` without ``entries``. A group this leaves empty goes, and so does an
    event this leaves without groups; the ``"hooks"`` object itself is kept.

    Returns:
        The new settings, the entries removed, the entries not found unchanged.
    """
    out = copy.deepcopy(dict(settings))
    removed: list[HookEntry] = []
    missing: list[HookEntry] = []
    for entry in entries:
        groups = _groups(out, entry.event)
        group = next(
            (
                g
                for g in groups
                if _same_group(g, entry.matcher)
                and isinstance(g.get("hooks"), list)
                and entry.hook in g["hooks"]
            ),
            None,
        )
        if group is None:
            missing.append(entry)
            continue
        group["hooks"].remove(entry.hook)
        removed.append(entry)
        if not group["hooks"]:
            groups.remove(group)
            if not groups:
                del out["hooks"][entry.event]
    return out, removed, missing
