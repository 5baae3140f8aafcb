"""A Chroma server address as it is shown, and the user and password one may hold.

chromadb's ``HttpClient`` is given a host and a port: a ``user:password@`` written into
the address (``http://u:secret@host:8000``) was never sent, so a server that wants it
refused every request, while the address, password and all, was printed in every error,
the ``stats`` line and ``stats --json`` (seen: chroma_url set so in index.json, then
``query`` and ``stats``). An address given with one is refused where it is given
(``chroma_connect.check_chroma_url``, which says how chromadb's own settings send
credentials); one ``index.json`` already holds is used without it, as it always was, with
a warning (:func:`stored_address`); and an address is shown through :func:`shown_address`.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["has_credentials", "meant_address", "said_address", "shown_address", "stored_address", "without_credentials"]

log = logging.getLogger("skill_retriever")

#: The index.json files whose credentials were warned of in this process (once each).
_WARNED: set[str] = set()


def _netloc(url: str) -> tuple[str, str, str]:
    """``url`` split as ``urlsplit`` splits it, by text alone (it raises on a bad ``[``):
    what comes before the authority, the authority, and what follows it."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    return scheme + sep, authority, rest[len(authority):]


def has_credentials(url: str) -> bool:
    """Whether ``url`` holds a ``user[:password]@`` (a token written so, too)."""
    return "@" in _netloc(url)[1]


def without_credentials(url: str) -> str:
    """``url`` as written, less its ``user[:password]@``."""
    head, authority, tail = _netloc(url)
    return head + authority.rpartition("@")[2] + tail


def shown_address(url: str) -> str:
    """``url`` as errors, ``stats`` and the MCP status show it: as written, less its
    ``user:password@``, query and fragment (a token written into the address would
    otherwise reach every reader of the output)."""
    head, authority, tail = _netloc(url)
    return head + authority.rpartition("@")[2] + re.split(r"[?#]", tail, maxsplit=1)[0]


def said_address(url: object) -> str:
    """A value refused as a server address, quoted in its refusal: as given, unless it holds
    credentials, a query or a fragment, which are left out (and said to be)."""
    text = str(url)
    if shown_address(text) == text:
        return repr(url)
    return f"{shown_address(text)!r} (its user, password and query left out here)"


def meant_address(url: str) -> str | None:
    """The address a host that is a number meant (``8000``: ``http://localhost:8000``, a
    port given alone); None when ``url``'s host is no number."""
    try:
        parts = urlsplit(url if "://" in url else f"http://{url}")
        host = parts.hostname or ""
    except ValueError:
        return None
    if not host.isdigit():
        return None
    return f"{parts.scheme or 'http'}://localhost:{_port(parts) or host}"


def _port(parts: Any) -> int | None:
    try:
        return int(parts.port) if parts.port else None
    except ValueError:  # a port that is no number
        return None


def stored_address(url: str, path: Path) -> str:
    """The ``chroma_url`` of the ``index.json`` at ``path`` as the index uses it: less a
    ``user:password@``, which chromadb never sent; the first time in a process, a warning
    says so and how to send credentials."""
    if not has_credentials(url):
        return url
    from skill_retriever.stores.server_auth import credentials_in_address

    bare = without_credentials(url)
    if str(path) not in _WARNED:
        _WARNED.add(str(path))
        shown = shown_address(bare)
        log.warning(
            "[skill_retriever] %s names chroma_url with a user and password, which the Chroma client never sends; "
            "the index uses %s, as it always did: %s",
            path, shown, credentials_in_address(f"write chroma_url there as {shown}"),
        )
    return bare
