"""A Chroma server address with a ``user:password@`` in it: chromadb's client never sends
it, and the address, password and all, was printed by every error, the ``stats`` line,
``stats --json`` and the MCP tools (seen: chroma_url ``http://u:secret@127.0.0.1:9`` in
index.json, then ``query`` and ``stats``). One given is refused before anything is
contacted, naming chromadb's own auth settings; one index.json holds is used without it,
as it always was, with a warning, and no output shows the password."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import anyio
import pytest
from chroma_support import free_port
from cli_refusals import refused
from tiny_graph import build_tiny_index

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.cli import main
from skill_retriever.exceptions import ConfigError, ServerUnreachableError
from skill_retriever.retriever import Retriever
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_address import shown_address
from skill_retriever.stores.server_moves import move_index_to_server

SECRET = "s3cretpw"


def _with_credentials(port: int) -> str:
    return f"http://reader:{SECRET}@127.0.0.1:{port}"


@pytest.fixture
def index_dir(tmp_path: Path) -> str:
    build_tiny_index(tmp_path / "ix").close()
    return str(tmp_path / "ix")


@pytest.fixture
def held(index_dir: str) -> tuple[str, int]:
    """An index whose index.json names a server with credentials, where nothing listens."""
    port = free_port()
    manifest = Path(index_dir) / mf.MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps({**data, "chroma_url": _with_credentials(port)}), encoding="utf-8")
    return index_dir, port


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("command", ["query", "stats", "move-to-server", "index", "repair"])
def test_an_address_given_with_credentials_is_refused_without_repeating_them(
    command: str, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (Path(index_dir) / mf.MANIFEST).read_bytes()
    port = free_port()
    argv = [command, *(["deploy"] if command == "query" else []), *(["--sample"] if command == "index" else [])]
    line, out = refused([*argv, "--index-dir", index_dir, "--chroma-url", _with_credentials(port)], capsys)
    assert SECRET not in line + out and "reader" not in line + out, line
    assert f"give --chroma-url http://127.0.0.1:{port} instead" in line, line
    assert "CHROMA_CLIENT_AUTH_PROVIDER=chromadb.auth.basic_authn.BasicAuthClientProvider" in line, line
    assert "CHROMA_CLIENT_AUTH_CREDENTIALS=<user>:<password>" in line, line
    assert (Path(index_dir) / mf.MANIFEST).read_bytes() == before  # nothing recorded


def test_the_python_api_refuses_it_too(index_dir: str) -> None:
    url = _with_credentials(free_port())
    for call in (
        lambda: Index.open(index_dir, embedder=HashingEmbedder(), chroma_url=url),
        lambda: Index.open(index_dir, embedder=HashingEmbedder(), chroma_url=url, writable=True),
        lambda: move_index_to_server(index_dir, url),
    ):
        with pytest.raises(ConfigError, match="holds credentials, which the Chroma client never sends") as err:
            call()
        assert SECRET not in str(err.value) and "reader" not in str(err.value)


def test_index_jsons_credentials_are_never_shown(held: tuple[str, int], capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, port = held
    code, out, err = _cli(capsys, "query", "deploy", "--index-dir", index_dir)  # searched in memory, saying why
    assert code == 0 and f"note: the Chroma server at http://127.0.0.1:{port} cannot be reached" in out, out + err
    assert SECRET not in out + err
    code, out, err = _cli(capsys, "query", "deploy", "--index-dir", index_dir, "--json")
    assert code == 0 and any(f"http://127.0.0.1:{port} cannot be reached" in w for w in json.loads(out)["warnings"])
    assert SECRET not in out + err
    code, out, err = _cli(capsys, "stats", "--index-dir", index_dir)
    assert code == 0 and f"server: the Chroma server at http://127.0.0.1:{port} cannot be reached" in out, out
    code, out, err = _cli(capsys, "stats", "--index-dir", index_dir, "--json")
    status = json.loads(out)
    assert code == 0 and status["server"]["url"] == status["chroma_url"] == f"http://127.0.0.1:{port}", status
    with pytest.raises(ServerUnreachableError) as raised:
        Index.open(index_dir, embedder=HashingEmbedder(), writable=True)  # a writer needs its server
    assert f"http://127.0.0.1:{port} cannot be reached" in str(raised.value)
    code, out, err = _cli(capsys, "move-to-embedded", "--index-dir", index_dir, "--json")
    assert code == 0 and json.loads(out)["chroma_url"] == f"http://127.0.0.1:{port}", out + err
    assert SECRET not in out + err + str(raised.value) and "reader" not in out + err + str(raised.value)


def test_the_mcp_tools_do_not_show_them(held: tuple[str, int]) -> None:
    index_dir, port = held
    index = Index.open(index_dir, embedder=HashingEmbedder(), create=False)
    try:
        server = build_server(index, retriever=Retriever(index, reranker=None))

        async def call() -> str:
            return str(await server.call_tool("search", {"query": "deploy"}))  # searched in memory, saying why

        said = anyio.run(call)
    finally:
        index.close()
    assert f"the Chroma server at http://127.0.0.1:{port} cannot be reached" in said, said
    assert SECRET not in said and "reader" not in said


def test_a_warning_says_they_are_not_sent_once(held: tuple[str, int], caplog: pytest.LogCaptureFixture) -> None:
    index_dir, port = held
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        for _ in range(2):
            assert mf.read_manifest(Path(index_dir))["chroma_url"] == f"http://127.0.0.1:{port}"
    said = [r.getMessage() for r in caplog.records if "user and password" in r.getMessage()]
    assert len(said) == 1, said
    assert f"write chroma_url there as http://127.0.0.1:{port} instead" in said[0]
    assert "CHROMA_CLIENT_AUTH_CREDENTIALS" in said[0] and SECRET not in said[0]


@pytest.mark.parametrize(("given", "meant"), [
    ("8000", "http://localhost:8000"), ("http://8000", "http://localhost:8000"), ("https://9000", "https://localhost:9000"),
])  # fmt: skip
def test_a_port_alone_is_refused_with_the_address_it_meant(
    given: str, meant: str, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line, _ = refused(["query", "deploy", "--index-dir", index_dir, "--chroma-url", given], capsys)
    assert f"did you mean {meant}?" in line, line
    with pytest.raises(ConfigError, match=f"did you mean {meant}"):
        Index.open(index_dir, embedder=HashingEmbedder(), chroma_url=given)


@pytest.mark.parametrize("written", ["8000", 8000])
def test_a_port_alone_in_index_json_says_what_it_meant(
    written: object, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = Path(index_dir) / mf.MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps({**data, "chroma_url": written}), encoding="utf-8")
    code, _, err = _cli(capsys, "query", "deploy", "--index-dir", index_dir)
    assert code == 2 and "did you mean http://localhost:8000?" in err and "write http://localhost:8000 there" in err, err


@pytest.mark.parametrize("given", ["http://[::1:8000", "http://127.0.0.1:8000#x", "http://127.0.0.1:8000/?token=abc"])
def test_other_addresses_that_are_none_are_refused_in_one_line(
    given: str, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unclosed ``[`` raised urlparse's ValueError as a traceback; a fragment was
    dropped unseen; a query's value (a token) was repeated in the refusal."""
    line, _ = refused(["query", "deploy", "--index-dir", index_dir, "--chroma-url", given], capsys)
    assert "is not a Chroma server address" in line and "abc" not in line, line


@pytest.mark.parametrize(("given", "shown"), [
    ("http://u:p@h:8000/?token=x#f", "http://h:8000/"),
    ("https://tok@[::1]:9000", "https://[::1]:9000"),
    ("u:p@[bad:8000", "[bad:8000"),
    ("8000", "8000"),
])  # fmt: skip
def test_shown_address_leaves_out_what_may_be_secret(given: str, shown: str) -> None:
    assert shown_address(given) == shown


def test_an_unclosed_bracket_in_index_json_is_said_by_stats(index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``stats`` raised urlparse's "Invalid IPv6 URL" as a traceback while wording the problem."""
    manifest = Path(index_dir) / mf.MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps({**data, "chroma_url": "http://[::1:8000"}), encoding="utf-8")
    code, out, _ = _cli(capsys, "stats", "--index-dir", index_dir, "--json")
    server = json.loads(out)["server"]
    assert code == 0 and server["reachable"] is False and "which is not a Chroma server address" in server["error"]
