"""A reader that goes away (`skill-retriever query ... | head -1`) ends the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_a_closed_pipe_is_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "ix"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [sample_catalogue_path()])
    proc = subprocess.Popen(
        [sys.executable, "-m", "skill_retriever.cli", "query", "deploy a service", "-k", "20", "--index-dir", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # gone before the first line is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err
