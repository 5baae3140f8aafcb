"""A process that keeps an index on a Chroma server open for writing (an app, a notebook:
the Python API) while the server goes down and comes back, against a real `chroma run`.

Its write during the outage is committed to ``items.sqlite`` and raises
``ServerUnreachableError`` (the index is not damaged; it was an ``IndexCorruptError``,
which a caller that rebuilds on damage would have rebuilt on). Before, the server then
stayed without that write for good while the process lived: its next write copied only
its own batch, ``repair`` could not run while it held the write lock, and its own
searches went through the server, so the item written during the outage was silently
missing from their vector search. Now its searches use its own vectors in memory and say
so until its next write copies everything the server lacks; and ``index``, stopped by the
server, says to run the same command again once the server answers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chroma_support import ChromaServer, collection_names
from cli_calls import run
from files import write_file
from server_index import index_on_server, numbered_skills

from skill_retriever.exceptions import IndexCorruptError, ServerUnreachableError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores import server_sync as sync_module
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.vectors import chroma_client

BASE = numbered_skills(10)
DURING = Node(id="volcano", kind="skill", name="volcano", text="bravo volcano lava eruption monitoring")
AFTER = Node(id="desert", kind="skill", name="desert", text="charlie desert sand dune mapping")


def _top(index: Index, text: str) -> list[str]:
    snap = index.snapshot()
    return [h.id for h in snap.search_nodes(snap.embed_query(text), 3)]


def _server_ids(url: str, path: Path) -> set[str]:
    return set(chroma_client(url).get_collection(collection_names(path)[0]).get(include=[])["ids"])


def _indexed_then_grown(capsys: pytest.CaptureFixture[str], repo: Path, where: Path, url: str) -> list[str]:
    """``repo`` (the skill pg) indexed at ``where`` on the server at ``url`` by `index`, then
    the skill dk written to it, not indexed yet; that run's arguments."""
    write_file(repo, "skills/pg/SKILL.md", "---\nname: pg\ndescription: postgres migrations\n---\npostgres migrations\n")
    argv = ["index", str(repo), "--index-dir", str(where), "--embedder", "hashing-64", "--chroma-url", url]
    assert run(capsys, *argv)[0] == 0
    write_file(repo, "skills/dk/SKILL.md", "---\nname: dk\ndescription: docker builds\n---\ndocker image builds\n")
    return argv


def test_a_write_the_server_missed_is_searched_in_memory_then_copied_by_the_next_write(
    chroma_server: ChromaServer, tmp_path: Path
) -> None:
    path = index_on_server(tmp_path / "ix", chroma_server.url, BASE, linked=False)

    with Index.open(path, embedder=HashingEmbedder(), writable=True) as writer:
        chroma_server.stop()
        with pytest.raises(ServerUnreachableError, match="the write is committed to") as raised:
            writer.upsert([DURING])
        assert not isinstance(raised.value, IndexCorruptError)  # nothing is damaged
        assert "next write" in str(raised.value), raised.value
        chroma_server.start()  # the same address

        assert _top(writer, DURING.text)[0] == DURING.id  # not lost to the server's search
        assert writer.snapshot()._remote is None
        warnings = Retriever(writer).search(DURING.text).warnings
        assert any("in memory" in w and chroma_server.url in w for w in warnings), warnings

        writer.upsert([AFTER])  # copies what the server missed, this write's too
        assert _server_ids(chroma_server.url, path) == {n.id for n in [*BASE, DURING, AFTER]}
        assert writer.snapshot()._remote is not None  # through the server again
        assert _top(writer, DURING.text)[0] == DURING.id
        assert not any("in memory" in w for w in Retriever(writer).search(AFTER.text).warnings)


def test_index_stopped_by_the_server_says_to_run_it_again(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, where = tmp_path / "repo", tmp_path / "ix"
    argv = _indexed_then_grown(capsys, repo, where, chroma_server.url)
    real_mirror = sync_module.mirror

    def server_dies(*args: object) -> None:  # the server goes down mid-run, after the run opened it
        chroma_server.stop()
        real_mirror(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sync_module, "mirror", server_dies)
    monkeypatch.setattr("sys.argv", ["skill-retriever", *argv])
    code, out, err = run(capsys, *argv, "--json")
    assert code == 2, err
    said = json.loads(out)["error"]
    assert "cannot be reached" in said and "to complete this run once the server answers, run the same command again" in said and "index " in said, said
    monkeypatch.setattr(sync_module, "mirror", real_mirror)
    chroma_server.start()
    assert run(capsys, *argv)[0] == 0
    assert _server_ids(chroma_server.url, where) == {"repo/skills/pg/SKILL.md", "repo/skills/dk/SKILL.md"}


def test_index_on_a_server_already_down_says_nothing_was_written(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # It said "to complete this run once the server answers, run the same command again",
    # as if the run had stopped part-way, though its open refused before any write.
    repo, where = tmp_path / "repo", tmp_path / "ix"
    argv = _indexed_then_grown(capsys, repo, where, chroma_server.url)
    chroma_server.stop()
    version = (where / "items.sqlite").stat().st_mtime_ns
    monkeypatch.setattr("sys.argv", ["skill-retriever", *argv[:-2]])
    code, out, err = run(capsys, *argv[:-2], "--json")
    assert code == 2, err
    said = json.loads(out)["error"]
    assert "cannot be reached" in said and "complete this run" not in said, said
    assert "nothing was written" in said and "the server must answer first, then run the same command: `skill-retriever index " in said, said
    assert (where / "items.sqlite").stat().st_mtime_ns == version
    with Index.open(where) as reader:
        assert set(reader.nodes) == {"repo/skills/pg/SKILL.md"}
