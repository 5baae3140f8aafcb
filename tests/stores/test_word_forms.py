"""A query tokenizes each item's text once: the injection scan's keyword-stuffing check and
the reason line's word forms read the same words (`algorithms.tokenize.bm25_tokens`), and
the forms are made from the scan's words wherever those are the same (``stores.word_forms``).

Seen with cProfile on ``skill-retriever query "..." -k 3000 --json`` over two real skill
catalogues (725 items): `bm25_tokens` ran 1,446 times, twice per item, once for the scan
and once for the reasons. The forms made from the scan's words must be the forms read alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from skill_retriever.algorithms import tokenize
from skill_retriever.components.word_matches import WordMatch, word_matches
from skill_retriever.config import RetrievalConfig
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.safety import injection
from skill_retriever.stores import word_forms
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import COVERAGE_CHARS
from skill_retriever.stores.word_forms import WordForms

SHORT = [
    Node(id="a", kind=NodeKind.SKILL, name="canary rollout", text="Deploying canaries: baked images, checkout-api v3."),
    Node(id="b", kind=NodeKind.SKILL, name="canary notes", text="Deployed canary notes. " * 50),
    Node(id="c", kind=NodeKind.AGENT, name="canary-watcher", text="Watches deployments of a canary; deploy-v3.5.0"),
]
# A word runs across the end of what the reasons read: they read its head ("depl"), the
# scan reads it whole; one tokenization cannot serve both. ("canary book\n" is 12 characters.)
LONG = Node(id="long", kind=NodeKind.SKILL, name="canary book", text="x" * (COVERAGE_CHARS - 17) + " deployable canary" * 100)


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "ix", embedder=HashingEmbedder(32), create=True)
    opened.upsert([*SHORT, LONG])
    yield opened
    opened.close()


@pytest.fixture
def tokenized(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often the real `bm25_tokens` read each text (by its first 20 characters), by
    every module that calls it on an item's text."""
    seen: Counter[str] = Counter()
    real: Callable[[str], list[str]] = tokenize.bm25_tokens

    def counting(text: str) -> list[str]:
        seen[text[:20]] += 1
        return real(text)

    monkeypatch.setattr(injection, "bm25_tokens", counting)
    monkeypatch.setattr(word_forms, "bm25_tokens", counting)
    return seen


def _query_with_reasons(index: Index, query: str) -> dict[str, tuple[WordMatch, ...]]:
    """What a front end does: search, then the reason line's words of each result."""
    retriever = Retriever(index, RetrievalConfig(rerank=False), reranker=None, cache_size=0)
    snap = index.snapshot()
    return {r.id: word_matches(query, snap.get(r.id), snap) for r in retriever.search(query, k=10, route="quick").results}


def test_a_query_with_reasons_tokenizes_each_item_once(index: Index, tokenized: Counter[str]) -> None:
    found = _query_with_reasons(index, "deploy a canary")
    assert set(found) >= {"a", "b", "c"}
    assert found["a"] == (WordMatch("deploy", "deploying"), WordMatch("canary", "canary"))
    for node in SHORT:
        assert tokenized[node.embedding_text()[:20]] == 1, node.id


def test_forms_from_the_scans_words_are_the_forms_read_alone(index: Index, tokenized: Counter[str]) -> None:
    _query_with_reasons(index, "deploy a canary")
    snap = index.snapshot()
    for node in [*SHORT, LONG]:
        assert snap.word_forms(node) == WordForms.of(node.embedding_text(), COVERAGE_CHARS), node.id
    forms = snap.word_forms(LONG)
    assert LONG.embedding_text()[COVERAGE_CHARS - 5 : COVERAGE_CHARS + 1] == " deplo"
    assert "depl" in forms.tokens and "deployable" not in forms.tokens and "canary" in forms.tokens


def test_forms_are_read_alone_where_no_scan_ran(index: Index) -> None:
    snap = index.snapshot()
    assert snap.word_forms(snap.get("a")).by_stem["deploy"] == "deploying"
    assert snap.flags(snap.get("a")) == ()  # after the forms: the memo keeps the forms it has
    assert snap.word_forms(snap.get("a")) == WordForms.of(SHORT[0].embedding_text(), COVERAGE_CHARS)
