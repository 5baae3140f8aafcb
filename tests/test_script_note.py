"""A query in another script than Latin is warned about while the index's model is the
bundled MiniLM, which was trained on English: a user's Russian request for a fuzzer got
"nothing fits" where the same request in English found three fuzzing skills, and nothing
said why."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.querytext import script_note
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import DEFAULT_MODEL, SentenceTransformerEmbedder

RUSSIAN = "напиши фаззер для библиотеки на C"


@pytest.mark.parametrize(
    ("query", "script"),
    [
        (RUSSIAN, "Cyrillic"),
        ("如何为 Python 项目配置 CI 流水线", "Chinese or Japanese (CJK)"),  # words, not letters, are counted
        ("كيف أنشر تطبيق ويب", "Arabic"),
        ("파이썬 프로젝트 배포 방법", "Korean (Hangul)"),
    ],
)
def test_a_query_mostly_in_another_script_is_warned_about(query: str, script: str) -> None:
    note = script_note(query, DEFAULT_MODEL)
    assert note is not None and f"mostly in {script} script" in note
    assert "ask in English, or index with a multilingual model" in note


@pytest.mark.parametrize(
    "query",
    [
        "Wie richte ich eine CI-Pipeline ein",  # Latin script: read well enough
        "use the café résumé naïve approach",
        "compute the Ω of a Δ network",  # a symbol or two among English words
        "日本語 test query words here",
        "x",
    ],
)
def test_latin_script_queries_are_not(query: str) -> None:
    assert script_note(query, DEFAULT_MODEL) is None


def test_another_model_is_trusted_to_read_the_language() -> None:
    assert script_note(RUSSIAN, "/models/multilingual-e5") is None


def test_the_warning_reaches_the_answer_on_an_index_of_the_bundled_model(
    tmp_path: Path, real_embedder: SentenceTransformerEmbedder
) -> None:
    index = build_tiny_index(tmp_path / "index", embedder=real_embedder)
    try:
        retriever = Retriever(index, reranker=None, cache_size=0)
        warned = [w for w in retriever.search(RUSSIAN).warnings if "Cyrillic" in w]
        assert len(warned) == 1
        assert not [w for w in retriever.search("write a fuzzer for a C library").warnings if "script" in w]
    finally:
        index.close()
