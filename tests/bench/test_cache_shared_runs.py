"""Two benchmark runs sharing an index cache (the same --out or --cache) take turns on an
entry: the second waits for the first's build, then reuses it.

Found by a walkthrough: a second run started while the first was building an entry read it
as half-built ("a run stopped while building it"), deleted it and built its own; the first
then failed ("items.sqlite was deleted or replaced since the index was opened") and, taking
its entry back, deleted the second run's finished one.
"""

from __future__ import annotations

import fcntl
import json
import threading
import time
from pathlib import Path

from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench.index_cache import cached_index, entry_dir
from skill_retriever.ingest.result import IngestResult
from skill_retriever.stores.embedder import HashingEmbedder


def tiny(work: Path) -> IngestResult:
    return IngestResult(source="tiny", nodes=tiny_nodes(), edges=tiny_edges())


def test_an_entry_another_run_is_building_is_waited_for_then_reused(tmp_path: Path) -> None:
    index, _ = cached_index(tmp_path, "k", {"v": 1}, tiny, HashingEmbedder(), log=lambda _: None)
    index.close()
    home = entry_dir(tmp_path, "k", HashingEmbedder().name)  # the model's own entry of key "k"
    stamp = home / "bench-cache.json"
    done = json.loads(stamp.read_text())
    stamp.write_text(json.dumps({**done, "complete": False}))  # as the other run's build in progress leaves it
    with (tmp_path / f"{home.name}.lock").open("a+") as other:  # the other run, building
        fcntl.flock(other, fcntl.LOCK_EX)
        other.truncate(0)
        other.write("4242")  # its pid, as a run writes it
        other.flush()
        lines: list[str] = []
        second = threading.Thread(target=lambda: cached_index(tmp_path, "k", {"v": 1}, tiny, HashingEmbedder(),
                                                              log=lines.append)[0].close())
        second.start()
        time.sleep(0.5)
        assert second.is_alive() and lines == [f"  another run (pid 4242) is building the cached index {home.name}; waiting for it"]
        assert (home / "index").is_dir()  # the other run's entry is untouched
        stamp.write_text(json.dumps(done))  # its build ends
    second.join(10)
    assert not second.is_alive()
    assert lines[1].startswith("  reusing the cached index k ")
