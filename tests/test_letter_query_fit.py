"""A query of single letters gets no "keywords agree" bonus on the "nothing fits" line: a
lone letter matches any text that writes it, which is no evidence that two channels found
one answer. Found in a walkthrough: on anthropics__skills the query "x" matched
slack-gif-creator's "make me a GIF of X doing Y" by keyword, took the bonus and answered
with confidence 0.86, while "zz" and "qwerty" were flagged. Real embedder, calibrated as
`index` does."""

from __future__ import annotations

import pytest
from calibrated_graph import calibrated_graph_index

from skill_retriever.calibration.fit import keywords_can_agree
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

NODES = [
    {"id": "skill:gif", "kind": "skill", "name": "slack-gif-creator",
     "text": "Creates animated GIFs for Slack, as in: make me a GIF of X doing Y for Slack."},
]  # fmt: skip


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, real_embedder):  # type: ignore[no-untyped-def]
    idx = calibrated_graph_index(tmp_path_factory.mktemp("letters"), NODES, real_embedder)
    yield idx
    idx.close()


@pytest.mark.parametrize("text", ["x", "X", "x y", "r"])
def test_a_query_of_lone_letters_gets_no_agreement(index: Index, text: str) -> None:
    response = Retriever(index, cache_size=0).search(text, k=3, rerank=False)
    # the one item is both channels' best: only the letter rule keeps the bonus off
    assert response.ids[:1] == ["skill:gif"]
    assert response.fit is not None and not response.fit["agree"], (text, response.fit)


def test_a_word_still_lets_keywords_agree(index: Index) -> None:
    response = Retriever(index, cache_size=0).search("animated gif for slack", k=3, rerank=False)
    assert response.fit is not None and response.fit["agree"] and not response.nothing_fits, response.fit


@pytest.mark.parametrize(("text", "can"), [("x", False), ("a b c", False), ("C#", False), ("go", True), ("post to x", True)])
def test_keywords_can_agree_needs_a_term_of_two_characters(text: str, can: bool) -> None:
    assert keywords_can_agree(text) is can
