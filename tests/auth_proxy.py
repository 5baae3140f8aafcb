"""An HTTP proxy in front of a `chroma run` server that asks for a token, for the tests of
Chroma servers behind authentication (tests/stores/test_chroma_server_auth.py).

``chroma run`` has no authentication of its own; a deployment puts it behind a proxy that
checks a token (or uses Chroma Cloud). :class:`AuthProxy` is that proxy, from the standard
library and httpx (chromadb's own HTTP client): every request, the heartbeat included,
needs ``Authorization: Bearer <token>`` or ``X-Chroma-Token: <token>``; any other gets HTTP
401, in JSON as Chroma answers, or as an HTML page (``html=True``) as nginx does.
"""

from __future__ import annotations

import http.server
import threading
from typing import Any

import httpx

__all__ = ["AuthProxy"]

#: Headers that describe one hop, not the request: the proxy sets its own.
_HOP = frozenset({"host", "content-length", "transfer-encoding", "connection", "content-encoding"})


class AuthProxy:
    """A proxy on a free loopback port that forwards to ``upstream`` the requests that carry
    ``token``; :meth:`close` it when done."""

    def __init__(self, upstream: str, token: str, *, html: bool = False) -> None:
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _forward(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                bearer = self.headers.get("Authorization") == f"Bearer {token}"
                if not (bearer or self.headers.get("X-Chroma-Token") == token):
                    proxy.refused += 1
                    self._send(401, *_refusal(html))
                    return
                answer = httpx.request(
                    self.command, upstream + self.path, content=body,
                    headers={k: v for k, v in self.headers.items() if k.lower() not in _HOP}, timeout=30,
                )
                kind = answer.headers.get("content-type", "application/json")
                self._send(answer.status_code, kind, answer.content)

            def _send(self, status: int, kind: str, content: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _forward

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.refused = 0  # requests turned away for want of the token
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


def _refusal(html: bool) -> tuple[str, bytes]:
    if html:
        return "text/html", b"<html><head><title>401 Authorization Required</title></head><body>nginx</body></html>"
    return "application/json", b'{"error":"Unauthorized","message":"missing or wrong token"}'
