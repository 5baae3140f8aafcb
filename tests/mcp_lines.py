"""Raw JSON-RPC lines to and from a real ``skill-retriever mcp`` process over stdio, for
the tests that send what no SDK client would (bad lines, a client that leaves at once)."""

from __future__ import annotations

import json
import select
import subprocess
from typing import Any


def send_line(server: subprocess.Popen[bytes], line: str) -> None:
    """One line to the server's stdin (a lone surrogate kept, to test half a character)."""
    assert server.stdin is not None
    server.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
    server.stdin.flush()


def read_reply(server: subprocess.Popen[bytes], wait: float = 60) -> dict[str, Any]:
    """The server's next line, as JSON; fails the test after ``wait`` seconds of silence."""
    assert server.stdout is not None
    ready, _, _ = select.select([server.stdout], [], [], wait)
    assert ready, f"no reply within {wait} s"
    answer: dict[str, Any] = json.loads(server.stdout.readline())
    return answer
