"""What went wrong with a Chroma server, in one line, and what to do about it.

chromadb wraps every failure of its HTTP client in a ``ValueError`` whose text is
either "Could not connect to a Chroma server. Are you sure it is running?" (whatever the
cause: nothing listening, or https spoken to a plain-http server) or the whole body the
other end sent (an HTML page, when the address is some other web server). The cause is
in the exception chain; :func:`server_problem` reads it from there. A certificate that is
not trusted says which setting names the CAs to trust (``stores.server_trust``).
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlparse

from skill_retriever.advice import Word, command
from skill_retriever.exceptions import (
    ConfigError,
    IndexCorruptError,
    IndexOpenError,
    ServerUnreachableError,
)
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.server_address import shown_address
from skill_retriever.stores.server_auth import AUTH_STATUSES, AuthSettingError, credentials_advice
from skill_retriever.stores.server_trust import TrustSettingError, trust_advice

__all__ = [
    "NotChromaAnswer", "ServerAddressError", "ServerProblem", "one_server", "reached", "repair_command", "server_error", "server_problem", "start_hint",
    "url_parts",
]

#: The servers (scheme, host, port) that answered this process: one that later closes a
#: connection without an answer stopped or restarted; it is no TLS port spoken to in http.
_REACHED: set[tuple[str, str, int]] = set()

#: TLS errors that mean the other end answered in plain HTTP (an https URL for an http server).
_PLAIN_HTTP = ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "record layer failure", "HTTP_REQUEST", "wrong version number")
#: OpenSSL's verify codes for a certificate out of its dates, and for one not for the host
#: (a name, an address).
_EXPIRED, _WRONG_HOST = (9, 10), (62, 64)


class ServerAddressError(ConfigError):
    """``index.json`` names no server address (``stores.manifest_server``): ``what`` is
    wrong, ``todo`` says what to do."""

    def __init__(self, what: str, todo: str) -> None:
        super().__init__(f"{what}; {todo}")
        self.what, self.todo = what, todo


class NotChromaAnswer(Exception):
    """A server answered a Chroma heartbeat request with success but no heartbeat: a web
    application whose catch-all route answers every path (chromadb's client failed parsing
    it, in words such as "unexpected character, expected a JSON value")."""

    def __init__(self, status: int, content_type: str, text: str) -> None:
        super().__init__(f"HTTP {status} without a Chroma heartbeat")
        self.status, self.content_type, self.text = status, content_type, text

    def __reduce__(self) -> tuple[type[NotChromaAnswer], tuple[int, str, str]]:
        # made again from what __init__ takes: its args hold the message only (test_errors_pickle)
        return type(self), (self.status, self.content_type, self.text)

    def said(self) -> str:
        """What it sent, in a few words: a web page is not quoted."""
        if "html" in self.content_type or self.text.lstrip().startswith("<"):
            return "a web page"
        return f"{self.content_type or 'an untyped answer'}: {_one_line(self.text, 80)!r}"


class ServerProblem(NamedTuple):
    """What went wrong (one line), what to do, and whether nothing answered at all
    (``down``: refused, timed out) rather than something answering wrongly."""

    what: str
    todo: str
    down: bool = False


def url_parts(url: str) -> tuple[str, str, int]:
    """The scheme, host and port a ``chroma_url`` names (``http``, ``localhost`` and
    Chroma's 8000 where it names none; a bare ``host:port`` is http)."""
    try:
        u = urlparse(url if "://" in url else f"http://{url}")
    except ValueError:  # an unclosed "[" in index.json's: no host to name (stats raised it)
        return "http", "localhost", 8000
    try:
        port = u.port
    except ValueError:
        port = None
    return u.scheme or "http", u.hostname or "localhost", port or 8000


#: Names of this machine's loopback address: a server on a loopback port answers each.
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def one_server(a: object, b: object) -> bool:
    """Whether two ``chroma_url`` values name one server in other spellings: the same
    scheme and port (8000 where none is named), and the same host or two names of this
    machine's loopback address (``localhost`` and ``127.0.0.1``)."""
    if not a or not b:
        return False
    (scheme_a, host_a, port_a), (scheme_b, host_b, port_b) = url_parts(str(a)), url_parts(str(b))
    hosts = host_a.lower() == host_b.lower() or {host_a.lower(), host_b.lower()} <= _LOOPBACK
    return scheme_a == scheme_b and port_a == port_b and hosts


def reached(scheme: str, host: str, port: int) -> None:
    """Note that the server at ``scheme://host:port`` answered this process."""
    _REACHED.add((scheme, host.lower(), port))


def repair_command(index_dir: str | Path, url: str) -> str:
    """The ``repair`` command that copies the vectors of the index at ``index_dir`` to the
    server at ``url``: with ``--chroma-url`` when its ``index.json`` names another server or
    none (a plain ``repair`` would sync that one, or nothing)."""
    words: list[Word] = ["repair", "--index-dir", index_dir]
    try:
        named = mf.read_manifest(Path(index_dir)).get("chroma_url")
    except (IndexOpenError, OSError):  # no index.json to read: the plain command names what is there
        return command(words)
    same = url_parts(str(named)) == url_parts(url) if named else False
    return command(words if same or not url else [*words, "--chroma-url", url])


def start_hint(url: str) -> str:
    """How to start a server at ``url``, or where to look when it is not the right one."""
    _, host, port = url_parts(url)
    return f"start it (`chroma run --path <dir> --host {host} --port {port}`) or check --chroma-url / chroma_url in index.json"


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        yield cur
        cur = cur.__cause__ or cur.__context__


def _one_line(text: object, limit: int = 200) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def server_problem(url: str, exc: BaseException) -> ServerProblem:
    """Why the Chroma server at ``url`` failed with ``exc`` (short, one line), and what to
    do: nothing listening, https spoken to a plain-http server, a TLS failure, credentials
    wanted or refused (HTTP 401/403), an address that answers HTTP but is no Chroma server,
    a timeout; else the error's first words."""
    scheme, host, port = url_parts(url)
    start = start_hint(url)
    chain = list(_chain(exc))
    if isinstance(chain[0], (TrustSettingError, AuthSettingError, ServerAddressError)):
        return ServerProblem(chain[0].what, chain[0].todo)
    if other := next((e for e in chain if isinstance(e, NotChromaAnswer)), None):
        return ServerProblem(
            f"{host}:{port} answers HTTP but not as a Chroma server (HTTP {other.status} for /api/v2/heartbeat, "
            f"with {other.said()})", _check_address(scheme, host, port),
        )
    for e in chain:
        if isinstance(e, ssl.SSLCertVerificationError):
            return _untrusted(e, scheme, host, port)
        if isinstance(e, ssl.SSLError):
            reason = str(getattr(e, "reason", "") or "")
            if any(m in reason or m in str(e) for m in _PLAIN_HTTP):
                return ServerProblem(
                    f"the TLS handshake failed ({_one_line(e)}): the server at {host}:{port} speaks plain HTTP",
                    f"use http://{host}:{port} (--chroma-url, or chroma_url in index.json)",
                )
            return ServerProblem(
                f"the TLS handshake failed ({_one_line(e)})",
                f"check the server's certificate, or use http://{host}:{port} if it has no TLS",
            )
    if scheme == "http" and any(_hung_up(e) for e in chain):
        if (scheme, host.lower(), port) in _REACHED:  # it answered plain HTTP before: it stopped
            return ServerProblem(
                f"{host}:{port} closed the connection without answering: the server stopped or restarted during "
                "the request", f"check that it runs, then try again; else {start}", down=True,
            )
        return _speaks_tls(host, port, "closed the connection without answering plain HTTP", " (or the server stopped)")
    for e in chain:
        response = getattr(e, "response", None)
        status = getattr(response, "status_code", None)
        if isinstance(status, int):
            if scheme == "http" and status == 400 and "HTTPS port" in str(getattr(response, "text", "")):
                return _speaks_tls(host, port, "answered that plain HTTP was sent to its HTTPS port")
            if status in AUTH_STATUSES:  # it answered: starting a server is no fix (stores.server_auth)
                said = _one_line(getattr(response, "text", "") or "")
                return ServerProblem(
                    f"the server at {host}:{port} refused the request without valid credentials (HTTP {status}"
                    f"{': ' + said if said and not said.startswith('<') else ''})", credentials_advice(),
                )
            if "json" in str(getattr(response, "headers", {}).get("content-type", "")):  # a Chroma server's own error
                return ServerProblem(f"the server answered HTTP {status}: {_one_line(getattr(response, 'text', ''))}", start)
            path = urlparse(str(getattr(getattr(response, "request", None), "url", "") or "")).path or "/api/v2"
            return ServerProblem(
                f"{host}:{port} answers HTTP but not as a Chroma server (HTTP {status} for {path})", _check_address(scheme, host, port)
            )
    for e in chain:
        if isinstance(e, socket.gaierror):
            return ServerProblem(
                f"the host name {host} does not resolve ({_one_line(e)})",
                "check the host in --chroma-url / chroma_url in index.json (a typo, or a name only another "
                "network knows)", down=True,
            )
        if isinstance(e, ConnectionRefusedError) or "Connection refused" in str(e):
            return ServerProblem(f"nothing listens at {host}:{port} (connection refused)", start, down=True)
        if isinstance(e, TimeoutError) or type(e).__name__.endswith("Timeout"):
            return ServerProblem(f"{host}:{port} did not answer in time ({type(e).__name__})", start, down=True)
    root = chain[-1]
    if isinstance(root, OSError) or type(root).__module__.split(".")[0] in ("httpx", "httpcore"):
        return ServerProblem(f"{type(root).__name__}: {_one_line(root)}", start, down=True)
    first = chain[0]
    text = str(first)
    if text.lstrip().startswith("<"):  # a web page: some other server answered
        return ServerProblem(
            f"{host}:{port} answers HTTP but not as a Chroma server (it sent a web page)", _check_address(scheme, host, port)
        )
    said = _one_line(text) or "with no message"  # chromadb raises ValueError('') of a host that is no server
    return ServerProblem(f"{type(first).__name__}: {said}", start)


def server_error(url: str, exc: BaseException) -> IndexOpenError:
    """The error an open raises when the Chroma server at ``url`` failed with ``exc``:
    :class:`ServerUnreachableError` when nothing answered (the index is not damaged)."""
    problem = server_problem(url, exc)
    if problem.down:
        return ServerUnreachableError(f"the Chroma server at {shown_address(url)} cannot be reached: {problem.what}; {problem.todo}")
    return IndexCorruptError(f"the Chroma server at {shown_address(url)} cannot be used: {problem.what}; {problem.todo}")


def _check_address(scheme: str, host: str, port: int) -> str:
    """What to do when another web server answers at the address: the address is wrong."""
    return f"check --chroma-url / chroma_url in index.json: a Chroma server answers {scheme}://{host}:{port}/api/v2/heartbeat"


def _untrusted(e: ssl.SSLCertVerificationError, scheme: str, host: str, port: int) -> ServerProblem:
    """A certificate the client refused: out of its dates, for another host, or signed by
    a CA the client does not trust (the usual case of a private CA)."""
    why = _one_line(e.verify_message or e.reason or e)
    if e.verify_code in _EXPIRED:
        return ServerProblem(
            f"the server's certificate is not valid now ({why})", f"renew the certificate of the server at {host}:{port}"
        )
    if e.verify_code in _WRONG_HOST:
        return ServerProblem(
            f"the server's certificate is not for {host} ({why})",
            f"give --chroma-url (or chroma_url in index.json) a host name the certificate names: {scheme}://<name>:{port}",
        )
    return ServerProblem(f"the server's certificate is not trusted ({why})", trust_advice())


def _hung_up(e: BaseException) -> bool:
    """Whether the other end accepted the connection, then closed it without an answer."""
    return isinstance(e, ConnectionResetError) or (
        type(e).__name__ == "RemoteProtocolError" and "without sending a response" in str(e)
    )


def _speaks_tls(host: str, port: int, did: str, or_else: str = "") -> ServerProblem:
    return ServerProblem(
        f"{host}:{port} {did}, as a port that serves TLS does{or_else}",
        f"use https://{host}:{port} (--chroma-url, or chroma_url in index.json) if it serves TLS; else {start_hint(f'http://{host}:{port}')}",
    )
