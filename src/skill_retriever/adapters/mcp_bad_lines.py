"""A reply to each line the MCP server cannot read, instead of silence.

The SDK's stdio transport (mcp 2) hands a line that fails to parse to the server as an
exception, and the server drops it: the client waits for an answer that never comes.
Lines that did so over a real stdio client: JSON that Python's and JavaScript's own
writers produce but the SDK's parser refuses (a string cut inside an emoji, whose half is
the escape ``"\\ud83d"``), a number of 5,000 digits, and a line that is not JSON at all.

Each now gets a JSON-RPC error (`reply_to`): to the request's own id when the line is
JSON that names one, so that the client's call fails at once and says why; to id null
otherwise, code -32700 (parse error), as JSON-RPC 2.0 asks. A notification (no id) gets
no reply, as JSON-RPC 2.0 asks too.
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

__all__ = ["answering_bad_lines", "reply_to", "serve_stdio"]

#: Digits a number may have when the line is read again for its id (Python refuses to
#: turn more than 4,300 into an int; the id itself is short).
_ID_DIGITS = 100
_NO_ID = object()


def reply_to(line: str, why: str) -> types.JSONRPCError | None:
    """The error to answer ``line`` with (``why``: what the SDK's parser said), or None
    for a notification, which gets no reply."""
    try:
        data = json.loads(line, parse_int=lambda s: int(s) if len(s.lstrip("-")) <= _ID_DIGITS else 0)
    except ValueError:
        data = None
    request_id = data.get("id", _NO_ID) if isinstance(data, dict) else None
    if request_id is _NO_ID:
        return None  # a notification
    if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
        request_id = None
    if data is None:
        message = f"the server cannot read this line as JSON ({why}); send one JSON-RPC message per line"
        code = types.PARSE_ERROR
    elif (where := _half_character(data)) is not None:
        message = (f"the request holds half of a character at {where} (a lone UTF-16 surrogate escape "
                   "such as \\ud83d, which UTF-8 cannot hold); send whole characters")
        code = types.PARSE_ERROR
    else:
        message = f"the server cannot read this request ({why}); check its numbers and fields"
        code = types.INVALID_REQUEST
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))


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
    read = errors[0].get("input")  # the line; the object it held, when it was JSON
    line = read if isinstance(read, str) else json.dumps(read, default=str) if isinstance(read, dict) else None
    return None if line is None else (line, str(errors[0].get("msg") or exc))


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
                await send.send(item)
                continue
            read = _line_of(item)
            reply = reply_to(*read) if read is not None else None
            if reply is None:
                await send.send(item)  # the server logs it, as before
                continue
            try:
                await write_stream.send(SessionMessage(reply))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return  # the client is gone


async def serve_stdio(lowlevel: Any) -> None:
    """Serve ``lowlevel`` (the SDK's low-level server) over stdio as the SDK does, with
    `answering_bad_lines` between the transport and the server."""
    async with stdio_server() as (read_stream, write_stream):
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        async with anyio.create_task_group() as tg:
            tg.start_soon(answering_bad_lines, read_stream, write_stream, send)
            await lowlevel.run(receive, write_stream, lowlevel.create_initialization_options())
