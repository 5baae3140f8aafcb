"""A line the MCP server cannot read gets a JSON-RPC error, not silence.

The SDK's stdio transport (mcp 2) dropped such a line, and the client waited for good
(found over a real stdio client): a call whose query was cut inside an emoji (the
escape ``\\ud83d``, which Python's and JavaScript's JSON writers both produce), a count
of 5,000 digits, a line that is not JSON. Each now fails at once, with why, and the
server goes on serving.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from mcp_lines import read_reply, send_line

from skill_retriever.adapters.mcp_bad_lines import reply_to
from skill_retriever.stores.index import Index

CALL = '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"search","arguments":%s}}'


def test_a_lone_surrogate_is_answered_to_its_request_naming_where() -> None:
    reply = reply_to(CALL % (7, '{"query":"fuzz \\ud83d"}'), "Invalid JSON: lone leading surrogate")
    assert reply is not None and reply.id == 7 and reply.error.code == -32700
    assert reply.error.message.startswith("the request holds half of a character at params.arguments.query")


def test_a_huge_number_is_answered_to_its_request() -> None:
    reply = reply_to(CALL % ('"a"', '{"query":"x","k":' + "9" * 5000 + "}"), "Invalid JSON: number out of range")
    assert reply is not None and reply.id == "a" and reply.error.code == -32600
    assert "number out of range" in reply.error.message


def test_a_line_that_is_not_json_is_answered_to_id_null() -> None:
    reply = reply_to("this is not json", "Invalid JSON: expected ident")
    assert reply is not None and reply.id is None and reply.error.code == -32700


def test_a_notification_gets_noread_reply() -> None:
    assert reply_to('{"jsonrpc":"2.0","method":"notifications/x","params":{"q":"\\ud83d"}}', "bad") is None


@pytest.fixture
def server(hashed_index: Index) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "skill_retriever.cli", "mcp", "--index-dir", str(hashed_index.path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1",
             **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"}},  # the sources under test
    )  # fmt: skip
    yield process
    process.kill()
    process.wait()




def test_over_stdio_each_bad_line_fails_at_once_and_the_server_goes_on(server: subprocess.Popen[bytes]) -> None:
    send_line(server, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}))
    assert read_reply(server)["id"] == 1
    send_line(server, '{"jsonrpc":"2.0","method":"notifications/initialized"}')
    send_line(server, CALL % (2, '{"query":"fuzz \\ud83d"}'))
    assert read_reply(server)["error"]["message"].startswith("the request holds half of a character")
    send_line(server, CALL % (3, '{"query":"x","k":' + "9" * 5000 + "}"))
    assert read_reply(server)["id"] == 3
    send_line(server, "this is not json")
    assert read_reply(server)["id"] is None
    send_line(server, CALL % (4, '{"query":"format python","k":1}'))
    answer = read_reply(server)
    assert answer["id"] == 4 and answer["result"]["structuredContent"]["results"]


def test_over_stdio_a_blank_line_is_no_message_and_gets_no_reply(server: subprocess.Popen[bytes]) -> None:
    """A blank line (a client's stray newline, ``echo "" | skill-retriever mcp``) was
    answered with a -32700 parse error to id null ("EOF while parsing a value"): it holds
    no message, so there is nothing to answer (JSON-RPC answers requests only), and a
    client reading that error as a failed call of its own would be misled."""
    for line in ("", "   ", "\t"):
        send_line(server, line)
    send_line(server, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
    assert read_reply(server) == {"jsonrpc": "2.0", "id": 1, "result": {}}  # the first reply is the ping's
    send_line(server, "")
    send_line(server, "not json")  # a line that holds something unreadable is still answered
    reply = read_reply(server)
    assert reply["id"] is None and reply["error"]["code"] == -32700
