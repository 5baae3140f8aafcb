"""The collections ``move-to-embedded`` leaves on a real `chroma run` server, searched by
``query --chroma-url`` (``Index.open(..., chroma_url=...)``) after the index changed in
memory: its writes no longer reach them, yet a change that keeps the number of vectors
(an item's text edited and indexed again) left the counts equal, so a reader took its
semantic candidates from the old vectors without a word: the edited item, first in
memory, was not among them. ``items.sqlite`` records the index as embedded since the
move; a reader now searches its vectors in memory then, and says how to put them on the
server again (``move-to-server``), after which it searches through the server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from server_index import index_on_server, numbered_skills, top_id

from skill_retriever.cli import main
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedded_moves import move_index_to_embedded
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_index_to_server

SKILLS = numbered_skills(40)
LAVA = "volcano lava eruption magma"


def _moved_back_and_edited(path: Path, url: str) -> Path:
    """An index of :data:`SKILLS` on ``url``, moved back to memory, then ``s7`` edited to
    be about :data:`LAVA` (as many vectors as before)."""
    index_on_server(path, url, SKILLS)
    move_index_to_embedded(path, embedder=HashingEmbedder())
    with Index.open(path, embedder=HashingEmbedder()) as index:
        index.upsert([Node(id="s7", kind="skill", name="s-7", text=LAVA)], [])
    return path


def test_a_reader_does_not_search_the_collections_move_to_embedded_left(url: str, tmp_path: Path) -> None:
    path = _moved_back_and_edited(tmp_path / "ix", url)
    with Index.open(path, embedder=HashingEmbedder(), chroma_url=url) as index:
        assert top_id(index.snapshot(), LAVA) == "s7"
        answer = Retriever(index, reranker=None).search(LAVA, k=1)
    assert [r.id for r in answer.results] == ["s7"]
    said = " ".join(answer.warnings)
    assert "held in memory" in said and f"move-to-server --index-dir {path} --chroma-url {url}" in said, said


def test_the_cli_query_says_so_and_move_to_server_searches_through_the_server_again(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _moved_back_and_edited(tmp_path / "ix", url)
    capsys.readouterr()
    assert main(["query", LAVA, "--index-dir", str(path), "--chroma-url", url, "-k", "1", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in answer["results"]] == ["s7"]
    assert any("move-to-server" in w and "held in memory" in w for w in answer["warnings"]), answer["warnings"]
    for argv in (["stats", "--json"], ["stats"]):
        assert main([*argv, "--index-dir", str(path), "--chroma-url", url]) == 0
        said = capsys.readouterr().out
        if argv[-1] == "--json":
            assert json.loads(said)["server"]["left_behind"] is True
        else:
            line = next(x for x in said.splitlines() if x.startswith("server:"))
            assert "left there by `move-to-embedded`" in line and "queries search in memory" in line, line
            assert "take their candidates from the server" not in line, line
    move_index_to_server(path, url, embedder=HashingEmbedder())
    assert main(["stats", "--json", "--index-dir", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["server"]["left_behind"] is None
    with Index.open(path, embedder=HashingEmbedder()) as index:
        snap = index.snapshot()
        assert top_id(snap, LAVA) == "s7"
        answer_after = Retriever(index, reranker=None).search(LAVA, k=1)
    assert not any("held in memory" in w for w in answer_after.warnings), answer_after.warnings


def test_moving_back_names_the_collections_move_to_embedded_left_as_its(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``move-to-server`` after ``move-to-embedded`` keeps the collections the latter left
    (it did not delete them): they were named as left "by an interrupted move-to-server, or
    by an index that was in this directory before", neither of which happened."""
    path = index_on_server(tmp_path / "ix", url, SKILLS)
    move_index_to_embedded(path, embedder=HashingEmbedder())
    lines = move_index_to_server(path, url, embedder=HashingEmbedder()).lines()
    kept = next(line for line in lines if "keeps" in line)
    assert "move-to-embedded without --delete-collections" in kept, lines
    assert main(["stats", "--index-dir", str(path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("server:"))
    assert "move-to-embedded without --delete-collections" in line, line
