"""Re-indexing a passage corpus parses only the passages whose text is new.

Before, every run sent every passage through spaCy again: a no-op re-index of
hotpotqa train100 (994 passages) took 20-33 s, nearly all of it parsing. What spaCy
read in each passage is now kept beside the index (``ingest.passage_parses``), keyed by
the text and the extractor, and only a text it holds no parse of is parsed. These tests
hold the result to a run that parses everything (the whole node and edge set of an
index built from scratch), and watch which texts reach the real spaCy model.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from passage_corpus import corpus, removed

from skill_retriever.indexing import index_sources
from skill_retriever.ingest.passage_parses import CACHE_FILE
from skill_retriever.ingest.passages import ingest_passages, load_ner
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

KINGS = [
    {"idx": 0, "title": "Lothair II", "text": "Lothair II was King of Lotharingia from 855 until his death. "
     "His mother was Ermengarde of Tours. He was born in Frankfurt and married Teutberga."},
    {"idx": 1, "title": "Ermengarde of Tours", "text": "Ermengarde of Tours was the wife of Lothair I, "
     "Holy Roman Emperor. She died in 851 at the abbey of Erstein in Alsace."},
    {"idx": 2, "title": "Teutberga", "text": "Teutberga was a queen of Lotharingia. Pope Nicholas I "
     "refused to grant Lothair II a divorce from her, and Hincmar of Reims wrote against it."},
    {"idx": 3, "title": "Erstein", "text": "Erstein is a commune in the Bas-Rhin department in Alsace "
     "in north-eastern France. The Ill river flows through the town of Erstein."},
    {"idx": 4, "title": "Waldrada", "text": "Waldrada was a mistress of Lothair II. Their son Hugh "
     "became Duke of Alsace, and the Archbishop of Cologne supported their marriage."},
]


def edited(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Waldrada's passage (the one naming Cologne and Hugh) deleted, Erstein's text changed,
    Teutberga's title changed with its text kept, one passage added."""
    kept = [dict(r) for r in records if r["idx"] != 4]
    kept[3]["text"] = "Erstein is a town of Alsace on the Ill, south of Strasbourg, known for its sugar refinery."
    kept[2]["title"] = "Teutberga of Arles"
    return kept + [{"idx": 7, "title": "Hincmar", "text": "Hincmar was Archbishop of Reims from 845. "
                    "He wrote De divortio Lotharii about the marriage of Lothair II."}]


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The texts the real default spaCy model parses while a test runs."""
    nlp = load_ner()
    seen: list[str] = []
    real = nlp.pipe

    def pipe(texts: Any, **kw: Any) -> Any:
        texts = list(texts)
        seen.extend(texts)
        return real(texts, **kw)

    monkeypatch.setattr(nlp, "pipe", pipe)
    yield seen


def run(index: Index, path: Path) -> Any:
    return index_sources(index, [path], calibrate=False)  # ner on: the default spaCy model


def whole(index: Index) -> tuple[dict[str, Any], list[Any]]:
    """Every node (all its fields) and every edge the index holds."""
    snap = index.snapshot()
    return dict(snap.nodes), sorted(snap.edges.values(), key=repr)


def test_a_changed_corpus_indexes_as_a_fresh_index_of_it_does(tmp_path: Path, parsed: list[str]) -> None:
    path = corpus(tmp_path / "kings" / "corpus.json", KINGS)
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    run(index, path)
    assert len(parsed) == len(KINGS)
    assert "entity:cologne" in index.nodes  # named by Waldrada's passage alone
    parsed.clear()
    run(index, path)
    assert parsed == []  # nothing changed, nothing parsed

    new = edited(KINGS)
    corpus(path, new)
    again = run(index, path)
    assert parsed == [new[3]["text"], new[4]["text"]]  # the changed text and the new passage
    parsed.clear()
    fresh = Index.open(tmp_path / "fresh", embedder=HashingEmbedder(), create=True)
    run(fresh, path)
    assert len(parsed) == len(new)  # a fresh index parses every passage
    assert whole(index) == whole(fresh)
    assert {"passage:4", "entity:cologne"} <= removed(again)  # deleted, as before
    assert index.nodes["passage:2"].name == "Teutberga of Arles"
    with sqlite3.connect(tmp_path / "ix" / CACHE_FILE) as db:  # the deleted passage's parse went too
        assert db.execute("SELECT count(*) FROM parses").fetchone() == (len(new),)


def test_the_cached_result_is_the_parsed_one_item_for_item(tmp_path: Path, parsed: list[str]) -> None:
    path = corpus(tmp_path / "kings" / "corpus.json", KINGS)
    full = ingest_passages(path)
    for _ in range(2):  # the first run fills the cache, the second reads it all
        cached = ingest_passages(path, cache_dir=tmp_path / "ix")
        assert (cached.nodes, cached.edges, cached.problems) == (full.nodes, full.edges, full.problems)
    assert len(parsed) == 2 * len(KINGS)


@pytest.mark.parametrize("change", [{"labels": frozenset({"PERSON"})}, {"facts": False}])
def test_other_extraction_rules_parse_again(tmp_path: Path, parsed: list[str], change: dict[str, Any]) -> None:
    path = corpus(tmp_path / "kings" / "corpus.json", KINGS)
    ingest_passages(path, cache_dir=tmp_path / "ix")
    parsed.clear()
    other = ingest_passages(path, cache_dir=tmp_path / "ix", **change)
    assert len(parsed) == len(KINGS)
    fresh = ingest_passages(path, **change)
    assert (other.nodes, other.edges) == (fresh.nodes, fresh.edges)


def test_a_damaged_cache_is_rebuilt(tmp_path: Path, parsed: list[str]) -> None:
    path = corpus(tmp_path / "kings" / "corpus.json", KINGS)
    (tmp_path / "ix").mkdir()
    (tmp_path / "ix" / CACHE_FILE).write_bytes(b"not a database, " * 100)
    first = ingest_passages(path, cache_dir=tmp_path / "ix")
    assert len(parsed) == len(KINGS) and first.problems == []
    parsed.clear()
    again = ingest_passages(path, cache_dir=tmp_path / "ix")
    assert parsed == [] and (again.nodes, again.edges) == (first.nodes, first.edges)


def test_a_cache_that_cannot_be_written_is_a_note(tmp_path: Path, parsed: list[str]) -> None:
    path = corpus(tmp_path / "kings" / "corpus.json", KINGS)
    (tmp_path / "ix" / CACHE_FILE).mkdir(parents=True)  # a folder where the file would be
    result = ingest_passages(path, cache_dir=tmp_path / "ix")
    assert [p.read_whole for p in result.problems] == [True]
    assert "the next run parses these passages again" in result.problems[0].message
    fresh = ingest_passages(path)
    assert (result.nodes, result.edges) == (fresh.nodes, fresh.edges)


def test_an_unreadable_corpus_keeps_the_parses(tmp_path: Path, parsed: list[str]) -> None:
    path = corpus(tmp_path / "kings" / "corpus.json", KINGS)
    ingest_passages(path, cache_dir=tmp_path / "ix")
    path.write_text("[{", encoding="utf-8")
    assert ingest_passages(path, cache_dir=tmp_path / "ix").nodes == []
    corpus(path, KINGS)
    parsed.clear()
    ingest_passages(path, cache_dir=tmp_path / "ix")
    assert parsed == []


def test_a_run_that_parses_nothing_does_not_load_spacy(tmp_path: Path) -> None:
    """Importing spaCy takes seconds and hundreds of MB (it imports torch)."""
    path = corpus(tmp_path / "kings" / "corpus.json", KINGS)
    ingest_passages(path, cache_dir=tmp_path / "ix")
    script = ("import sys, json; from pathlib import Path; from skill_retriever.ingest.passages import ingest_passages; "
              f"r = ingest_passages(Path({str(path)!r}), cache_dir=Path({str(tmp_path / 'ix')!r})); "
              "print(json.dumps([len(r.nodes), 'spacy' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [len(ingest_passages(path).nodes), False]


def test_remove_source_takes_its_parses_out(tmp_path: Path, parsed: list[str]) -> None:
    """The parses are passage text: a corpus removed leaves none of it beside the index,
    and the other corpus's stay (its next run parses nothing)."""
    from skill_retriever.sources import remove_source

    kings = corpus(tmp_path / "kings" / "corpus.json", KINGS)
    fish = [{"idx": 100, "title": "Zebrafish", "text": "The zebrafish is a freshwater fish native to "
             "South Asia. Researchers in Oregon first used it to study development."}]
    other = corpus(tmp_path / "other" / "corpus.json", fish)  # no entity of the kings: no clash
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index_sources(index, [kings, other], calibrate=False)
    cache = tmp_path / "ix" / CACHE_FILE

    def sources() -> set[str]:
        with sqlite3.connect(cache) as db:
            return {row[0] for row in db.execute("SELECT DISTINCT source FROM parses")}

    assert sources() == {str(kings), str(other)}
    assert remove_source(index, "kings")
    assert sources() == {str(other)}
    assert KINGS[0]["text"].split(".")[0].encode() not in cache.read_bytes()  # nowhere in the file
    parsed.clear()
    run(index, other)
    assert parsed == []
