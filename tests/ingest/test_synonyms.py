"""SAME_AS edges: other spellings, and acronyms beside what they stand for."""

from __future__ import annotations

import json
from pathlib import Path

from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.ingest.synonyms import alias_edges, fold, initials
from skill_retriever.model import EdgeKind


def test_fold_and_initials() -> None:
    assert fold("snoop doggs") == fold("snoop dogg") == "snoop dogg"
    assert fold("iván") == "ivan"
    assert fold("boss") == "boss"  # "ss" is not a plural
    assert initials("recording industry association of america".split()) == "riaa"
    assert initials(["madonna"]) == ""


def test_alias_edges_by_hand() -> None:
    keys = {"entity:snoop dogg": "snoop dogg", "entity:snoop doggs": "snoop doggs", "entity:riaa": "riaa",
            "entity:recording industry association of america": "recording industry association of america",
            "entity:bc": "bc", "entity:bruce carter": "bruce carter",
            "entity:lothair i": "lothair i", "entity:lothair ii": "lothair ii"}
    named = [["entity:recording industry association of america", "entity:riaa"],  # introduced together
             ["entity:bruce carter"], ["entity:bc"],  # initials, never in one passage
             ["entity:lothair i", "entity:lothair ii"]]
    pairs = {(e.source, e.target) for e in alias_edges(named, keys)}
    assert pairs == {("entity:snoop dogg", "entity:snoop doggs"),
                     ("entity:recording industry association of america", "entity:riaa")}
    assert all(e.kind is EdgeKind.SAME_AS for e in alias_edges(named, keys))


def test_ingest_adds_them_unless_asked_not_to(tmp_path: Path) -> None:
    corpus = [{"idx": 0, "title": "Recording Industry Association of America",
               "text": "The Recording Industry Association of America (RIAA) is a trade group."},
              {"idx": 1, "title": "Snoop Dogg", "text": "Snoop Dogg is a rapper."},
              {"idx": 2, "title": "Doggystyle", "text": "It is Snoop Dogg's first album, certified by the RIAA."}]
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps(corpus), encoding="utf-8")
    same = {(e.source, e.target) for e in ingest_passages(path).edges if e.kind is EdgeKind.SAME_AS}
    assert ("entity:recording industry association of america", "entity:riaa") in same
    assert not any(e.kind is EdgeKind.SAME_AS for e in ingest_passages(path, synonyms=False).edges)
