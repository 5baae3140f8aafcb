"""The semantic channel's second search (algorithms.feedback) on an index whose vectors
live on a real `chroma run` server: the same feedback items and the same answer as the
same catalogue indexed on disk, and "nothing fits" from the first search there too."""

from __future__ import annotations

from pathlib import Path

from long_catalogue import QUERY, long_catalogue

from skill_retriever.calibration import calibrate_index
from skill_retriever.retriever import Retriever


def test_a_server_index_moves_the_query_as_a_local_one(url: str, tmp_path: Path) -> None:
    local = long_catalogue(tmp_path / "local")
    remote = long_catalogue(tmp_path / "remote", chroma_url=url)
    answers = []
    for index in (local, remote):
        calibrate_index(index)
        answer = Retriever(index, cache_size=0).search(QUERY, k=5, rerank=False, feedback_docs=1)
        plain = Retriever(index, cache_size=0).search(QUERY, k=5, rerank=False, feedback_docs=0)
        assert answer.stats["retrieve_seeds"]["feedback"] == ["skill:queueing"]
        assert answer.ids[:2] == ["skill:queueing", "skill:simpy"]
        assert answer.fit == plain.fit  # read from the search against the query alone
        answers.append(answer)
        index.close()
    assert answers[0].ids == answers[1].ids
    assert answers[0].fit == answers[1].fit
