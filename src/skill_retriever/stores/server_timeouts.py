"""What a Chroma server that did not answer in time is told: a timeout is no server that
is down. A stopped (``kill -STOP``) or overloaded ``chroma run`` still accepts connections
(the kernel does that for it) and then never answers, so advising to start it sent the
user to start a second server on a port that is taken. Only a connection that was never
accepted in time leaves the host or the network in doubt.

:func:`problem_of` and :func:`error_of` are ``server_errors.server_problem`` and
``server_error`` with that rule applied first; :func:`bound_requests` gives chromadb's
client the timeout it lacks.
"""

from __future__ import annotations

import logging
from typing import Any

from skill_retriever.exceptions import IndexCorruptError, IndexOpenError, ServerUnreachableError
from skill_retriever.stores.server_address import shown_address
from skill_retriever.stores.server_errors import ServerProblem, server_problem, url_parts

__all__ = ["bound_requests", "error_of", "problem_of", "timed_out"]

log = logging.getLogger("skill_retriever")


def _timeout_in(exc: BaseException) -> BaseException | None:
    """The timeout in ``exc``'s chain (the HTTP client's, its transport's or the operating system's), if any."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, TimeoutError) or type(cur).__name__.endswith("Timeout"):
            return cur
        cur = cur.__cause__ or cur.__context__
    return None


def timed_out(url: str, exc: BaseException) -> ServerProblem | None:
    """What went wrong and what to do when ``exc`` is a timeout of the server at ``url``;
    None for any other failure."""
    found = _timeout_in(exc)
    if found is None:
        return None
    _, host, port = url_parts(url)
    kind = type(found).__name__
    if "Connect" in kind:  # no handshake: the host, the network or a firewall, not a busy server
        return ServerProblem(
            f"{host}:{port} did not accept a connection in time ({kind})",
            f"check that the host is up and reachable from here and that a Chroma server runs on port {port}; "
            "or check --chroma-url / chroma_url in index.json",
            down=True,
        )
    return ServerProblem(
        f"{host}:{port} did not answer in time ({kind}): it accepted the connection, so a server runs there "
        "but is busy or stopped (a paused process)",
        "wait for it, or restart it if it stays stopped, then try again",
        down=True,
    )


def problem_of(url: str, exc: BaseException) -> ServerProblem:
    """``server_errors.server_problem``, a timeout said as one (:func:`timed_out`)."""
    return timed_out(url, exc) or server_problem(url, exc)


def error_of(url: str, exc: BaseException) -> IndexOpenError:
    """``server_errors.server_error``, a timeout said as one: :class:`ServerUnreachableError`
    when nothing answered (the index is not damaged)."""
    problem = problem_of(url, exc)
    if problem.down:
        return ServerUnreachableError(f"the Chroma server at {shown_address(url)} cannot be reached: {problem.what}; {problem.todo}")
    return IndexCorruptError(f"the Chroma server at {shown_address(url)} cannot be used: {problem.what}; {problem.todo}")


def bound_requests(client: Any, seconds: float) -> None:
    """Give the client's HTTP session the timeout chromadb 1.5 builds it without
    (``httpx.Client(timeout=None)``; its ``Settings`` have no client timeout)."""
    import httpx

    session = getattr(getattr(client, "_server", None), "_session", None)
    if not isinstance(session, httpx.Client):  # a chromadb whose client changed: say so, not hang unannounced
        log.warning("the Chroma client has no HTTP session to bound; a server that stops answering hangs requests")
        return
    session.timeout = httpx.Timeout(seconds)
