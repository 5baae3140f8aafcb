"""Passage corpora as files of one folder, and records the corpus spells oddly.

Two passage files in one folder are one source, each file owning its passages and facts:
a passage whose id (``passage:<idx>``) another file of the folder holds is refused, naming
both files, where before the second file silently replaced the first's passages. The
entities they derive are the folder's: a name both files mention is one entity, kept
while any file still yields it. A number as a title is its text ("1984"); any other
title that is not text is a problem of that record, in the corpus's own terms.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from passage_corpus import corpus, removed

from skill_retriever.cli import main
from skill_retriever.exceptions import IngestError
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

FRUIT = [
    {"idx": 0, "title": "Apple Pie", "text": "Apple Pie is a dessert baked with apples and cinnamon."},
    {"idx": 1, "title": "Banana Bread", "text": "Banana Bread is a loaf made from mashed bananas."},
    {"idx": 2, "title": "Cherry Tart", "text": "Cherry Tart is a pastry filled with sour cherries."},
]
EARTH = [
    {"idx": 0, "title": "Volcano", "text": "A volcano is a rupture in the crust of a planet where lava escapes."},
    {"idx": 1, "title": "Glacier", "text": "A glacier is a persistent body of dense ice that moves under its own weight."},
]
FILM = [
    {"idx": 10, "title": "Apple Pie (film)", "text": "Apple Pie is a film about a baker who wins a county fair."},
    {"idx": 11, "title": "Glacier", "text": "A glacier is a persistent body of dense ice that moves under its own weight."},
]


@pytest.fixture
def index(tmp_path: Path) -> Index:
    return Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)


def run(index: Index, path: Path, **kw: Any) -> Any:
    return index_sources(index, [path], "passages", ner=False, calibrate=False, **kw)


def texts(index: Index, kind: str = "passage") -> dict[str, str]:
    return {i: n.text for i, n in index.snapshot().nodes.items() if n.kind == kind}


def test_a_second_file_whose_passages_take_the_first_files_ids_is_refused(index: Index, tmp_path: Path) -> None:
    first = corpus(tmp_path / "two" / "corpus.json", FRUIT)
    second = corpus(tmp_path / "two" / "extra.json", EARTH)
    run(index, first)
    before = index.snapshot().nodes
    with pytest.raises(IngestError) as caught:
        run(index, second)
    message = str(caught.value)
    assert str(second.resolve()) in message and str(first.resolve()) in message
    assert "2 passages" in message and "idx 0, 1" in message and "nothing of this file was written" in message
    assert index.snapshot().nodes == before  # the first file's passages are as they were
    assert texts(index)["passage:0"].startswith("Apple Pie")


def test_the_cli_refuses_it_in_one_line_and_exits_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = tmp_path / "ix"
    Index.open(ix, embedder=HashingEmbedder(), create=True).close()
    first = corpus(tmp_path / "two" / "corpus.json", FRUIT)
    second = corpus(tmp_path / "two" / "extra.json", EARTH)
    assert main(["index", str(first), "--index-dir", str(ix), "--no-ner"]) == 0
    capsys.readouterr()
    assert main(["index", str(second), "--kind", "passages", "--index-dir", str(ix), "--no-ner"]) != 0
    err = capsys.readouterr().err
    assert "extra.json" in err and "corpus.json" in err and "idx" in err
    with Index.open(ix) as index:
        assert texts(index)["passage:1"].startswith("Banana Bread")


def test_two_files_that_share_an_entity_are_one_source_and_the_entity_stays_while_one_yields_it(
    index: Index, tmp_path: Path
) -> None:
    first = corpus(tmp_path / "two" / "corpus.json", FRUIT)
    second = corpus(tmp_path / "two" / "extra.json", FILM)
    run(index, first)
    run(index, second)
    assert set(texts(index)) == {"passage:0", "passage:1", "passage:2", "passage:10", "passage:11"}
    assert "entity:apple pie" in index.nodes  # both files name it
    from skill_retriever.ingest.provenance import owner_file

    owners = {owner_file(n) for n in index.snapshot().nodes.values() if n.kind in ("passage", "fact")}
    assert owners == {first.resolve(), second.resolve()}

    corpus(first, FRUIT[1:])  # Apple Pie leaves corpus.json; the film in extra.json still names it
    again = run(index, first)
    assert "passage:0" in removed(again) and "entity:apple pie" not in removed(again)
    assert "entity:apple pie" in index.nodes and "passage:10" in index.nodes

    corpus(second, FILM[1:])  # now no file yields it
    last = run(index, second)
    assert "entity:apple pie" in removed(last) and "entity:apple pie" not in index.nodes
    assert set(texts(index)) == {"passage:1", "passage:2", "passage:11"}


def test_indexing_the_folder_reads_its_corpus_json_and_leaves_the_other_files_passages(
    index: Index, tmp_path: Path
) -> None:
    corpus(tmp_path / "two" / "corpus.json", FRUIT)
    corpus(tmp_path / "two" / "extra.json", FILM)
    run(index, tmp_path / "two" / "extra.json")
    run(index, tmp_path / "two")  # the folder: its corpus.json
    run(index, tmp_path / "two")  # again: extra.json's passages are not the folder read's to prune
    assert set(texts(index)) == {"passage:0", "passage:1", "passage:2", "passage:10", "passage:11"}


def test_a_deleted_file_of_the_folder_leaves_with_its_entities_and_frees_its_ids(index: Index, tmp_path: Path) -> None:
    first = corpus(tmp_path / "two" / "corpus.json", FRUIT)
    second = corpus(tmp_path / "two" / "extra.json", [{**r, "idx": r["idx"] + 5} for r in EARTH])
    run(index, first)
    run(index, second)
    second.unlink()
    again = run(index, first)
    assert {"passage:5", "passage:6", "entity:volcano", "entity:glacier"} <= set(removed(again))
    assert set(texts(index)) == {"passage:0", "passage:1", "passage:2"}
    corpus(tmp_path / "two" / "more.json", EARTH)  # idx 0, 1 again: corpus.json holds them
    with pytest.raises(IngestError, match="corpus.json"):
        run(index, tmp_path / "two" / "more.json")


def test_a_number_as_a_title_is_its_text(index: Index, tmp_path: Path) -> None:
    path = corpus(tmp_path / "c" / "corpus.json", [
        {"idx": 1, "title": 1984, "text": "1984 is a dystopian novel by George Orwell."},
        {"idx": 2, "title": "Animal Farm", "text": "Animal Farm is a novella by George Orwell."},
    ])
    result = run(index, path).sources[0]
    assert not result.problems
    assert index.nodes["passage:1"].name == "1984"


@pytest.mark.parametrize(
    ("title", "says"),
    [
        ([1, 2], "record 0 (idx 1): title must be a string, got a list; passage skipped"),
        (True, "record 0 (idx 1): title must be a string, got true; passage skipped"),
        (None, "record 0 (idx 1): title must be a string, got null; passage skipped"),
    ],
)
def test_a_title_that_is_not_text_is_said_in_the_corpus_terms(
    index: Index, tmp_path: Path, title: Any, says: str
) -> None:
    path = corpus(tmp_path / "c" / "corpus.json", [
        {"idx": 1, "title": title, "text": "Some text about a thing."},
        {"idx": 2, "title": "Animal Farm", "text": "Animal Farm is a novella by George Orwell."},
    ])
    result = run(index, path).sources[0]
    assert [p.message for p in result.problems] == [says]
    assert "passage:1" not in index.nodes and "passage:2" in index.nodes


def test_a_missing_title_is_said_in_the_corpus_terms(index: Index, tmp_path: Path) -> None:
    path = corpus(tmp_path / "c" / "corpus.json", [{"idx": 7, "text": "Some text."}, FRUIT[0]])
    result = run(index, path).sources[0]
    assert [p.message for p in result.problems] == ["record 0 (idx 7): no title; passage skipped"]
