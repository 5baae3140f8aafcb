"""An asyncio server warms its `Retriever` up before it serves (README, "Thread safety").

The first search of a process loads the bundled model's weights and tokenizer and
tiktoken's table in native code that holds the GIL while it runs, so a first ``asearch``
stalled the event loop, every other task waiting, although its phases run in worker
threads (seen with a task measuring the loop's lag; importing the same modules in the
loop's own thread first would only stall it longer: the loads are not imports).
`Retriever.warm_up` does all of it up front: after it, in a fresh interpreter with the
real bundled model, the first ``asearch`` imports no module and loads no encoding.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from skill_retriever.model import Node
from skill_retriever.stores.index import Index

PROBE = """
import asyncio, json, sys
from skill_retriever.algorithms import budget
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

retriever = Retriever(Index.open(sys.argv[1]), reranker=None)
spent = retriever.warm_up()
before, loads = set(sys.modules), budget._load_encoding.cache_info().misses
answer = asyncio.run(retriever.asearch("set up structured logging", k=2))
print("PROBE " + json.dumps({
    "steps": list(spent), "imported": sorted(set(sys.modules) - before),
    "encodings_loaded": budget._load_encoding.cache_info().misses - loads,
    "found": [r.id for r in answer.results],
}))
"""


def test_after_warm_up_the_first_asearch_imports_and_loads_nothing(tmp_path: Path) -> None:
    with Index.open(tmp_path / "ix", create=True) as index:  # the bundled MiniLM, as a user's index
        index.add([Node(id="skill:logs", kind="skill", name="logs", text="set up structured logging with JSON lines"),
                   Node(id="skill:trace", kind="skill", name="trace", text="add tracing spans to a web service")])
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "ix")], capture_output=True, text=True,
                         env=env, timeout=300, check=True)
    line = next(x for x in out.stdout.splitlines() if x.startswith("PROBE "))
    probe = json.loads(line.removeprefix("PROBE "))
    assert probe["steps"] == ["model", "views", "tokenizer", "search"]
    assert probe["found"][0] == "skill:logs"
    assert probe["imported"] == [] and probe["encodings_loaded"] == 0, probe
