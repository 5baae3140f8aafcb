"""Benchmark sections that measure nothing: each writes a fixed result stamped with the run's
inputs and counts its runs, for tests of what a run reuses (`bench.reuse`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from skill_retriever.bench.common import BenchRun

__all__ = ["battery_section", "startup_section"]


def _section(name: str, body: dict[str, Any], calls: list[str] | None) -> Callable[[BenchRun], None]:
    def run(bench: BenchRun) -> None:
        if calls is not None:
            calls.append(name)
        result = {"section": name, **body, **bench.stamp()}
        (bench.results / f"{name}.json").write_text(json.dumps(result))
        bench.publish(result)

    return run


def battery_section(calls: list[str] | None = None) -> Callable[[BenchRun], None]:
    """A battery of one passed check; ``calls`` gets "battery" at each run."""
    return _section("battery", {"family": "battery", "name": "seed battery", "key": "battery", "passed": 1,
                                "failed": 0, "checks": [{"name": "c", "ok": True, "detail": "fine"}], "seconds": 0.1},
                    calls)


def startup_section(calls: list[str] | None = None) -> Callable[[BenchRun], None]:
    """Start-up timings of made-up figures; ``calls`` gets "startup" at each run."""
    return _section("startup", {"python_c_pass_ms": 10.0, "commands_ms": {"--help": 90.0},
                                "commands_over_python": {"--help": 9.0}, "cold_query_wall_ms": 1800.0,
                                "cold_query_split_ms": {"imports": 1000.0},
                                "mcp": {"connected_s": 2.0, "ready_s": 2.1, "first_call_ms": 59.0,
                                        "later_calls_ms_median": 41.0}},
                    calls)
