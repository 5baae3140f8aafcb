"""Connecting to a Chroma server: the address check, a shared client whose first request is bounded."""

from __future__ import annotations

import logging
import ssl
from typing import Any

from skill_retriever.exceptions import ConfigError, ServerUnreachableError
from skill_retriever.stores.server_address import (
    has_credentials,
    meant_address,
    said_address,
    shown_address,
)
from skill_retriever.stores.server_auth import check_provider, credentials_in_address
from skill_retriever.stores.server_clients import client_key, keep_client, shared_client
from skill_retriever.stores.server_errors import NotChromaAnswer, reached, url_parts
from skill_retriever.stores.server_timeouts import bound_requests, error_of, problem_of
from skill_retriever.stores.server_trust import ssl_trust

log = logging.getLogger("skill_retriever")

#: Seconds a request to a Chroma server may take (connecting, sending, waiting for each
#: part of the answer): chromadb's client waits forever by default, so a stopped server
#: (``kill -STOP``: its port still accepts connections) hung every command.
CHROMA_TIMEOUT_S = 30.0


def check_chroma_url(url: str) -> str:
    """``url`` when it names a Chroma server (``http(s)://host[:port]``, no path).

    Raises:
        ConfigError: Another scheme, a path, a query, a fragment, no host, a host that is a
            number (a port given alone: ``8000``), or a ``user:password@``, which chromadb's
            client never sends (``stores.server_address``); the refusal never repeats it.
    """
    from urllib.parse import urlparse

    if has_credentials(url):
        shown = shown_address(url)
        raise ConfigError(
            f"--chroma-url {shown!r} (its user and password left out here) holds credentials, which the Chroma "
            f"client never sends to the server; {credentials_in_address(f'give --chroma-url {shown}')}"
        )
    if meant := meant_address(url):  # urlparse reads it as the host "8000", which was connected to
        raise ConfigError(f"--chroma-url {url!r} names no host, only a number (a port?); did you mean {meant}?")
    try:
        u = urlparse(url if "://" in url else f"http://{url}")
        port_ok = u.port is None or 0 < u.port < 65536
    except ValueError:  # a bad port, or an unclosed "[" (urlparse raised it through every command)
        u, port_ok = urlparse(""), False
    if (u.scheme not in ("http", "https") or not u.hostname or u.path not in ("", "/") or u.query or u.fragment
            or not port_ok):
        raise ConfigError(
            f"--chroma-url {said_address(url)} is not a Chroma server address; give http://host:port or "
            "https://host:port (no path), e.g. http://127.0.0.1:8000"
        )
    return url


def chroma_client(url: str, *, probe_s: float | None = None) -> Any:
    """An ``HttpClient`` for a Chroma server URL (``http://host:port``; telemetry off),
    shared by every caller in the process (``stores.server_clients``: one was never closed).
    ``probe_s``: how long the heartbeat that opens it waits (a read's ``read_probe.read_probe_s``;
    None: :data:`CHROMA_TIMEOUT_S`, as every later request).

    Raises:
        ConfigError: ``url`` is not a Chroma server address (:func:`check_chroma_url`),
            a CA setting names no bundle that can be read, or the auth provider setting
            no class (``stores.server_auth``).
        ServerUnreachableError: Nothing answers at ``url`` (refused, timed out, no such
            host); what answers wrongly raises chromadb's or httpx's error.
    """
    import chromadb
    from chromadb.config import Settings

    check_chroma_url(url)
    scheme, host, port = url_parts(url)
    settings = Settings(anonymized_telemetry=False, allow_reset=False)
    check_provider(settings)
    key = client_key(url, settings)
    try:
        wait = CHROMA_TIMEOUT_S if probe_s is None else probe_s
        answered = _answers_in_time(scheme, host, port, ssl_trust(settings), wait)
        client = shared_client(key) if answered else None  # else a new one fails in chromadb's words
        if client is None:
            client = keep_client(key, chromadb.HttpClient(host=host, port=port, ssl=scheme == "https", settings=settings))
    except ConfigError:
        raise
    except Exception as exc:  # chromadb says "Could not connect" whatever the cause: the chain tells
        if problem_of(url, exc).down:  # so that every open says the index is not damaged
            raise error_of(url, exc) from exc
        raise
    bound_requests(client, CHROMA_TIMEOUT_S)  # each time: a shared client keeps the bound now in force
    return client


