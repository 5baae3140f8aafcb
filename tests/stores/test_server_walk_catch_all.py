"""A web application on the Chroma server's port that answers every path with HTTP 200
(a single-page app's catch-all route, a JSON API's status page), against a real `chroma
run` server holding the index: it was said to be a Chroma server that "cannot be used"
in chromadb's parsing words ("ValueError: unexpected character, expected a JSON value",
"UserIdentity.__init__() got an unexpected keyword argument 'status'") with advice to
start one with `chroma run`, though something answers on that port. It is named as a web
server that is no Chroma server, as one answering 404 is, whatever it sends."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_index import index_on_server, numbered_skills

from skill_retriever.cli import main
from skill_retriever.exceptions import IndexOpenError
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SKILLS = numbered_skills(4, prefix="n", text="skill number {i}")

#: What a catch-all route answers to every path: content type and body.
BODIES = {
    "web page": ("text/html", b"<!doctype html><html><body><div id=app></div></body></html>"),
    "JSON": ("application/json", b'{"status": "ok"}'),
    "text": ("text/plain", b"ok"),
}


def _catch_all(content_type: str, body: bytes) -> type[http.server.BaseHTTPRequestHandler]:
    class CatchAll(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self.send_response(200)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_DELETE = _answer

        def log_message(self, format: str, *args: object) -> None:
            pass

    return CatchAll


@pytest.fixture(params=sorted(BODIES))
def catch_all(request: pytest.FixtureRequest) -> Iterator[str]:
    """The address of a web server answering every path with HTTP 200 and one body."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _catch_all(*BODIES[request.param]))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def _says_not_chroma(message: str, address: str) -> None:
    assert "answers HTTP but not as a Chroma server" in message, message
    assert f"a Chroma server answers {address}/api/v2/heartbeat" in message, message
    assert "chroma run" not in message and "ValueError" not in message and "UserIdentity" not in message, message
    assert "\n" not in message.strip() and len(message) < 500, message


def test_an_open_names_a_catch_all_web_server_as_no_chroma_server(url: str, catch_all: str, tmp_path: Path) -> None:
    index = index_on_server(tmp_path / "idx", url, SKILLS)
    with pytest.raises(IndexOpenError) as err:
        Index.open(index, embedder=HashingEmbedder(), chroma_url=catch_all)
    _says_not_chroma(str(err.value), catch_all)


def test_move_to_server_and_query_say_so_and_change_nothing(
    url: str, catch_all: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = index_on_server(tmp_path / "idx", url, SKILLS)
    manifest = (index / "index.json").read_text()
    for command in ("move-to-server", "query"):
        capsys.readouterr()
        argv = [command, *(["skill"] if command == "query" else []), "--index-dir", str(index), "--chroma-url", catch_all]
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2, err
        _says_not_chroma(err, catch_all)
    capsys.readouterr()
    assert main(["stats", "--index-dir", str(index), "--json"]) == 0
    server = json.loads(capsys.readouterr().out)["server"]
    assert server["url"] == url and server["reachable"] is True
    assert (index / "index.json").read_text() == manifest
