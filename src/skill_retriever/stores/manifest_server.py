"""The Chroma server address an index's ``index.json`` holds, checked as index.json's.

A ``--chroma-url`` (or ``Index.open``'s ``chroma_url``) is checked where it is given; the
one ``index.json`` holds was checked only as if it had been given: a hand-edited value (as
the advice "check ... chroma_url in index.json" invites) that is no address was blamed on
a ``--chroma-url`` the user never gave, a number was read as a host name and connected
to, and ``stats`` said to start a server. :func:`manifest_server` names the file, what to
write there, and the ways round it (``--chroma-url``, ``move-to-embedded``, neither of
which reads that value).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skill_retriever.advice import command
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.server_address import meant_address, said_address
from skill_retriever.stores.server_errors import ServerAddressError

__all__ = ["manifest_server"]


def manifest_server(manifest: Mapping[str, Any], path: Path) -> str | None:
    """The server address ``manifest`` (the ``index.json`` of the index at ``path``) names,
    None when it names none.

    Raises:
        ServerAddressError: It names something that is no ``http(s)://host[:port]``.
    """
    from skill_retriever.stores.chroma_connect import check_chroma_url

    url = manifest.get("chroma_url")
    if not url:
        return None
    try:
        if isinstance(url, str):
            return check_chroma_url(url)
    except ConfigError:
        pass
    meant = meant_address(str(url)) if isinstance(url, (str, int)) and not isinstance(url, bool) else None
    write = (f"{meant} there (with the server's own host if it runs elsewhere)" if meant
             else "http://host:port or https://host:port there (no path), e.g. http://127.0.0.1:8000")
    raise ServerAddressError(
        f"{path / mf.MANIFEST} names chroma_url {said_address(url)}, which is not a Chroma server address"
        + (f" (a port alone: did you mean {meant}?)" if meant else ""),
        f"write {write}; or give the command --chroma-url; or search the index in memory: "
        f"`{command(['move-to-embedded'], path)}`",
    )