def answers_within(url: str, wait: float) -> None:
    """Return once the Chroma server at ``url`` answers a heartbeat within ``wait`` seconds.
    A reader looking at its server again sends it before its count, whose request may take
    :data:`CHROMA_TIMEOUT_S`: a paused server (``kill -STOP``) held each look that long
    while the reader had its vectors in memory (``stores.read_probe``).

    Raises:
        ServerUnreachableError: It did not answer in time, or nothing answers (refused).
        IndexCorruptError: What answers is no Chroma server (``server_errors.server_problem``).
    """
    from chromadb.config import Settings

    scheme, host, port = url_parts(url)
    try:
        if not _answers_in_time(scheme, host, port, ssl_trust(Settings(anonymized_telemetry=False)), wait):
            log.debug("heartbeat of %s:%s failed; the request that follows reports it", host, port)
    except ConfigError:
        raise
    except Exception as exc:  # a timeout, or a catch-all web route (NotChromaAnswer)
        raise error_of(url, exc) from exc


def check_chroma_server(url: str) -> None:
    """Raise what opening an index would when the Chroma server at ``url`` cannot be used:
    ``index.json`` must name no server before it answered (a failed first ``index`` left one).

    Raises:
        ConfigError: ``url`` is no server address, or a CA setting names no bundle.
        ServerUnreachableError: Nothing answers at ``url`` (what to do).
        IndexCorruptError: The server answers but cannot be used (why, and what to do).
    """
    try:
        chroma_client(url).heartbeat()
    except (ConfigError, ServerUnreachableError):
        raise
    except Exception as exc:  # Chroma fails in many types (connection, HTTP, value errors)
        raise error_of(url, exc) from exc


def _answers_in_time(scheme: str, host: str, port: int, verify: ssl.SSLContext | bool, wait: float) -> bool:
    """Whether the server answered a heartbeat; raise httpx's timeout error when it does not
    answer within ``wait`` seconds: chromadb's ``HttpClient`` sends its first request
    while it is built, with no timeout and no setting for one; ``verify`` is that client's
    trust. Other failures (refused, TLS, not Chroma: False) are left for a new client to
    raise: ``server_problem`` words them."""
    import httpx

    netloc = f"[{host}]" if ":" in host else host
    try:
        answer = httpx.get(f"{scheme}://{netloc}:{port}/api/v2/heartbeat", timeout=wait, verify=verify)
    except httpx.TimeoutException:
        raise
    except httpx.HTTPError as exc:
        log.debug("heartbeat of %s:%s failed (%s); the Chroma client reports it", host, port, exc)
        return False
    reached(scheme, host, port)  # it answered in this scheme: a later hang-up is no TLS port
    if answer.is_success and not _is_heartbeat(answer):  # a catch-all web route: chromadb would fail parsing it
        raise NotChromaAnswer(answer.status_code, answer.headers.get("content-type", ""), answer.text)
    return answer.is_success


def _is_heartbeat(answer: Any) -> bool:
    """Whether ``answer`` is a Chroma heartbeat (``{"nanosecond heartbeat": N}``, which
    chromadb's client reads as it is built)."""
    try:
        said = answer.json()
    except ValueError:
        return False
    return isinstance(said, dict) and "nanosecond heartbeat" in said


__all__ = ["CHROMA_TIMEOUT_S", "answers_within", "check_chroma_server", "check_chroma_url", "chroma_client"]
