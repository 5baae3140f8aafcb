"""Fact nodes: one per sentence, named after the passage, joined to what the sentence names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skill_retriever.ingest.facts import doc_sentences, fact_nodes, regex_sentences
from skill_retriever.ingest.passages import ENTITY_LABELS, ingest_passages, load_ner
from skill_retriever.model import EdgeKind, Node, NodeKind

CORPUS = [
    {"idx": 0, "title": "Lothair II",
     "text": "Lothair II was the king of Lotharingia. His mother was Ermengarde of Tours. Short one."},
    {"idx": 1, "title": "Ermengarde of Tours",
     "text": "Ermengarde of Tours was the daughter of Hugh of Tours. She married Lothair I."},
]


def _ingest(tmp_path: Path, **kw: Any) -> Any:
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps(CORPUS), encoding="utf-8")
    return ingest_passages(path, **kw)


def _facts(result: Any) -> dict[str, Node]:
    return {n.id: n for n in result.nodes if n.kind is NodeKind.FACT}


def _named(result: Any, fact_id: str) -> set[str]:
    return {e.target for e in result.edges if e.source == fact_id and e.kind is EdgeKind.MENTIONS}


def test_one_fact_per_sentence_with_the_title_in_front(tmp_path: Path) -> None:
    result = _ingest(tmp_path)  # spaCy's parser splits the sentences
    facts = _facts(result)
    # "Short one." is under MIN_FACT_CHARS: no fact.
    assert sorted(facts) == ["fact:0:0", "fact:0:1", "fact:1:0", "fact:1:1"]
    mother = facts["fact:0:1"]
    assert mother.name == "Lothair II" and mother.text == "His mother was Ermengarde of Tours."
    assert mother.embedding_text() == "Lothair II\nHis mother was Ermengarde of Tours."
    assert mother.attrs["passage"] == "passage:0" and mother.attrs["subject"] == "entity:lothair ii"
    # The sentence's entity, and the passage's own subject (a sentence is about it).
    assert _named(result, "fact:0:1") == {"entity:ermengarde of tours", "entity:lothair ii"}
    assert "entity:lotharingia" not in _named(result, "fact:0:1")  # named in another sentence
    assert "entity:hugh of tours" in _named(result, "fact:1:0")
    part_of = {(e.source, e.target) for e in result.edges if e.kind is EdgeKind.PART_OF}
    assert part_of == {(f, f"passage:{f.split(':')[1]}") for f in facts}


def test_facts_off_and_titles_only(tmp_path: Path) -> None:
    assert not _facts(_ingest(tmp_path, facts=False))
    plain = _ingest(tmp_path, nlp=False)  # no parser: the regular-expression split
    facts = _facts(plain)
    assert facts["fact:1:1"].text == "She married Lothair I."
    # Titles only: the one title in the sentence, and the subject.
    assert _named(plain, "fact:0:1") == {"entity:ermengarde of tours", "entity:lothair ii"}


def test_the_own_title_edge_is_the_heavy_one(tmp_path: Path) -> None:
    result = _ingest(tmp_path, nlp=False, home_weight=16.0)
    weights = {(e.source, e.target): e.weight for e in result.edges if e.source.startswith("passage:")}
    assert weights[("passage:0", "entity:lothair ii")] == 16.0
    assert weights[("passage:0", "entity:ermengarde of tours")] == 1.0


def test_regex_sentences() -> None:
    assert regex_sentences("One sentence here. Another one! A third? 4 more.") == [
        "One sentence here.", "Another one!", "A third?", "4 more."]
    assert regex_sentences("no end") == ["no end"]


def test_fact_nodes_directly() -> None:
    passage = Node(id="passage:7", kind=NodeKind.PASSAGE, name="Title", text="x")
    nodes, edges = fact_nodes(passage, [("A long enough sentence about things.", ["entity:a", "entity:a"]),
                                        ("Tiny.", ["entity:b"])], {}, "entity:title")
    assert [n.id for n in nodes] == ["fact:7:0"]
    assert [(e.target, e.kind) for e in edges] == [
        ("passage:7", EdgeKind.PART_OF), ("entity:title", EdgeKind.MENTIONS), ("entity:a", EdgeKind.MENTIONS)]


def test_doc_sentences_gives_each_sentence_the_entities_span_ents_gives() -> None:
    """One pass over the entities (`Span.ents` per sentence was quadratic: a 1 MB passage
    kept `index` busy past 12 minutes) gives what spaCy's own `Span.ents` gives: an entity
    wholly inside a sentence, none that runs past its end, none of a label not kept."""
    from spacy.tokens import Doc

    words = ["Anna", "Berg", "met", "Carl", ".", "Oslo", "is", "in", "Norway", "Sweden", ".",
             "Then", "Bergen", "2", "won", "."]
    starts = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    # Norway..Then crosses a sentence end; "2" is a CARDINAL, a label facts leave out.
    ents = ["B-PERSON", "I-PERSON", "O", "B-PERSON", "O", "B-GPE", "O", "O", "B-GPE", "I-GPE", "I-GPE",
            "I-GPE", "B-GPE", "B-CARDINAL", "O", "O"]
    doc = Doc(load_ner().vocab, words=words, sent_starts=starts, ents=ents)
    expected = [(s.text, [(e.text, e.label_) for e in s.ents if e.label_ in ENTITY_LABELS]) for s in doc.sents]
    assert list(doc_sentences(doc, ENTITY_LABELS)) == expected
    assert [found for _, found in expected] == [[("Anna Berg", "PERSON"), ("Carl", "PERSON")],
                                                [("Oslo", "GPE")], [("Bergen", "GPE")]]
