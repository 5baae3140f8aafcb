"""An answer whose vector search ran in memory although its index names a Chroma server
says so in its ``warnings``, on real `chroma run` servers: a log line alone left JSON and
MCP callers unable to tell a degraded search from a normal one.

Two cases: a reader whose server fell out of step after it opened (a write that never
reached the server) and a ``cp -r`` copy of an index on a server (its readers never take
the original's collections up). The snapshot carries the reason (``search_notes``,
recorded by ``stores/remote.py`` in ``LiveState.in_memory_note``), and
``phases/retrieve_seeds.py`` adds it to the answer's warnings.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from server_index import index_on_server, numbered_skills

from skill_retriever.cli import main
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.model import Node
from skill_retriever.stores import remote
from skill_retriever.stores import server_sync as sync_module
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

NEW = Node(id="zz-new", kind="skill", name="zz-new", text="measure glacier retreat from satellite photos")
SKILLS = numbered_skills(6)


def _write_unmirrored(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commit ``NEW`` as a writer killed before mirroring it to the server would."""

    def killed(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed before mirroring")

    with monkeypatch.context() as m, Index.open(path, embedder=HashingEmbedder()) as writer:
        m.setattr(sync_module, "mirror", killed)
        with pytest.raises(IndexCorruptError, match="repair --index-dir"):
            writer.upsert([NEW])


def _answer_warnings(capsys: pytest.CaptureFixture[str], path: Path, query: str) -> list[str]:
    capsys.readouterr()
    code = main(["query", query, "--index-dir", str(path), "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return list(json.loads(out)["warnings"])


def test_a_reader_whose_server_fell_behind_holds_the_reason_in_its_snapshot(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = index_on_server(tmp_path / "L", url, SKILLS)
    monkeypatch.setattr(remote, "RECHECK_S", 0.0)  # out of step: counted again at the next look
    with Index.open(path, embedder=HashingEmbedder()) as reader:
        before = reader.snapshot()
        assert before.search_notes() == []  # in step: searched on the server, nothing to say
        _write_unmirrored(path, monkeypatch)
        after = reader.snapshot()
        notes = after.search_notes()
        assert len(notes) == 1, notes
        assert f"the Chroma server at {url}" in notes[0] and "in memory" in notes[0]
        assert f"repair --index-dir {path}" in notes[0]
        assert before.stamp != after.stamp
        with Index.open(path, embedder=HashingEmbedder(), writable=True):
            pass  # the writer's sync copies the missing vector
        assert reader.snapshot().search_notes() == []  # in step again: nothing to say


def test_an_index_without_a_server_has_nothing_to_say(tmp_path: Path) -> None:
    with Index.open(tmp_path / "E", embedder=HashingEmbedder(), create=True) as index:
        index.upsert([NEW])
        assert index.snapshot().search_notes() == []


def test_an_answer_searched_in_memory_after_the_server_fell_behind_says_so(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skill_retriever.retriever import Retriever

    path = index_on_server(tmp_path / "Q", url, SKILLS)
    with Index.open(path, embedder=HashingEmbedder()) as reader:  # opened in step: it searches the server
        retriever = Retriever(reader, reranker=None, cache_size=0)
        assert not [w for w in retriever.search("skill number 1").warnings if "in memory" in w]
        _write_unmirrored(path, monkeypatch)
        found = retriever.search(NEW.text)
    assert found.results and found.results[0].id == NEW.id
    warned = [w for w in found.warnings if "in memory" in w]
    assert len(warned) == 1 and f"repair --index-dir {path}" in warned[0], found.warnings


def test_a_copy_of_an_index_on_a_server_says_in_its_answer_that_it_searches_in_memory(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = index_on_server(tmp_path / "D", url, SKILLS)
    copy = tmp_path / "Dcopy"
    shutil.copytree(original, copy)
    warned = [w for w in _answer_warnings(capsys, copy, "skill number 2") if "in memory" in w]
    assert len(warned) == 1, warned
    assert f"{copy} is a copy of the index at {original.resolve()}" in warned[0]
    assert f"move-to-server --index-dir {copy} --chroma-url {url}" in warned[0]
    # The original searches its server: no such warning.
    assert not [w for w in _answer_warnings(capsys, original, "skill number 2") if "in memory" in w]
