"""``repair --chroma-url``, a server that is down, and Ctrl-C during ``index``, on real
`chroma run` servers: a repair that moves the index to another server says so plainly and
names the collections left on the old one; another spelling of the index's own server
(``localhost`` for ``127.0.0.1``) changes nothing; a search whose server is down raises
``ServerUnreachableError`` (an ``IndexOpenError``, no ``IndexCorruptError``), which says the
index is not damaged; an interrupted index run says how to complete it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chroma_support import ChromaServer, free_port
from server_index import index_on_server, numbered_skills

from skill_retriever.cli import main
from skill_retriever.exceptions import IndexCorruptError, IndexOpenError, ServerUnreachableError
from skill_retriever.model import Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.vectors import chroma_client

SKILLS = numbered_skills(6, prefix="n", text="skill number {i}")


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _names(path: Path) -> list[str]:
    prefix = mf.read_manifest(path)["collection_prefix"]
    return [f"{prefix}-nodes", f"{prefix}-edges"]


def test_repair_onto_another_server_says_it_moved_and_what_the_old_one_keeps(
    url: str, chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "idx", url, SKILLS)
    nodes, edges = _names(path)
    other = chroma_server.url
    code, out, _ = _cli(capsys, "repair", "--index-dir", str(path), "--chroma-url", other)
    assert code == 0, out
    first, *rest = out.splitlines()
    assert f"the index now uses the Chroma server at {other} instead of {url}: copied 7 vector(s) there" in first
    assert "again" not in first
    kept = (
        f"the server at {url} keeps {nodes}, {edges} from before (the index now uses another server; this one "
        "was not contacted, it may be unreachable); delete them there if unneeded"
    )
    assert rest == [kept]
    assert mf.read_manifest(path)["chroma_url"] == other
    assert {c.name for c in chroma_client(url).list_collections()} >= {nodes, edges}  # left, as said

    code, out, _ = _cli(capsys, "repair", "--index-dir", str(path), "--chroma-url", url, "--json")
    report = json.loads(out)
    assert code == 0 and report["chroma_url"] == url
    assert any(f"now uses the Chroma server at {url} instead of {other}" in r for r in report["repaired"])
    assert report["notes"] and other in report["notes"][0]


def test_repair_onto_a_server_from_none_says_the_index_now_searches_through_it(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "idx"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index.upsert([Node(id="a", kind="skill", name="a", text="alpha skill"), Node(id="b", kind="skill", name="b", text="beta")])
    code, out, _ = _cli(capsys, "repair", "--index-dir", str(path), "--chroma-url", url)
    assert code == 0
    assert f"the index now searches through the Chroma server at {url} (it searched in memory before): copied 2 vector(s) there" in out


def test_another_spelling_of_the_same_server_keeps_the_saved_one(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "idx", url, SKILLS)
    assert url.startswith("http://127.0.0.1:")
    respelled = url.replace("127.0.0.1", "localhost")
    code, out, _ = _cli(capsys, "repair", "--index-dir", str(path), "--chroma-url", respelled)
    assert code == 0 and f"index {path} is in step" in out, out
    assert mf.read_manifest(path)["chroma_url"] == url  # not rewritten


def test_a_write_whose_server_is_down_raises_server_unreachable(
    chroma_server: ChromaServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = index_on_server(tmp_path / "idx", chroma_server.url, SKILLS)
    chroma_server.stop()
    with pytest.raises(ServerUnreachableError) as err:
        Index.open(path, embedder=HashingEmbedder(), writable=True)  # a read searches in memory (test_server_down_reads)
    assert isinstance(err.value, IndexOpenError) and not isinstance(err.value, IndexCorruptError)  # no repair
    assert f"the Chroma server at {chroma_server.url} cannot be reached" in str(err.value)
    assert "not damaged" in (ServerUnreachableError.__doc__ or "")
    down = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ServerUnreachableError, match=f"nothing listens at 127.0.0.1:{down.rsplit(':', 1)[1]}"):
        Index.open(path, embedder=HashingEmbedder(), writable=True, chroma_url=down)  # checked before it is saved


def test_ctrl_c_during_index_says_how_to_complete_the_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from skill_retriever import indexing

    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"d{i}.md").write_text(f"# Doc {i}\n\nSome text about topic {i}.\n")
    ix = str(tmp_path / "ix")
    argv = ["index", str(docs), "--index-dir", ix, "--embedder", "hashing-64"]
    real = indexing.write_result

    def interrupted(*args: object, **kwargs: object) -> object:
        real(*args, **kwargs)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(indexing, "write_result", interrupted)
    code, _, err = _cli(capsys, *argv)
    assert code == 130
    assert f"the source it was writing into {ix} may be half-written" in err
    assert f"run the same command again to complete it: `skill-retriever {' '.join(argv)}`" in err

    def at_once(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(indexing, "write_result", at_once)
    fresh = str(tmp_path / "fresh")
    code, _, err = _cli(capsys, "index", str(docs), "--index-dir", fresh, "--embedder", "hashing-64")
    assert code == 130 and f"nothing was kept (the index at {fresh} was not made)" in err
    assert not Path(fresh).exists()


    def stopped(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("skill_retriever.cli.cmd_stats", stopped)
    code, _, err = _cli(capsys, "stats", "--index-dir", ix)  # a command that writes nothing: nothing to advise
    assert code == 130 and err == "skill-retriever: interrupted\n"
