"""A reply to each line the MCP server cannot read, instead of silence.

The SDK's stdio transport (mcp 2) hands a line that fails to parse to the server as an
exception, and the server drops it: the client waits for an answer that never comes.
Lines that did so over a real stdio client: JSON that Python's and JavaScript's own
writers produce but the SDK's parser refuses (a string cut inside an emoji, whose half is
the escape ``"\\ud83d"``), a number of 5,000 digits, and a line that is not JSON at all.

Each now gets a JSON-RPC error (`reply_to`): to the request's own id when the line is
JSON that names one, so that the client's call fails at once and says why; to id null
otherwise, code -32700 (parse error), as JSON-RPC 2.0 asks. A notification (no id) gets
no reply, as JSON-RPC 2.0 asks too. A blank line holds no message at all (the stdio
transport's messages are delimited by newlines, so a stray one is an empty gap between
two): it gets no reply either, where a -32700 to id null told the client of an error
in nothing it sent.

JSON that is no request went unanswered as well: ``[]``, ``{}``, ``123``, ``null``,
``"text"``, a batch (an array of requests, which this protocol version does not take),
and a request whose id is an object, which the SDK reads as a notification
(`request_without_id`). Each gets an Invalid Request error (-32600) that says what is
wrong and what to send, to id null unless the object names a usable id.

A ``tools/call`` whose ``arguments`` is no JSON object (``"arguments": "notadict"``), or
that names no tool, got the SDK's bare -32602 "Invalid request parameters" with empty
data: nothing said which field was wrong. It now gets -32602 to its own id, saying that
(`bad_tool_call`).
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from anyio.abc import ObjectReceiveStream, ObjectSendStream
from mcp import types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

__all__ = ["answering_bad_lines", "bad_tool_call", "reply_to", "request_without_id", "serve_stdio"]

#: Digits a number may have when the line is read again for its id (Python refuses to
#: turn more than 4,300 into an int; the id itself is short).
_ID_DIGITS = 100
_UNREAD = object()
_ONE_PER_LINE = "send one JSON-RPC 2.0 request object per line"


def reply_to(line: str, why: str) -> types.JSONRPCError | None:
    """The error to answer ``line`` with (``why``: what the SDK's parser said), or None
    for a notification, which gets no reply."""
    try:
        data = json.loads(line, parse_int=lambda s: int(s) if len(s.lstrip("-")) <= _ID_DIGITS else 0)
    except ValueError:
        data = _UNREAD
    if data is _UNREAD:
        message = f"the server cannot read this line as JSON ({why}); send one JSON-RPC message per line"
        return _error(None, types.PARSE_ERROR, message)
    if not isinstance(data, dict):  # JSON, but no request: `[]`, `123`, `null`, `"text"`, a batch
        return _error(None, types.INVALID_REQUEST, _not_an_object(data))
    if "id" not in data and isinstance(data.get("method"), str):
        return None  # a notification
    request_id = data.get("id")
    if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
        request_id = None  # none to answer to: id null, as JSON-RPC 2.0 asks
    if (where := _half_character(data)) is not None:
        message = (f"the request holds half of a character at {where} (a lone UTF-16 surrogate escape "
                   "such as \\ud83d, which UTF-8 cannot hold); send whole characters")
        return _error(request_id, types.PARSE_ERROR, message)
    if (problem := _request_problem(data)) is not None:
        return _error(request_id, types.INVALID_REQUEST, f"this is no JSON-RPC request: {problem}; {_ONE_PER_LINE}")
    message = f"the server cannot read this request ({why}); check its numbers and fields"
    return _error(request_id, types.INVALID_REQUEST, message)


def request_without_id(message: Any) -> types.JSONRPCError | None:
    """The error to answer a message the SDK read as a notification although its method is
    a request's (``ping``, ``tools/call``; every MCP notification is ``notifications/...``),
    or None. The SDK reads a request whose id is an object, a boolean, a fraction or null
    as a notification, drops that id and never answers; the client waits for good."""
    if not isinstance(message, types.JSONRPCNotification) or message.method.startswith("notifications/"):
        return None
    said = (f"{message.method!r:.60} is a request, and a request needs an id the answer can name: a string "
            "or an integer (this one had another kind of id, or none); send it again with one")
    return _error(None, types.INVALID_REQUEST, said)


def bad_tool_call(message: Any) -> types.JSONRPCError | None:
    """The error to answer a ``tools/call`` request with whose params the SDK would refuse
    without naming the field (a tool name that is no string, arguments that are no JSON
    object), or None for any other message."""
    if not isinstance(message, types.JSONRPCRequest) or message.method != "tools/call":
        return None
    params = message.params or {}
    name, arguments = params.get("name"), params.get("arguments")
    if not isinstance(name, str):
        got = _json_kind(name) if "name" in params else "none"
        said = f"tools/call needs params.name, the tool's name as a string (tools/list lists them), got {got}"
    elif arguments is not None and not isinstance(arguments, dict):
        said = (f"tools/call params.arguments must be a JSON object of the tool's arguments by name, such as "
                f'{{"query": "..."}}, got {_json_kind(arguments)}; send {{}} when there are none')
    else:
        return None
    return _error(message.id, types.INVALID_PARAMS, said)


def _json_kind(value: Any) -> str:
    """What ``value`` is, in JSON's words."""
    kinds = {str: "a string", bool: "a boolean", list: "an array", dict: "an object", type(None): "null"}
    return kinds.get(type(value), "a number")


def _error(request_id: str | int | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))


