"""A client that closes its end of the MCP server's stdout (it exited; the reader of a pipe
stopped, `skill-retriever mcp ... | head`) ends the session as the end of stdin does:
exit 0, nothing on stderr but the ready line. The SDK's writer raised ``BrokenPipeError``
through every task group, some forty lines of traceback (seen: a docs walk-through)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_calls import run
from runbook_index import runbook_index

INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}  # fmt: skip
LATER = [{"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]


def test_a_client_that_stops_reading_ends_the_session_quietly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = runbook_index(tmp_path, capsys)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "skill_retriever.cli", "mcp", "--index-dir", ix],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    server.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["id"] == 1  # served
    server.stdout.close()  # the client stops reading
    server.stdin.write("".join(json.dumps(m) + "\n" for m in LATER).encode())  # its answer has nowhere to go
    server.stdin.close()
    assert server.wait(timeout=60) == 0
    err = server.stderr.read().decode()
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert run(capsys, "stats", "--index-dir", ix)[0] == 0  # the index as it was
