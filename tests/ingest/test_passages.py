"""ingest_passages: passages, merged entities from real spaCy NER and titles, MENTIONS edges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.passages import (
    MultihopQuery,
    ingest_passages,
    load_multihop_queries,
    load_ner,
    normalise_entity,
)
from skill_retriever.model import EdgeKind, NodeKind

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "multihop"

CORPUS = [
    {"idx": 0, "title": "The Beatles",
     "text": "The Beatles were an English rock band formed in Liverpool in 1960. "
             "John Lennon and Paul McCartney wrote most of their songs."},
    {"idx": 1, "title": "Abbey Road",
     "text": "Abbey Road is the eleventh studio album by the English rock band the Beatles, "
             "released on 26 September 1969 by Apple Records."},
    {"idx": 2, "title": "Liverpool",
     "text": "Liverpool is a port city in England. Beatles tribute bands still play there."},
    {"idx": 3, "title": "Stephen (novel)",
     "text": "Stephen is a novel. It is not about Stephen King, who lived in Maine."},
    {"idx": 4, "title": "Maine Road",
     "text": "The ground was far from Stephen's home and from Liverpool Street."},
]


def _corpus(tmp_path: Path, records: Any = CORPUS) -> Path:
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def _mentions(result: Any) -> dict[str, set[str]]:
    """Entity -> the passages that mention it (facts and synonyms have their own tests)."""
    out: dict[str, set[str]] = {}
    for e in result.edges:
        if e.source.startswith("passage:"):
            assert e.kind is EdgeKind.MENTIONS
            out.setdefault(e.target, set()).add(e.source)
    return out


@pytest.mark.parametrize(
    ("surface", "key"),
    [("The Beatles", "beatles"), ("Beatles", "beatles"), ("the  Beatles!", "beatles"),
     ("U.S.", "us"), ("Nobody's Hero", "nobodys hero"), ("Jean-Paul  Sartre", "jean paul sartre"),
     ("Théâtre", "théâtre"), ("Other", "other")],
)
def test_normalise_entity(surface: str, key: str) -> None:
    assert normalise_entity(surface) == key


def test_titles_only(tmp_path: Path) -> None:
    result = ingest_passages(_corpus(tmp_path), nlp=False)
    passages = [n for n in result.nodes if n.kind is NodeKind.PASSAGE]
    assert [(p.id, p.name) for p in passages][:2] == [("passage:0", "The Beatles"),
                                                       ("passage:1", "Abbey Road")]
    assert passages[0].text == CORPUS[0]["text"]
    assert passages[0].attrs == {
        "idx": 0, "source_root": str(tmp_path.resolve()), "source_name": tmp_path.name
    }
    assert passages[0].embedding_text().startswith("The Beatles\nThe Beatles were")
    entities = {n.id: n for n in result.nodes if n.kind is NodeKind.ENTITY}
    assert entities["entity:beatles"].name == "The Beatles"
    assert entities["entity:beatles"].text == "The Beatles"
    assert entities["entity:stephen"].name == "Stephen"  # "(novel)" dropped
    mentions = _mentions(result)
    # Own title; "the Beatles" and "Beatles" found as the title "The Beatles".
    assert mentions["entity:beatles"] == {"passage:0", "passage:1", "passage:2"}
    assert mentions["entity:liverpool"] == {"passage:0", "passage:2"}  # not "Liverpool Street"
    # "Stephen" inside "Stephen King" is not the novel; "Stephen's home" is a match.
    assert mentions["entity:stephen"] == {"passage:3", "passage:4"}
    assert mentions["entity:maine road"] == {"passage:4"}  # "Maine" alone is not the title
    assert result.problems == []
    assert len(result.edges) == len({(e.source, e.target) for e in result.edges})


def test_spacy_entities_merge_with_titles(tmp_path: Path) -> None:
    result = ingest_passages(_corpus(tmp_path), batch_size=2)
    mentions = _mentions(result)
    entities = {n.id: n for n in result.nodes if n.kind is NodeKind.ENTITY}
    assert mentions["entity:beatles"] == {"passage:0", "passage:1", "passage:2"}
    assert "TITLE" in entities["entity:beatles"].attrs["labels"]
    assert entities["entity:beatles"].attrs["passages"] == 3
    assert mentions["entity:john lennon"] == {"passage:0"}
    assert mentions["entity:paul mccartney"] == {"passage:0"}
    assert "PERSON" in entities["entity:john lennon"].attrs["labels"]
    assert "passage:0" in mentions["entity:liverpool"]
    assert "passage:3" in mentions["entity:maine"]
    assert "passage:1" in mentions["entity:apple records"]
    assert "entity:english" in mentions  # NORP is kept ...
    for skipped in ("1960", "26 september 1969", "eleventh"):  # ... dates and numbers are not
        assert f"entity:{skipped}" not in entities
    assert all(n.text.strip() for n in result.nodes)


def test_given_pipeline_is_left_as_it_was(tmp_path: Path) -> None:
    nlp = load_ner()
    assert load_ner() is nlp  # loaded once
    before = (list(nlp.pipe_names), list(nlp.disabled))
    ingest_passages(_corpus(tmp_path), nlp=nlp)
    assert (nlp.pipe_names, nlp.disabled) == before


def test_bad_records_and_duplicate_idx(tmp_path: Path) -> None:
    records = [
        {"idx": 7, "title": "Alpha", "text": "Alpha text."},
        {"idx": 7, "title": "Beta", "text": "Beta mentions Alpha."},
        {"idx": 8, "title": "", "text": "no title"},
        {"idx": 9, "title": "Empty", "text": " "},
        {"title": "No idx", "text": "x"},
        ["not", "a", "record"],
        {"idx": True, "title": "Bool idx", "text": "x"},  # became passage:True
        {"idx": 1.5, "title": "Fraction idx", "text": "x"},
    ]
    result = ingest_passages(_corpus(tmp_path, records), nlp=False)
    passages = [n for n in result.nodes if n.kind is NodeKind.PASSAGE]
    assert [p.id for p in passages] == ["passage:7", "passage:7#2"]
    assert passages[1].attrs["idx"] == 7 and passages[1].attrs["duplicate_idx"] is True
    assert _mentions(result)["entity:alpha"] == {"passage:7", "passage:7#2"}
    messages = [p.message for p in result.problems]
    assert len(messages) == 7
    assert messages[0].startswith("record 1: idx 7 repeats an earlier record's; kept as passage:7#2")
    # the corpus calls it a title, not a name
    assert messages[1] == "record 2 (idx 8): title is empty; passage skipped"
    assert "record 3 (idx 9)" in messages[2] and "text is empty" in messages[2]
    assert messages[3].startswith("record 4: no idx (its keys: 'title', 'text'): give each record an 'idx'")
    assert messages[4:] == ["record 5: not an object, got a list",
                            "record 6: idx must be a whole number or text, got true",
                            "record 7: idx must be a whole number or text, got 1.5"]
    # a record with an idx keeps its passage at re-indexing; one without keeps the file's
    assert [p.keeps.value for p in result.problems] == ["nothing", "item", "item", "file", "file", "file", "file"]


@pytest.mark.parametrize("content", ["{broken", '{"title": "x"}'])
def test_unreadable_corpus_is_one_problem(tmp_path: Path, content: str) -> None:
    path = tmp_path / "corpus.json"
    path.write_text(content, encoding="utf-8")
    result = ingest_passages(path, nlp=False)
    assert result.nodes == [] and len(result.problems) == 1


def test_missing_files_raise(tmp_path: Path) -> None:
    with pytest.raises(IngestError):
        ingest_passages(tmp_path / "corpus.json")
    with pytest.raises(IngestError):
        load_multihop_queries(tmp_path)


def test_queries(tmp_path: Path) -> None:
    (tmp_path / "queries.json").write_text(json.dumps([
        {"id": "q1", "question": "Who?", "answer": "Rush", "supporting_titles": ["A", "B"],
         "supporting_idx": [6, 4]},
        {"id": "q2", "question": "When?", "answer": None, "supporting_idx": [1]},
    ]), encoding="utf-8")
    assert load_multihop_queries(tmp_path) == [
        MultihopQuery("q1", "Who?", ("passage:6", "passage:4"), ("A", "B"), "Rush"),
        MultihopQuery("q2", "When?", ("passage:1",), (), None),
    ]


@pytest.mark.skipif(not (DATA / "hotpotqa_hipporag_train100").is_dir(), reason="shared data absent")
def test_real_hotpotqa_titles_only() -> None:
    folder = DATA / "hotpotqa_hipporag_train100"
    result = ingest_passages(folder / "corpus.json", nlp=False)
    passages = [n for n in result.nodes if n.kind is NodeKind.PASSAGE]
    entities = [n for n in result.nodes if n.kind is NodeKind.ENTITY]
    assert len(passages) == 994 and result.problems == []
    assert 950 <= len(entities) <= 994  # one per title, a few titles merge
    mentions = [e for e in result.edges if e.source.startswith("passage:")]
    assert {e.source for e in mentions} == {p.id for p in passages}  # every passage mentions its own title
    assert 1300 <= len(mentions) <= 1700  # 1,414 measured
    ids = {n.id for n in result.nodes}
    queries = load_multihop_queries(folder)
    assert len(queries) == 100
    assert all(g in ids for q in queries for g in q.gold)
    assert result.seconds < 10


def test_a_passage_longer_than_the_parser_reads_is_kept_whole_and_noted(tmp_path: Path) -> None:
    """A 1 MB passage kept `index` busy past 12 minutes at 3.7 GB: entities and facts now come
    from its first `MAX_PARSE_CHARS` characters, the note says so, and the passage keeps its
    whole text (embedded, searched by keyword)."""
    from skill_retriever.ingest.facts import MAX_PARSE_CHARS, parse_input

    sentence = "Anna Berg visited Oslo in the winter of that year. "
    long_text = sentence * (MAX_PARSE_CHARS // len(sentence) + 50) + "Carl Dahl moved to Bergen at the very end."
    records = [{"idx": 1, "title": "Chronicle", "text": long_text},
               {"idx": 2, "title": "Bergen", "text": "Bergen is a city in Norway."}]
    result = ingest_passages(_corpus(tmp_path, records), nlp=False)
    passage = next(n for n in result.nodes if n.id == "passage:1")
    assert passage.text == long_text
    facts = [n for n in result.nodes if n.kind is NodeKind.FACT and n.attrs["passage"] == "passage:1"]
    assert 0 < len(facts) <= MAX_PARSE_CHARS // len(sentence) + 1
    assert not any("Carl Dahl" in f.text for f in facts)  # past the cut
    assert [(p.message, p.read_whole) for p in result.problems] == [(
        (f"record 0 (idx 1): text is {len(long_text):,} characters; its entities and facts are read "
         f"from the first {MAX_PARSE_CHARS:,} (the whole text is indexed and searched by keyword; "
         "a passage that long is better split into several)"), True)]
    # spaCy refuses a text of its max_length or more: a pipeline with a lower one cuts below it
    assert parse_input("x" * 50, 10) == "x" * 9 and parse_input("x" * 50) == "x" * 50
