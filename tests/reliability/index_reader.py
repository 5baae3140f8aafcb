"""A reader process for test_reader_processes.py: queries an index every ``interval``
seconds while another process writes it, until ``stop`` exists. Every few rounds it opens
the index afresh; otherwise it keeps one open and catches up. Prints one JSON line per
round; exits non-zero (with the traceback) on any error other than "no index there yet"
(`IndexNotFoundError`: none at all, or one an index run is still creating).

Usage: python index_reader.py INDEX_DIR STOP_FILE INTERVAL
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from skill_retriever.exceptions import IndexNotFoundError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERIES = ["review a pull request for security issues", "set up kubernetes deployments", "write python tests"]


def main(path: Path, stop: Path, interval: float) -> None:
    kept: Index | None = None
    round_ = 0
    while True:
        finished = stop.exists()  # one last round after the writer has finished
        round_ += 1
        fresh = round_ % 3 == 0 or kept is None
        try:
            index = Index.open(path) if fresh else kept
        except IndexNotFoundError:  # "no index at", or "being built by an index run under way"
            print(json.dumps({"round": round_, "absent": True}), flush=True)
            time.sleep(interval)
            continue
        assert index is not None
        snap = index.snapshot()
        resp = Retriever(index, reranker=None, cache_size=0).search(QUERIES[round_ % len(QUERIES)], principals=["*"])
        status = snap.status()
        assert status["nodes"] == len(snap) and status["vectors"]["nodes"] <= len(snap)
        print(json.dumps({"round": round_, "version": snap.version, "nodes": len(snap), "results": len(resp.results),
                          "fresh": fresh}), flush=True)
        if fresh:
            if kept is not None:
                kept.close()
            kept = index
        if finished:
            break
        time.sleep(interval)
    if kept is not None:
        kept.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3]))
