"""A Retriever's answer cache and an answer searched in memory for want of its Chroma server,
on a real `chroma run` server. Such an answer was kept under a key that does not change
when the server is filled again (no new index version): asked again after `repair`, the
same question got the old answer back, still saying its search ran in memory and advising
the repair just run, and the reader never looked at the server again for it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from server_index import index_on_server, numbered_skills

from skill_retriever.cli import main
from skill_retriever.retriever import Retriever
from skill_retriever.stores import manifest as mf
from skill_retriever.stores import remote
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.vectors import chroma_client


def test_an_answer_searched_in_memory_is_not_served_again_once_the_server_is_filled(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "C", url, numbered_skills(6), linked=False)
    monkeypatch.setattr(remote, "RECHECK_S", 1.0)
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        retriever = Retriever(reader, reranker=None)
        assert retriever.search("skill number 2").warnings == []
        prefix = mf.read_manifest(path)["collection_prefix"]
        chroma_client(url).delete_collection(f"{prefix}-nodes")
        degraded = retriever.search("skill number 3")
        assert degraded.results[0].id == "s3" and any("in memory" in w for w in degraded.warnings), degraded.warnings
        assert main(["repair", "--index-dir", str(path)]) == 0
        capsys.readouterr()
        time.sleep(1.1)
        again = retriever.search("skill number 3")
        assert again.results[0].id == "s3" and again.warnings == [], again.warnings
        assert retriever.search("skill number 3").stats.get("cache"), "an answer from the server is kept"
