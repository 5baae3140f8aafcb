"""Component configs in JSON -> `Record`s: MCP servers, hooks, plugin metadata.

Secrets stay out of nodes: of an MCP server's environment only the variable names are
kept, values after secret-looking flags in ``args`` are redacted, and URLs lose their
query string and user info.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from skill_retriever.ingest.skill_records import (
    Record,
    RecordError,
    jsonable,
    record_from_fields,
    text_field,
)
from skill_retriever.model import NodeKind

_SECRET_RE = re.compile(r"key|token|secret|passw|auth|credential", re.IGNORECASE)


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
    records, errors = [], []
    for name, entry in servers.items():
        try:
            if not isinstance(entry, dict):
                raise RecordError("must be an object")
            records.append(_mcp_record({"name": str(name), **entry}, f"{rel}#{name}", str(name)))
        except RecordError as exc:
            errors.append(f"mcpServers[{name!r}] skipped: {exc}")
    if not records and errors:
        raise RecordError("; ".join(errors))
    if records:  # reported against this file, like any warning of its records
        records[0].warnings.extend(errors)
    return records


def _mcp_record(entry: dict[str, Any], rel: str, default_name: str) -> Record:
    command = entry.get("command")
    args = entry.get("args") or []
    env = entry.get("env") or {}
    if command is not None and not isinstance(command, str):
        raise RecordError("MCP 'command' must be a string")
    if not isinstance(args, list) or not isinstance(env, dict):
        raise RecordError("MCP 'args' must be a list and 'env' an object")
    args_text = _redact_args([str(a) for a in args if isinstance(a, (str, int, float))])
    env_keys = sorted(str(k) for k in env)  # values may be secrets: keep names only
    url = _bare_url(entry["url"]) if isinstance(entry.get("url"), str) else None
    lines = [
        f"Command: {' '.join([command, *args_text])}" if command else "",
        f"URL: {url}" if url else "",
    ]
    if env_keys:
        lines.append("Environment variables: " + ", ".join(env_keys))
    lines.insert(0, text_field(entry, "description").strip())
    record = record_from_fields(
        entry, rel, NodeKind.MCP_SERVER, default_name, body="\n".join(x for x in lines if x)
    )
    record.attrs.update({"command": command, "args": args_text, "env_keys": env_keys, "url": url})
    if isinstance(entry.get("type"), str):
        record.attrs["transport"] = entry["type"]
    return record


def _redact_args(args: list[str]) -> list[str]:
    """Hide values that follow or sit inside secret-looking flags (``--api-key X``, ``TOKEN=X``)."""
    out = []
    for i, arg in enumerate(args):
        flag, eq, _ = arg.partition("=")
        if eq and _SECRET_RE.search(flag):
            out.append(f"{flag}=[redacted]")
        elif (
            i
            and _SECRET_RE.search(args[i - 1])
            and args[i - 1].startswith("-")
            and "=" not in args[i - 1]
        ):
            out.append("[redacted]")
        else:
            out.append(arg)
    return out


def _bare_url(url: str) -> str:
    """Scheme, host, port and path only: query strings and user info can carry credentials."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "[unparseable url]"
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme else "[relative url]"


def hook_record(data: Any, rel: str, default_name: str) -> Record:
    """A hook: ``{"name", "description", "event", "matcher", "command"}`` or a ``hooks`` map."""
    if not isinstance(data, dict):
        raise RecordError(f"a hook config must be a JSON object, got {type(data).__name__}")
    runs: list[tuple[str, str, str]] = []
    if isinstance(data.get("hooks"), dict):
        for event, groups in data["hooks"].items():
            for group in groups if isinstance(groups, list) else []:
                if isinstance(group, dict):
                    for hook in group.get("hooks") or []:
                        if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                            runs.append(
                                (str(event), str(group.get("matcher") or ""), hook["command"])
                            )
    elif isinstance(data.get("command"), str):
        runs.append((str(data.get("event") or ""), str(data.get("matcher") or ""), data["command"]))
    lines = [
        f"On {ev or 'any event'}{f' for tools matching {m}' if m else ''}, runs: {cmd}"
        for ev, m, cmd in runs
    ]
    body = "\n".join([text_field(data, "description").strip(), *lines]).strip()
    record = record_from_fields(data, rel, NodeKind.HOOK, default_name, body=body)
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
