"""What installing an MCP server writes: its ``.mcp.json`` entry.

The entry is the source file's when it may be read (the keys of `MCP_ENTRY_KEYS`; any
other but catalogue metadata is named in a note and in ``left_out_keys``), else rebuilt
from the index, which keeps no secrets: environment values become
``${NAME}`` references (the index keeps names only), and what the indexer redacted (an
argument, part of the command: `REDACTED`) stays redacted, with a note to set it in
``.mcp.json``. The index keeps a remote server's URL bare (no user info, no query), so a
rebuilt URL comes with a note that its credentials or query may need setting again, and
its headers' names only: each becomes a ``${NAME}`` reference, with a note. A
remote server gets the ``type`` Claude Code needs (`_with_type`). A plugin's server that
runs from the plugin's folder (``${CLAUDE_PLUGIN_ROOT}``) is skipped (`_outside_plugin`).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from skill_retriever.components.install.entry_members import entry_of
from skill_retriever.components.install.paths import read_source
from skill_retriever.components.install.placeholders import unfilled_notes
from skill_retriever.components.install.plugin_root import PLUGIN_VAR_RE
from skill_retriever.components.install.rendered import Rendered, SkipComponent, rebuilt_note
from skill_retriever.components.install.settings import MCP_CATALOGUE_KEYS, MCP_ENTRY_KEYS
from skill_retriever.ingest.skill_configs import REDACTED, server_map
from skill_retriever.model import Node

__all__ = ["render_mcp"]


def render_mcp(node: Node) -> Rendered:
    """The ``mcpServers`` entry: from the source file when it may be read, else rebuilt
    from the index (see the module docstring for what the notes then say).

    Raises:
        SkipComponent: The index holds neither a command nor a URL for it.
    """
    found = read_source(node, (".json",))
    if found is not None:
        try:
            data = json.loads(found.data.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError):
            data = None
        raw = _raw_of(entry_of(node, data), node)
        if raw is not None:
            from_file = _with_type({k: raw[k] for k in MCP_ENTRY_KEYS if k in raw})
            left_out = sorted(k for k in raw if k not in MCP_ENTRY_KEYS and k not in MCP_CATALOGUE_KEYS)
            notes = [_left_out_note(left_out)] if left_out else []
            return Rendered(
                mcp_entry=_outside_plugin(from_file), notes=notes + unfilled_notes(from_file), left_out_keys=left_out
            )
    out = Rendered(notes=[rebuilt_note(node)])
    a = node.attrs
    entry: dict[str, Any] = {}
    if a.get("transport"):
        entry["type"] = a["transport"]
    if a.get("command"):
        entry["command"] = a["command"]
        entry["args"] = list(a.get("args") or [])
        if REDACTED in str(entry["command"]):
            out.notes.append("part of the command was redacted in the index: set it in .mcp.json")
        if any(REDACTED in str(x) for x in entry["args"]):
            out.notes.append("an argument was redacted in the index: set it in .mcp.json")
    if a.get("url"):
        entry["url"] = a["url"]
        out.notes.append(
            "the index keeps the URL without its user info or query: if the server needs "
            "credentials or a query in it, set them again in .mcp.json"
        )
    if a.get("env_keys"):
        entry["env"] = {k: f"${{{k}}}" for k in a["env_keys"]}
    if a.get("header_keys") and "url" in entry:  # names only: values may be credentials
        entry["headers"] = {k: f"${{{_env_name(k)}}}" for k in a["header_keys"]}
        out.notes.append(
            f"the index keeps its headers' names only ({', '.join(a['header_keys'])}): each is "
            "written as an environment variable reference; set those, or the values, in .mcp.json"
        )
    if not ("command" in entry or "url" in entry):
        raise SkipComponent("the index holds neither a command nor a URL for this MCP server")
    out.mcp_entry = _outside_plugin(_with_type(entry))
    out.notes += unfilled_notes(entry)
    return out


def _env_name(header: str) -> str:
    """An environment variable name for a header's value (``X-Api-Key`` -> ``X_API_KEY``)."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", header).strip("_").upper() or "HEADER"


def _outside_plugin(entry: dict[str, Any]) -> dict[str, Any]:
    """``entry``, unless it names ``${CLAUDE_PLUGIN_ROOT}``: a plugin's server run from
    the plugin's folder. Claude Code sets that variable for a plugin's own servers only;
    in a project's ``.mcp.json`` it is unset (a missing variable Claude Code reports, the
    server not started), and the server's files are the plugin's.

    Raises:
        SkipComponent: The entry names the plugin's folder.
    """
    if PLUGIN_VAR_RE.search(json.dumps(entry)):
        raise SkipComponent(
            "it runs from its plugin's folder (${CLAUDE_PLUGIN_ROOT}), which is set only "
            "for a plugin's own servers: install the plugin with /plugin install, or copy "
            "the server's files and add it to .mcp.json by hand"
        )
    return entry


#: A URL whose path ends in ``/sse`` is a Server-Sent Events endpoint (the older MCP HTTP
#: transport, conventionally served at ``/sse``).
_SSE_PATH_RE = re.compile(r"/sse/?$", re.IGNORECASE)


def _with_type(entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with the ``type`` Claude Code needs for a remote server.

    ``.mcp.json`` reads a URL server only with its transport in ``type``: ``"http"``
    (Streamable HTTP) or ``"sse"`` (Server-Sent Events); a ``command`` server is stdio
    and needs none. The rule: a ``type`` the source gave is kept as given; a URL server
    without one gets ``"sse"`` when its URL's path ends in ``/sse`` (query and fragment
    ignored), else ``"http"``, the transport current MCP servers serve; a stdio server is
    left as it is (``command``/``args``/``env``).
    """
    if entry.get("type") or not isinstance(entry.get("url"), str) or "command" in entry:
        return entry
    try:
        path = urlsplit(entry["url"]).path
    except ValueError:  # not a URL urllib can split (a placeholder host): judge the text
        path = entry["url"].split("?", 1)[0].split("#", 1)[0]
    kind = "sse" if _SSE_PATH_RE.search(path) else "http"
    return {"type": kind, **entry}


def _left_out_note(keys: list[str]) -> str:
    """The line that says which keys of a server's source entry ``.mcp.json`` does not get:
    other clients' settings (Cline's ``autoApprove``, ``transportType``, a ``timeout`` in
    seconds, where Claude Code's own limits are milliseconds set by environment)."""
    return f"left out of .mcp.json: {', '.join(keys)} (Claude Code's .mcp.json documents none of them)"


def _raw_of(data: Any, node: Node) -> dict[str, Any] | None:
    """The server's entry as the source file holds it, every key: None when there is none
    with a command or a URL."""
    if not isinstance(data, dict):
        return None
    servers = data.get("mcpServers")
    if servers is None and server_map(data):  # a plugin's .mcp.json: names to servers, no key
        servers = data
    key = node.id.rsplit("#", 1)[1] if "#" in node.id else node.name
    raw = servers.get(key) if isinstance(servers, dict) else (data if servers is None else None)
    if not isinstance(raw, dict) or not ("command" in raw or "url" in raw):
        return None
    return raw
