"""Made-up timings for the startup section, so that its tests start no process."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from skill_retriever.bench import startup


def fake_startup_timings(monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """Replace every measurement `startup.run_startup` makes with fixed figures; the MCP
    server's timings it will record."""
    import anyio

    import skill_retriever.adapters.langgraph_server as server

    timing = {"imported_s": 0.5, "ready_s": 1.5, "first_call_ms": 30.0, "later_calls_ms_median": 20.0}
    mcp = {"connected_s": 0.4, "ready_s": 1.2, "first_call_ms": 25.0, "later_calls_ms_median": 9.0}
    monkeypatch.setattr(server, "sample_index_dir", lambda embedder, folder: folder)
    monkeypatch.setattr(startup, "_median_ms", lambda args, env: 100.0)
    monkeypatch.setattr(startup.subprocess, "run", lambda *a, **k: SimpleNamespace(stdout=json.dumps(timing)))
    monkeypatch.setattr(anyio, "run", lambda *a: mcp)
    return mcp