def _not_an_object(data: Any) -> str:
    """Why a line of JSON that is no object is no request, and what to send instead."""
    if isinstance(data, list) and data and all(isinstance(d, dict) for d in data):
        return ("a batch (a JSON array of requests) is not supported in this protocol version; "
                "send one request per line")
    return f"this line is JSON ({_json_kind(data)}), not a request object; {_ONE_PER_LINE}"


def _request_problem(data: dict[str, Any]) -> str | None:
    """What keeps a JSON object from being a request, or None when its fields are there."""
    if data.get("jsonrpc") != "2.0":
        return 'it has no "jsonrpc": "2.0"'
    request_id = data.get("id")
    if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
        return f"its id must be a string or an integer, got {json.dumps(request_id)[:40]}"
    if not isinstance(data.get("method"), str) and "result" not in data and "error" not in data:
        return 'it names no "method"'
    return None


def _half_character(value: Any, where: str = "") -> str | None:
    """Where in ``value`` a string holds a lone surrogate (``params.arguments.query``), or None."""
    if isinstance(value, str):
        return (where or "the top level") if any(0xD800 <= ord(c) <= 0xDFFF for c in value) else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and _half_character(key) is not None:
            return f"{where}.{key!r}".lstrip(".")
        found = _half_character(item, f"{where}.{key}".lstrip(".") if isinstance(key, str) else f"{where}[{key}]")
        if found is not None:
            return found
    return None


def _line_of(exc: Exception) -> tuple[str, str] | None:
    """The line a parse failure was about and what the parser said, or None when it
    does not carry them."""
    if not isinstance(exc, ValidationError):
        return None
    errors = exc.errors(include_url=False)
    if not errors:
        return None
    read = errors[0].get("input")  # the line when it is no JSON; else the value it held
    if errors[0].get("type") != "json_invalid":  # JSON: `"text"` is a string, not a line to read again
        read = json.dumps(read, default=str)
    return None if not isinstance(read, str) else (read, str(errors[0].get("msg") or exc))


async def answering_bad_lines(
    read_stream: ObjectReceiveStream[SessionMessage | Exception],
    write_stream: ObjectSendStream[SessionMessage],
    send: ObjectSendStream[SessionMessage | Exception],
) -> None:
    """Forward what the transport read to ``send`` (the server's read stream), answering
    each line it could not read on ``write_stream`` instead of forwarding it."""
    async with send:
        async for item in read_stream:
            if not isinstance(item, Exception):
                reply = request_without_id(item.message) or bad_tool_call(item.message)
            elif (read := _line_of(item)) is not None:
                if not read[0].strip():
                    continue  # a blank line: no message, nothing to answer or to serve
                reply = reply_to(*read)
            else:
                reply = None
            if reply is None:
                await send.send(item)  # served; or, an exception, logged by the server as before
                continue
            try:
                await write_stream.send(SessionMessage(reply))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return  # the client is gone


async def serve_stdio(lowlevel: Any) -> None:
    """Serve ``lowlevel`` (the SDK's low-level server) over stdio as the SDK does, with
    `answering_bad_lines` between the transport and the server. A client that closes its
    end of stdout (it exited; a pipe's reader stopped) ends the serving as the end of stdin
    does, quietly: the SDK's writer raised ``BrokenPipeError`` through every task group, a
    traceback of some forty lines for the normal end of a session."""
    try:
        async with stdio_server() as (read_stream, write_stream):
            send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
            async with anyio.create_task_group() as tg:
                tg.start_soon(answering_bad_lines, read_stream, write_stream, send)
                await lowlevel.run(receive, write_stream, lowlevel.create_initialization_options())
    except* (BrokenPipeError, ConnectionResetError):
        pass  # nobody reads the answers any more: the session is over, as at the end of stdin
