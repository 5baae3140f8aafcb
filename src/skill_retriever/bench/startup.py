"""The ``startup`` section: how fast a user's first answer comes.

- Commands that never embed (``--help``, ``stats``) against ``python -c pass`` in the same
  run (the ratio cancels the machine's speed).
- A cold ``query``, split: interpreter and imports, opening the index, loading the model,
  the first search, a second search.
- The MCP server over stdio (the official client): how long until it says it is ready,
  then the first tool call against the later ones.
- The LangGraph server's graph module (what ``langgraph dev`` imports, with its
  background warm-up): until the warm-up ends, then the first run against later ones
  (in process: no HTTP server between).

Each process is started fresh; medians of a few runs. Index: the bundled sample
catalogue, built with the real model under the cache folder.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from skill_retriever.bench.common import BenchRun, write_json

__all__ = ["run_startup"]

RUNS = 5
COLD_QUERY = """
import json, sys, time
t0 = time.perf_counter()
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index
import skill_retriever.graph
t1 = time.perf_counter()
index = Index.open(sys.argv[1])
retriever = Retriever(index)
t2 = time.perf_counter()
index.embedder.embed(["load"])
t3 = time.perf_counter()
retriever.search("rotate a leaked secret", k=5)
t4 = time.perf_counter()
retriever.search("add tracing to a FastAPI service", k=5)
t5 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "open_index": t2 - t1, "model_load": t3 - t2,
                  "first_query": t4 - t3, "second_query": t5 - t4}))
"""

#: A fresh interpreter imports the server's graph module as ``langgraph dev`` does.
SERVER_GRAPH = """
import json, statistics, sys, threading, time
import importlib.util
t0 = time.perf_counter()
spec = importlib.util.spec_from_file_location("retrieval_graph", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
imported = time.perf_counter() - t0
for thread in threading.enumerate():
    if thread.name == "skill-retriever-warm-up":
        thread.join()
ready = time.perf_counter() - t0
times = []
for i in range(6):
    t = time.perf_counter()
    module.graph.invoke({"query": f"set up structured logging {i}", "k": 3})
    times.append(time.perf_counter() - t)
print(json.dumps({"imported_s": round(imported, 2), "ready_s": round(ready, 2),
                  "first_call_ms": round(1000 * times[0], 1),
                  "later_calls_ms_median": round(1000 * statistics.median(times[1:]), 1)}))
"""


def _wall(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, capture_output=True, env=env, check=True, timeout=300)
    return time.perf_counter() - start


def _median_ms(args: list[str], env: dict[str, str]) -> float:
    return round(1000 * statistics.median(_wall(args, env) for _ in range(RUNS)), 1)


async def _mcp(index_dir: Path, env: dict[str, str], calls: int) -> dict[str, Any]:
    import anyio
    import jsonschema  # noqa: F401 -- the client's: its first result check imports it (about 50 ms)
    from mcp import ClientSession, StdioServerParameters, stdio_client

    log = index_dir.parent / "mcp-stderr.log"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(index_dir)], env=env
    )
    started = time.perf_counter()
    with log.open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            # What every client does on connecting; without it the SDK's first call_tool
            # lists the tools itself (a second round trip) to validate the result.
            await session.list_tools()
            connected = time.perf_counter() - started
            while "ready" not in log.read_text(errors="replace"):
                if time.perf_counter() - started > 300:
                    raise TimeoutError(f"the MCP server never said it was ready: {log.read_text()[-500:]}")
                await anyio.sleep(0.05)
            ready = time.perf_counter() - started
            times = []
            for i in range(calls):
                t = time.perf_counter()
                await session.call_tool("search_components", {"query": f"set up structured logging {i}", "k": 3})
                times.append(time.perf_counter() - t)
    return {
        "connected_s": round(connected, 2),
        "ready_s": round(ready, 2),
        "first_call_ms": round(1000 * times[0], 1),
        "later_calls_ms_median": round(1000 * statistics.median(times[1:]), 1),
    }


def run_startup(run: BenchRun) -> None:
    """Startup and first-answer latency (see the module doc)."""
    import anyio

    from skill_retriever.adapters.langgraph_server import sample_index_dir

    started = time.perf_counter()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}
    # Built atomically like the LangGraph server's own sample index, here under the cache.
    index_dir = sample_index_dir(run.embedder, run.opts.cache / "startup__sample")
    cli = [sys.executable, "-m", "skill_retriever.cli"]
    baseline = _median_ms([sys.executable, "-c", "pass"], env)
    commands = {
        "--help": _median_ms([*cli, "--help"], env),
        "--version": _median_ms([*cli, "--version"], env),
        "stats": _median_ms([*cli, "stats", "--index-dir", str(index_dir)], env),
    }
    query_wall = _median_ms([*cli, "query", "rotate a leaked secret", "--index-dir", str(index_dir), "-k", "3"], env)
    split_runs = [
        json.loads(subprocess.run([sys.executable, "-c", COLD_QUERY, str(index_dir)], capture_output=True, text=True,
                                  env=env, check=True, timeout=300).stdout.strip().splitlines()[-1])
        for _ in range(3)
    ]  # fmt: skip
    split = {k: round(1000 * statistics.median(r[k] for r in split_runs), 1) for k in split_runs[0]}
    mcp = anyio.run(_mcp, index_dir, env, 6)
    server_graph = Path(__file__).resolve().parents[3] / "graphs" / "retrieval.py"
    langgraph_server = None
    if server_graph.is_file():  # a source checkout (the module is not in the wheel)
        langgraph_server = json.loads(subprocess.run(
            [sys.executable, "-c", SERVER_GRAPH, str(server_graph)], capture_output=True, text=True,
            env={**env, "SKILL_RETRIEVER_INDEX": str(index_dir)}, check=True, timeout=300,
        ).stdout.strip().splitlines()[-1])
    result = {
        "section": "startup",
        "python_c_pass_ms": baseline,
        "commands_ms": commands,
        "commands_over_python": {k: round(v / baseline, 1) for k, v in commands.items()},
        "cold_query_wall_ms": query_wall,
        "cold_query_split_ms": split,
        "mcp": mcp,
        "langgraph_server": langgraph_server,
        "seconds": round(time.perf_counter() - started, 1),  # the report's made-by line names it
        **run.stamp(),
    }
    write_json(run.results / "startup.json", result)
    run.publish(result)  # the report's short table, not the JSON (kept in startup.json)
