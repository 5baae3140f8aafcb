"""Reader processes beside a writer process: `skill-retriever index` of a real corpus runs
while two reader processes query the index every half second. The readers never crash,
the writer exits 0, and the index then equals a clean build (same node, edge and vector
ids). Trials: ``RELIABILITY_READER_TRIALS``, else 5 (ci) or 10 (full)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reliability_support import FULL, count

from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

READER = Path(__file__).with_name("index_reader.py")
TRIALS = int(os.environ.get("RELIABILITY_READER_TRIALS", "10" if FULL else "5"))
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "skills" / "davila7__claude-code-templates"
INTERVAL = 0.5


def corpus() -> Path:
    """The largest real skills repository when the shared data is there, else the sample."""
    return DATA if DATA.is_dir() else sample_catalogue_path()


def ids(path: Path) -> dict[str, list[str]]:
    index = Index.open(path)
    try:
        snap = index.snapshot()
        nodes_v, edges_v = snap.vector_ids()
        return {"nodes": sorted(snap.nodes), "edges": sorted(snap.edges), "node_vectors": sorted(nodes_v),
                "edge_vectors": sorted(edges_v)}
    finally:
        index.close()


@pytest.fixture(scope="module")
def clean_build(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    path = tmp_path_factory.mktemp("clean") / "ix"
    index = Index.open(path, embedder=HashingEmbedder(64), create=True)
    run = index_sources(index, [corpus()])
    index.close()
    assert sum(len(s.nodes) for s in run.sources) > 50
    return ids(path)


@pytest.mark.parametrize("trial", range(TRIALS))
def test_readers_never_crash_and_the_index_equals_a_clean_build(
    tmp_path: Path, clean_build: dict[str, list[str]], trial: int
) -> None:
    path, stop = tmp_path / "ix", tmp_path / "stop"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(Path(__file__).parent)}
    readers = [
        subprocess.Popen([sys.executable, str(READER), str(path), str(stop), str(INTERVAL)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]  # fmt: skip
    time.sleep(0.2 * trial)  # start the writer at a different moment of the readers' cycle
    writer = subprocess.run(
        [sys.executable, "-m", "skill_retriever.cli", "index", str(corpus()), "--index-dir", str(path),
         "--embedder", "hashing-64", "--json"],
        capture_output=True, text=True, env=env, timeout=600, check=False,
    )  # fmt: skip
    stop.touch()
    rounds = 0
    for reader in readers:
        out, err = reader.communicate(timeout=120)
        assert reader.returncode == 0, f"a reader crashed:\n{err[-3000:]}"
        lines = [json.loads(line) for line in out.splitlines()]
        seen = [line for line in lines if not line.get("absent")]
        assert seen, "the reader never saw the index"
        versions = [line["version"] for line in seen if not line["fresh"]]
        assert versions == sorted(versions)  # a reader that stays open only moves forward
        assert seen[-1]["nodes"] == len(clean_build["nodes"])  # and ends on the last commit
        rounds += len(seen)
    assert writer.returncode == 0, writer.stderr[-3000:]
    assert ids(path) == clean_build
    count("reader_rounds_beside_a_writer", rounds)
