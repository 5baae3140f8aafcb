"""Component configs in JSON -> `Record`s: MCP servers, and the reading of JSON files.

An MCP server's attributes are what a ``.mcp.json`` entry needs, with secrets left out:
``command`` and ``args`` (a list; values after secret-looking flags such as ``--api-key``
or inside ``TOKEN=...`` / ``--password=...`` redacted, a reference or placeholder such as
``${API_KEY}`` kept, and so are the credential of a header argument, ``--header
"Authorization: Bearer [redacted]"``, the user info of a URL,
``postgresql://[redacted]@db/app``, and secret-looking query parameters,
``?token=[redacted]``), ``env_keys`` (the environment's variable names, never the values),
or for a remote server ``transport`` (the entry's ``type``), ``url`` (without query string
or user info) and ``header_keys`` (header names, never values). The description is
prose and is redacted as a skill's text is (`prose_secrets.redact_prose`: URL
credentials, tokens of well-known formats, ``Bearer`` credentials, literal values of
secret-looking assignments). Every redaction writes `REDACTED`, which the installer
looks for to tell the user to fill the value in (the redaction itself lives in
`skill_retriever.ingest.secrets`, shared with hook commands).

JSON files are read by `json_document`: a number strict JSON cannot carry (NaN, Infinity,
``1e999``, an integer over Python's digit limit) makes the file a problem, since the node
built from it could not be written back as JSON.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from skill_retriever.ingest import json_values
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.result import UnreadEntry
from skill_retriever.ingest.secrets import REDACTED, redact_invocation, redact_urls
from skill_retriever.ingest.skill_records import (
    AccessError,
    Record,
    RecordError,
    jsonable,
    record_from_fields,
    text_field,
)
from skill_retriever.model import NodeKind

#: `REDACTED` and `redact_urls` stay importable from here, where they used to live.
__all__ = ["REDACTED", "bare_url", "json_document", "mcp_records", "plugin_meta", "redact_urls", "server_map"]


def json_document(text: str) -> Any:
    """Parse a JSON config file.

    Raises:
        RecordError: Not JSON, nested too deeply, or holding a number strict JSON
            output cannot carry.
    """
    try:
        data = json_values.loads(text)
    except RecursionError as exc:
        raise RecordError("JSON nested too deeply to parse; refused") from exc
    except ValueError as exc:
        raise RecordError(f"not valid JSON: {exc}") from exc
    bad = json_values.nesting_message(data) or json_values.unrepresentable_message(data)
    if bad is not None:
        raise RecordError(f"JSON value {bad}; file skipped")
    return data


def mcp_records(data: Any, rel: str, default_name: str) -> list[Record]:
    """``{"mcpServers": {name: {...}}}`` -> one record each (``rel#name``), and so does
    ``{name: {...}}`` (`server_map`: a plugin's ``.mcp.json`` may leave the key out); else
    one server."""
    if not isinstance(data, dict):
        raise RecordError(f"an MCP config must be a JSON object, got {type(data).__name__}")
    servers = data.get("mcpServers")
    if servers is None and server_map(data):
        servers = data
    if servers is None:
        return [_mcp_record(data, rel, default_name)]
    if not isinstance(servers, dict):
        raise RecordError("'mcpServers' must map server names to objects")
    records: list[Record] = []
    errors: list[str] = []
    for name, entry in servers.items():
        try:
            if not isinstance(entry, dict):
                raise RecordError("must be an object")
            records.append(_mcp_record({"name": str(name), **entry}, f"{rel}#{name}", str(name)))
        except AccessError as exc:  # who may see it is not known: its earlier version stays
            errors.append(UnreadEntry(f"mcpServers[{name!r}] skipped: {exc}", f"{rel}#{name}"))
        except RecordError as exc:
            errors.append(f"mcpServers[{name!r}] skipped: {exc}")
    if not records and errors:
        raise RecordError("; ".join(errors))
    if records:  # reported against this file, like any warning of its records
        records[0].warnings.extend(errors)
    return records


def server_map(data: dict[str, Any]) -> bool:
    """Whether ``data`` maps names to servers without an ``mcpServers`` key (Claude Code
    reads a plugin's ``.mcp.json`` so): not empty, no server's own keys at its top, and
    every value an object with a ``command`` or a ``url``."""
    if not data or {"command", "url", "mcpServers"} & set(data):
        return False
    return all(isinstance(v, dict) and ("command" in v or "url" in v) for v in data.values())


def _mcp_record(entry: dict[str, Any], rel: str, default_name: str) -> Record:
    command = entry.get("command")
    args = entry.get("args") or []
    env = entry.get("env") or {}
    headers = entry.get("headers") or {}
    if command is not None and not isinstance(command, str):
        raise RecordError("MCP 'command' must be a string")
    if not isinstance(args, list) or not isinstance(env, dict) or not isinstance(headers, dict):
        raise RecordError("MCP 'args' must be a list, 'env' and 'headers' objects")
    # a whole command line may sit in ``command``: it is redacted with the arguments, as one list
    command, args_text = redact_invocation(
        command, [str(a) for a in args if isinstance(a, (str, int, float))]
    )
    env_keys = sorted(str(k) for k in env)  # values may be secrets: keep names only
    header_keys = sorted(str(k) for k in headers)  # "Authorization: Bearer ...": names only
    url = bare_url(entry["url"]) if isinstance(entry.get("url"), str) else None
    lines = [
        f"Command: {' '.join([command, *args_text])}" if command else "",
        f"URL: {url}" if url else "",
    ]
    if env_keys:
        lines.append("Environment variables: " + ", ".join(env_keys))
    if header_keys:
        lines.append("Headers: " + ", ".join(header_keys))
    description = redact_prose(text_field(entry, "description"))
    lines.insert(0, description.strip())
    record = record_from_fields(
        {**entry, "description": description},
        rel,
        NodeKind.MCP_SERVER,
        default_name,
        body="\n".join(x for x in lines if x),
    )
    record.attrs.update({"command": command, "args": args_text, "env_keys": env_keys, "url": url})
    if header_keys:
        record.attrs["header_keys"] = header_keys
    if isinstance(entry.get("type"), str):
        record.attrs["transport"] = entry["type"]
    return record


def bare_url(url: str) -> str:
    """Scheme, host, port and path only: query strings and user info can carry credentials."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "[unparseable url]"
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme else "[relative url]"


def plugin_meta(data: Any) -> dict[str, Any]:
    """The JSON-serialisable fields of a ``plugin.json``, its inline ``mcpServers`` and
    ``hooks`` objects as their names only: their commands, arguments, URLs and environment
    may hold secrets, which the index never keeps (the servers, and the hooks as one hook,
    are indexed as members, redacted, and installed from the file)."""
    if not isinstance(data, dict):
        raise RecordError(f"plugin.json must be a JSON object, got {type(data).__name__}")
    out = {str(k): v for k, v in jsonable(data).items()}
    for key in ("mcpServers", "hooks"):
        if isinstance(out.get(key), dict):
            out[key] = sorted(str(name) for name in out[key])
    return out
