"""A reason names the query words an item holds as the keyword search reads them: by stem.

Found walking six real skill catalogues: "bake sourdough bread" put unity-game-developer
at keyword #4 through "baked", and "plan a wedding" put sync-status at keyword #1 through
"Wed"; both read "close in meaning (keyword, graph)", a word match said as a meaning, the
word that drew it hidden. Now the line reads "matches bake (as baked)", and ``--json``'s
``matches`` holds "bake".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.algorithms.tokenize import bm25_tokens
from skill_retriever.cli import main
from skill_retriever.components.rationale import matched_terms
from skill_retriever.components.word_matches import WordMatch, word_matches
from skill_retriever.indexing import index_sources
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _node(text: str, name: str = "unity-game-developer") -> Node:
    return Node(id=f"x/{name}", kind=NodeKind.AGENT, name=name, text=text)


def test_a_word_held_in_another_form_is_matched_and_shows_the_items_word() -> None:
    node = _node("Lightmaps are baked offline. Weekly sync runs Wed at noon.")
    assert word_matches("bake sourdough bread", node) == (WordMatch("bake", "baked"),)
    assert word_matches("plan a wedding", node) == (WordMatch("wedding", "wed"),)
    assert WordMatch("bake", "baked").text() == "bake (as baked)"
    assert matched_terms("bake sourdough bread", node) == ("bake",)


def test_a_word_held_as_written_is_named_alone_and_once() -> None:
    node = _node("Bake the scene, then baked maps load. Use checkout-api v3.")
    assert word_matches("bake bake baking", node) == (WordMatch("bake", "bake"), WordMatch("baking", "bake"))
    assert WordMatch("bake", "bake").text() == "bake"
    # stop words are never named; identifiers match only as written
    assert word_matches("the to checkout-apis", node) == ()
    assert word_matches("checkout-api", node) == (WordMatch("checkout-api", "checkout-api"),)


def test_a_two_letter_word_the_keyword_search_reads_is_named() -> None:
    """"what broke last time we changed the DB pool" put a runbook on DB migrations at
    keyword #7 through "db" alone, and its reason read "close in meaning (semantic,
    keyword)": BM25 reads two-letter words, the reason named none."""
    node = _node("How to roll back a failed DB migration in CI.", name="rollback")
    assert word_matches("what broke with the DB pool in ci", node) == (WordMatch("db", "db"), WordMatch("ci", "ci"))
    assert word_matches("a x", _node("a x marks the spot")) == ()  # a letter alone matches almost anything


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("word-matches")
    graph = {"nodes": [
        {"id": "unity", "kind": "agent", "name": "unity-game-developer",
         "text": "Unity scenes with lightmaps baked for mobile."},
        {"id": "sql", "kind": "skill", "name": "sql-tuning", "text": "Tune slow SQL queries with EXPLAIN."},
    ]}
    (folder / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    index = Index.open(folder / "ix", embedder=HashingEmbedder(), create=True)
    index_sources(index, [folder / "graph.json"], "json", calibrate=False)
    index.close()
    return folder / "ix"


def test_query_names_the_word_that_drew_a_keyword_hit(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["query", "bake sourdough bread", "--index-dir", str(index_dir), "-k", "1", "--json"]) == 0
    top = json.loads(capsys.readouterr().out)["results"][0]
    assert top["name"] == "unity-game-developer" and "keyword" in top["channels"], top
    assert top["matches"] == ["bake"]
    assert top["reason"].startswith("matches bake (as baked)"), top["reason"]
    assert "close in meaning" not in top["reason"]
    assert main(["query", "bake sourdough bread", "--index-dir", str(index_dir), "-k", "1"]) == 0
    assert "    matches bake (as baked)" in capsys.readouterr().out.splitlines()


def test_a_huge_items_words_come_from_its_stored_terms_and_a_bounded_part_of_its_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 1.7 MB SKILL.md took about a second of word matching per result line (the whole
    text tokenized twice per query): which words it holds now comes from the terms its
    keyword search stored, and only the part of its text coverage reads is tokenized."""
    from skill_retriever.stores import word_forms
    from skill_retriever.stores.snapshot import COVERAGE_CHARS

    filler = "lightmaps scenes mobile shaders " * (3 * COVERAGE_CHARS // 32)
    graph = {"nodes": [
        {"id": "huge", "kind": "skill", "name": "huge", "text": "Bake lightmaps. " + filler + " sourdough deployments."},
        {"id": "small", "kind": "skill", "name": "small", "text": "Baked sourdough, deployed daily."},
    ]}
    (tmp_path / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index_sources(index, [tmp_path / "graph.json"], "json", calibrate=False)
    snap = index.snapshot()
    huge, small = snap.get("huge"), snap.get("small")
    assert len(huge.embedding_text()) > 3 * COVERAGE_CHARS
    read: list[int] = []

    def counting(text: str) -> list[str]:
        read.append(len(text))
        return bm25_tokens(text)
    monkeypatch.setattr(word_forms, "bm25_tokens", counting)  # where the item's words are read
    query = "baking sourdough deploy zebra"
    # held past the bounded part (as scored: the whole text), named as the query writes it
    assert word_matches(query, huge, snap) == (
        WordMatch("baking", "bake"), WordMatch("sourdough", "sourdough"), WordMatch("deploy", "deploy"),
    )
    assert read and max(read) <= COVERAGE_CHARS, read
    # the item's words are kept with the snapshot: a second query tokenizes nothing again
    before = len(read)
    assert matched_terms("sourdough zebra", huge, snap) == ("sourdough",)
    assert len(read) == before
    # an item shorter than the bound reads as before, with its stored terms or without
    expected = (WordMatch("baking", "baked"), WordMatch("sourdough", "sourdough"), WordMatch("deploy", "deployed"))
    assert word_matches(query, small, snap) == word_matches(query, small) == expected
    index.close()
