"""The index cache keeps one entry per embedding model: ``benchmark --embedder X`` with the
default cache rebuilt every MiniLM index in place (the model is in the entry's fingerprint,
not in its folder), so the next default run embedded every set again."""

from __future__ import annotations

from pathlib import Path

from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.bench.index_cache import cached_index, entry_dir
from skill_retriever.ingest.result import IngestResult
from skill_retriever.stores.embedder import (
    DEFAULT_MODEL,
    HashingEmbedder,
    SentenceTransformerEmbedder,
)


def tiny(work: Path) -> IngestResult:
    return IngestResult(source="tiny", nodes=tiny_nodes(), edges=tiny_edges())


def test_a_minilm_entry_survives_a_run_with_another_embedder(tmp_path: Path) -> None:
    minilm = SentenceTransformerEmbedder()
    index, first = cached_index(tmp_path, "skills__dev", {"v": 1}, tiny, minilm, log=lambda _: None)
    index.close()
    lines: list[str] = []
    index, other = cached_index(tmp_path, "skills__dev", {"v": 1}, tiny, HashingEmbedder(64), log=lines.append)
    index.close()
    assert not other.reused and not any("rebuilding" in line for line in lines)
    index, again = cached_index(tmp_path, "skills__dev", {"v": 1}, tiny, minilm, log=lambda _: None)
    index.close()
    assert not first.reused and again.reused  # the MiniLM entry was kept beside the other
    assert entry_dir(tmp_path, "skills__dev", DEFAULT_MODEL) == tmp_path / "skills__dev"  # old caches stay valid
    hashing = entry_dir(tmp_path, "skills__dev", "hashing-64")
    assert hashing != tmp_path / "skills__dev" and hashing.parent == tmp_path and (hashing / "index").is_dir()


def test_models_whose_names_read_alike_get_their_own_entries(tmp_path: Path) -> None:
    a, b = entry_dir(tmp_path, "k", "org/model-a"), entry_dir(tmp_path, "k", "org_model-a")
    assert a != b and a.parent == b.parent == tmp_path
