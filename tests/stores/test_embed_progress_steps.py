"""`index`'s bar moves as each batch of a write is embedded, and no transformers
"Loading weights" bar runs between the index's bars.

Found under load: the bar moved once per 256-item write (about 80 s at 0 %, no rate), and
with ``-v`` transformers' "Loading weights" bar interleaved, its cursor-up escapes
(``[A``) left in the log.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from skill_retriever.indexing import write_result
from skill_retriever.ingest.result import IngestResult
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

pytestmark = pytest.mark.slow

TEXTS = [f"skill {i}: " + "deploy a service with a migration check " * (i % 7 + 1) for i in range(20)]


def test_embedding_with_progress_steps_by_batch_and_gives_the_same_vectors(
    real_embedder: SentenceTransformerEmbedder,
) -> None:
    stepped = SentenceTransformerEmbedder(batch_size=8, numpy_queries=False)
    steps: list[int] = []
    vectors = stepped.embed(TEXTS, steps.append)
    assert steps == [8, 8, 4]
    whole = SentenceTransformerEmbedder(batch_size=8, numpy_queries=False).embed(TEXTS)
    np.testing.assert_allclose(vectors, whole, atol=1e-6)
    assert vectors.dtype == np.float32 and vectors.shape == (20, 384)
    one: list[int] = []
    stepped.embed(TEXTS[:5], one.append)
    assert one == [5]  # a call of one batch or less: one step


def test_write_result_moves_the_bar_within_a_write(tmp_path: Path) -> None:
    nodes = [Node(id=f"s/{i}", kind=NodeKind.SKILL, name=f"skill-{i}", text=t) for i, t in enumerate(TEXTS)]
    embedder = SentenceTransformerEmbedder(batch_size=8, numpy_queries=False)
    with Index.open(tmp_path / "ix", embedder=embedder, create=True) as index:
        moved: list[int] = []
        write_result(index, IngestResult(source="s", nodes=nodes, edges=[]), moved.append)
        # was [20]: once, after the write; the last item's step waits for the commit
        assert moved == [8, 8, 3, 1]
        assert len(index) == 20
        again: list[int] = []
        write_result(index, IngestResult(source="s", nodes=nodes, edges=[]), again.append)
        assert again == [20]  # nothing embedded: the bar moves by the whole write


def test_loading_the_model_shows_no_loading_weights_bar_and_keeps_a_programs_hook() -> None:
    script = (
        "from transformers.utils.logging import set_tqdm_hook\n"
        "from skill_retriever.stores.embedder import SentenceTransformerEmbedder\n"
        "mine = lambda factory, args, kwargs: factory(*args, **kwargs)\n"
        "set_tqdm_hook(mine)\n"
        "SentenceTransformerEmbedder(numpy_queries=False).embed(['a', 'b', 'c', 'd', 'e'])\n"
        "assert set_tqdm_hook(None) is mine, 'the hook a program set is put back'\n"
        "print('loaded')\n"
    )
    env = {**os.environ, "HF_HUB_DISABLE_PROGRESS_BARS": "0", "HF_HUB_OFFLINE": "1"}  # as `-v` sets it
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "loaded", done.stderr
    assert "Loading weights" not in done.stderr, done.stderr
