"""Wrong Chroma server addresses, against a real `chroma run` server: nothing listening,
https spoken to the plain-http server, and a web server that is not Chroma each get one
short line that says which it is and what to do (chromadb itself says "Could not
connect ... Are you sure it is running?" for the first two and passes the third's whole
HTML page on), from ``Index.open``, ``query``, ``stats`` and ``move-to-server``."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from chroma_support import free_port
from server_index import index_on_server, numbered_skills

from skill_retriever.cli import main
from skill_retriever.exceptions import IndexOpenError
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SKILLS = numbered_skills(4, prefix="n", text="skill number {i}")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[str]:
    """The address of a plain web server (``python -m http.server``), not a Chroma one."""
    handler = lambda *a, **kw: _Quiet(*a, directory=str(tmp_path), **kw)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _one_short_line(text: str) -> None:
    assert "\n" not in text.strip() and "\\x0a" not in text and len(text) < 500, text
    assert "<html" not in text.lower() and "<!doctype" not in text.lower(), text


def _open_error(index: str, url: str, *, writable: bool = False) -> str:
    with pytest.raises(IndexOpenError) as err:  # cannot be used: IndexCorruptError; down: ServerUnreachableError
        Index.open(index, embedder=HashingEmbedder(), chroma_url=url, writable=writable)
    message = str(err.value)
    _one_short_line(message)
    return message


def test_https_to_the_plain_http_server_says_to_use_http(url: str, tmp_path: Path) -> None:
    index = str(index_on_server(tmp_path / "idx", url, SKILLS))
    port = urlparse(url).port
    message = _open_error(index, url.replace("http://", "https://"))
    assert "speaks plain HTTP" in message and f"use http://127.0.0.1:{port}" in message
    assert "Are you sure it is running" not in message  # it is running


def test_nothing_listening_names_the_port_to_start_the_server_on(url: str, tmp_path: Path) -> None:
    index = str(index_on_server(tmp_path / "idx", url, SKILLS))
    port = free_port()
    message = _open_error(index, f"http://127.0.0.1:{port}", writable=True)  # a reader searches in memory
    assert f"nothing listens at 127.0.0.1:{port}" in message
    assert f"chroma run --path <dir> --host 127.0.0.1 --port {port}" in message


def test_a_web_server_that_is_not_chroma_is_named_so(url: str, web_server: str, tmp_path: Path) -> None:
    index = str(index_on_server(tmp_path / "idx", url, SKILLS))
    message = _open_error(index, web_server)
    assert "answers HTTP but not as a Chroma server (HTTP 404" in message
    assert f"{web_server}/api/v2/heartbeat" in message


def test_the_cli_says_it_in_one_line(
    url: str, web_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = str(index_on_server(tmp_path / "idx", url, SKILLS))
    wrong = {
        url.replace("http://", "https://"): "speaks plain HTTP",
        web_server: "not as a Chroma server",
        f"http://127.0.0.1:{free_port()}": "nothing listens at",
    }
    for bad, says in wrong.items():
        code, out, err = _cli(capsys, "query", "skill", "--index-dir", index, "--chroma-url", bad)
        if says == "nothing listens at":  # down: a read searches the index's own vectors in memory, saying why
            assert code == 0 and says in next(x for x in out.splitlines() if x.startswith("note: ")), out + err
        else:
            assert code == 2 and says in err and "Traceback" not in err
            _one_short_line(err)
        code, out, _ = _cli(capsys, "query", "skill", "--index-dir", index, "--chroma-url", bad, "--json")
        said = json.loads(out)
        assert code == (0 if says == "nothing listens at" else 2)
        assert says in (" ".join(said["warnings"]) if code == 0 else said["error"])
        code, out, _ = _cli(capsys, "stats", "--index-dir", index, "--chroma-url", bad)
        line = next(x for x in out.splitlines() if x.startswith("server:"))
        assert code == 0 and says in line
        _one_short_line(line)
        code, out, _ = _cli(capsys, "stats", "--index-dir", index, "--chroma-url", bad, "--json")
        server = json.loads(out)["server"]
        assert server["reachable"] is False and says in server["error"] and server["advice"]
        code, _, err = _cli(capsys, "move-to-server", "--index-dir", index, "--chroma-url", bad)
        assert code == 2 and says in err
        _one_short_line(err)
    code, out, _ = _cli(capsys, "stats", "--index-dir", index)  # nothing of the index was changed
    assert code == 0 and f"server: {url} holds" in out


@pytest.mark.parametrize("written", ["htp://127.0.0.1:8000", 8000, "http://127.0.0.1:8000/api/v2"])
def test_an_address_index_json_holds_that_is_none_is_named_as_index_jsons(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], written: object
) -> None:
    """A ``chroma_url`` in ``index.json`` that is no server address (hand-edited, as the
    advice "check ... chroma_url in index.json" invites) was blamed on a ``--chroma-url``
    never given, or, a number, read as a host name and connected to; ``stats`` said to
    start a server. It is named as index.json's, with how to fix it, and the way out
    (``move-to-embedded``, ``--chroma-url``) still works."""
    index = str(index_on_server(tmp_path / "idx", url, SKILLS))
    manifest = Path(index) / "index.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps({**data, "chroma_url": written}), encoding="utf-8")
    said = f"{manifest} names chroma_url {written!r}, which is not a Chroma server address"
    code, _, err = _cli(capsys, "query", "skill", "--index-dir", index)
    assert code == 2 and said in err and "--chroma-url '" not in err, err
    _one_short_line(err)
    code, out, _ = _cli(capsys, "stats", "--index-dir", index, "--json")
    server = json.loads(out)["server"]
    assert code == 0 and server["reachable"] is False and said in server["error"], server
    assert "chroma run" not in server["advice"] and "move-to-embedded" in server["advice"], server
    code, out, err = _cli(capsys, "query", "skill number 2", "--index-dir", index, "--chroma-url", url, "--json")
    assert code == 0 and json.loads(out)["results"], err
