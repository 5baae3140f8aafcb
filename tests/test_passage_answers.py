"""On a passage corpus (one that holds facts), every route answers with passages: facts
(sentences of a passage) and entities (a few words) are never answers unless the caller
asks for their kinds (`passage_views.answer_filters`). The ppr route kept them out; the
quick and smart routes' graph channel did not."""

from __future__ import annotations

import json

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

CORPUS = [
    {"idx": 0, "title": "Lilu", "text": "Lilu is a demon of Akkadian lore. The Lilu haunts deserted places."},
    {"idx": 1, "title": "Gallu", "text": "Gallu is a demon of the Sumerian underworld. Gallu drags victims below."},
    {"idx": 2, "title": "Akkadian language", "text": "Akkadian is an extinct Semitic language of Mesopotamia."},
    {"idx": 3, "title": "Utukku", "text": "Utukku are spirits of Akkadian myth. Some Utukku are demons."},
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    folder = tmp_path_factory.mktemp("corpus")
    (folder / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    index = Index.open(folder / "ix", embedder=HashingEmbedder(), create=True)
    index_sources(index, [folder], "passages", calibrate=False)
    assert any(n.kind.value == "fact" for n in index.nodes.values())
    return index


@pytest.mark.parametrize("route", ["quick", "smart", "ppr", None])
def test_every_route_answers_with_passages(index: Index, route: str | None) -> None:
    retriever = Retriever(index, config=RetrievalConfig(rerank=False))
    answer = retriever.search("Lilu demon Akkadian", k=8, route=route)  # more than the passages
    assert answer.results and {r.kind for r in answer.results} == {"passage"}, [(r.kind, r.name) for r in answer.results]


def test_facts_and_entities_come_back_when_asked_for(index: Index) -> None:
    retriever = Retriever(index, config=RetrievalConfig(rerank=False))
    answer = retriever.search("Lilu demon Akkadian", k=4, route="quick", kinds=["entity", "fact"])
    assert answer.results and {r.kind for r in answer.results} <= {"entity", "fact"}
