"""One component file -> `Record`s: Markdown with frontmatter, hook / MCP / plugin JSON.

A record is a node-to-be plus the names it refers to (requires, conflicts, tools);
`skills.py` places records in their corpus and resolves those names into edges. A file
that cannot be used raises `RecordError`; a field that is merely ignored comes back as a
warning. Both become per-file problems.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import date, datetime, time, timezone
from pathlib import Path
from typing import Any

from skill_retriever.exceptions import InvalidItemError
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.model import NodeKind, parse_timestamp

_REQUIRES_KEYS = ("requires", "dependencies", "depends_on")
_CREATED_KEYS = ("created", "date_added")
_UPDATED_KEYS = ("updated", "last_updated")


class RecordError(ValueError):
    """This file cannot become a node; the message is the problem to report."""


@dataclass(slots=True)
class Record:
    """A node-to-be read from one file (or one entry of an MCP config file)."""

    rel: str
    kind: NodeKind
    name: str
    description: str
    text: str
    tags: tuple[str, ...] = ()
    created: datetime | None = None
    updated: datetime | None = None
    attrs: dict[str, Any] = field(default_factory=dict)
    requires: list[str] = field(default_factory=list)
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def read_text(path: Path, max_bytes: int) -> str:
    """The file as UTF-8 text; RecordError when too large, binary or undecodable."""
    size = path.stat().st_size
    if size > max_bytes:
        raise RecordError(f"file is {size:,} bytes, over the {max_bytes:,}-byte limit; skipped")
    data = path.read_bytes()
    if b"\x00" in data:
        raise RecordError("binary file (NUL bytes); skipped")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text ({exc.reason} at byte {exc.start}); skipped") from exc


def markdown_record(text: str, rel: str, kind: NodeKind, default_name: str) -> Record | None:
    """A Markdown component; None for an OTHER candidate without frontmatter name and description."""
    try:
        fm = parse_frontmatter(text)
    except FrontmatterError as exc:
        raise RecordError(str(exc)) from exc
    fields = fm.fields
    if kind is NodeKind.OTHER and not (fields.get("name") and fields.get("description")):
        return None
    record = _from_fields(fields, rel, kind, default_name, body=fm.body)
    raw = {k: v for k, v in fields.items() if k not in ("name", "description")}
    record.attrs["frontmatter"] = jsonable(raw)
    if fm.recovered_from:
        record.attrs["frontmatter_recovered"] = fm.recovered_from
    return record


def json_document(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"not valid JSON: {exc}") from exc


def mcp_records(data: Any, rel: str, default_name: str) -> list[Record]:
    """``{"mcpServers": {name: {...}}}`` -> one record each (``rel#name``); else one server."""
    if not isinstance(data, dict):
        raise RecordError(f"an MCP config must be a JSON object, got {type(data).__name__}")
    servers = data.get("mcpServers")
    if servers is None:
        return [_mcp_record(data, rel, default_name)]
    if not isinstance(servers, dict):
        raise RecordError("'mcpServers' must map server names to objects")
    records = []
    for name, entry in servers.items():
        if not isinstance(entry, dict):
            raise RecordError(f"mcpServers[{name!r}] must be an object")
        records.append(_mcp_record({"name": str(name), **entry}, f"{rel}#{name}", str(name)))
    return records


def _mcp_record(entry: dict[str, Any], rel: str, default_name: str) -> Record:
    command = entry.get("command")
    args = entry.get("args") or []
    env = entry.get("env") or {}
    if command is not None and not isinstance(command, str):
        raise RecordError("MCP 'command' must be a string")
    if not isinstance(args, list) or not isinstance(env, dict):
        raise RecordError("MCP 'args' must be a list and 'env' an object")
    args_text = [str(a) for a in args if isinstance(a, (str, int, float))]
    env_keys = sorted(str(k) for k in env)  # values may be secrets: keep names only
    url = entry.get("url") if isinstance(entry.get("url"), str) else None
    lines = [f"Command: {' '.join([command, *args_text])}" if command else "", f"URL: {url}" if url else ""]
    if env_keys:
        lines.append("Environment variables: " + ", ".join(env_keys))
    lines.insert(0, text_field(entry, "description").strip())
    record = _from_fields(entry, rel, NodeKind.MCP_SERVER, default_name, body="\n".join(x for x in lines if x))
    record.attrs.update({"command": command, "args": args_text, "env_keys": env_keys, "url": url})
    if isinstance(entry.get("type"), str):
        record.attrs["transport"] = entry["type"]
    return record


def hook_record(data: Any, rel: str, default_name: str) -> Record:
    """A hook: ``{"name","description","event","matcher","command",...}`` or a settings-style ``hooks`` map."""
    if not isinstance(data, dict):
        raise RecordError(f"a hook config must be a JSON object, got {type(data).__name__}")
    runs: list[tuple[str, str, str]] = []
    if isinstance(data.get("hooks"), dict):
        for event, groups in data["hooks"].items():
            for group in groups if isinstance(groups, list) else []:
                if isinstance(group, dict):
                    for hook in group.get("hooks") or []:
                        if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                            runs.append((str(event), str(group.get("matcher") or ""), hook["command"]))
    elif isinstance(data.get("command"), str):
        runs.append((str(data.get("event") or ""), str(data.get("matcher") or ""), data["command"]))
    lines = [f"On {ev or 'any event'}{f' for tools matching {m}' if m else ''}, runs: {cmd}" for ev, m, cmd in runs]
    body = "\n".join([text_field(data, "description").strip(), *lines]).strip()
    record = _from_fields(data, rel, NodeKind.HOOK, default_name, body=body)
    record.attrs["runs"] = [{"event": ev, "matcher": m, "command": cmd} for ev, m, cmd in runs]
    for key in ("event", "matcher", "command"):
        if isinstance(data.get(key), str):
            record.attrs[key] = data[key]
    return record


def plugin_meta(data: Any) -> dict[str, Any]:
    """The JSON-serialisable fields of a ``plugin.json``."""
    if not isinstance(data, dict):
        raise RecordError(f"plugin.json must be a JSON object, got {type(data).__name__}")
    return {str(k): v for k, v in jsonable(data).items()}


def _from_fields(fields: dict[str, Any], rel: str, kind: NodeKind, default_name: str, *, body: str) -> Record:
    name = text_field(fields, "name").strip() or default_name
    description = text_field(fields, "description").strip()
    text = body.strip() or description
    if not text:
        raise RecordError("no body and no description: nothing to index; write a description")
    record = Record(rel=rel, kind=kind, name=name, description=description, text=text)
    record.tags = tuple(_names(fields.get("tags"), "tags", record.warnings))
    record.created = _first_time(fields, _CREATED_KEYS, record.warnings)
    record.updated = _first_time(fields, _UPDATED_KEYS, record.warnings)
    for key in _REQUIRES_KEYS:
        record.requires += _names(fields.get(key), key, record.warnings)
    record.conflicts = _conflicts(fields.get("conflicts"), record.warnings)
    for key in ("tools", "allowed-tools", "mcp_servers"):
        record.tools += _names(fields.get(key), key, record.warnings)
    return record


def text_field(fields: dict[str, Any], key: str) -> str:
    """A name-like field as text; numbers are read as text, lists and mappings refused."""
    value = fields.get(key)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise RecordError(f"'{key}' must be text, got a {type(value).__name__}")


def _names(value: Any, key: str, warnings: list[str]) -> list[str]:
    """A list of names from a list, a comma-separated string, or {name: ...} items."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [p.strip() for p in value.split(",") if p.strip()]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [str(value)]
    if not isinstance(value, list):
        warnings.append(f"'{key}' must be a list of names, got a {type(value).__name__}; ignored")
        return []
    out = []
    for item in value:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            item = item["name"]
        if isinstance(item, (str, int, float)) and not isinstance(item, bool) and str(item).strip():
            out.append(str(item).strip())
        else:
            warnings.append(f"'{key}' entry {item!r:.60} is not a name; ignored")
    return out


def _conflicts(value: Any, warnings: list[str]) -> list[tuple[str, str]]:
    if isinstance(value, list):
        out = []
        for item in value:
            if isinstance(item, dict) and "name" not in item and len(item) == 1:
                (name, reason), = item.items()
                item = {"name": str(name), "reason": reason}
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                reason = item.get("reason")
                out.append((item["name"].strip(), reason.strip() if isinstance(reason, str) else ""))
            else:
                out += [(n, "") for n in _names([item], "conflicts", warnings)]
        return out
    return [(n, "") for n in _names(value, "conflicts", warnings)]


def _first_time(fields: dict[str, Any], keys: tuple[str, ...], warnings: list[str]) -> datetime | None:
    for key in keys:
        value = fields.get(key)
        if value in (None, ""):
            continue
        if isinstance(value, date) and not isinstance(value, datetime):
            return datetime.combine(value, time(), tzinfo=timezone.utc)
        try:
            return parse_timestamp(value, key)
        except (InvalidItemError, ValueError, OverflowError, OSError):
            warnings.append(f"'{key}' {value!r:.40} is not an ISO date; ignored")
    return None


def jsonable(value: Any) -> Any:
    """A JSON-serialisable copy: dates become ISO text; other unserialisable values are dropped."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items() if _keep(v)}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value if _keep(v)]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _keep(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool, list, tuple, dict, date))
