"""The MCP status resource (``skill-retriever://status``): what the caller may see, and the
index's Chroma server.

The resource counted the items but said nothing of the server an index on one searches
through, so an agent whose searches failed could not tell why. It now names the server
(its address without credentials: ``user:password@`` and any query are left out), whether
it answers now (asked at each read), and, when it does not, since when this MCP server
has found it so, as ``stats --json`` words a server (``error``, ``advice``, ``down``),
and ``reads``: that searches answer from the index's own copy of its vectors in memory
meanwhile (``stores.server_down``), while writes are refused.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from skill_retriever.adapters.mcp_arguments import ResourceError, ToolError
from skill_retriever.adapters.mcp_search import caller_view
from skill_retriever.components.service import ComponentService
from skill_retriever.stores.server_address import shown_address
from skill_retriever.stores.server_down import MEANWHILE
from skill_retriever.stores.server_timeouts import problem_of

__all__ = ["ServerWatch", "shown_address"]


class ServerWatch:
    """The status resource of one MCP server over ``service``'s index."""

    def __init__(self, service: ComponentService) -> None:
        self.service = service
        #: When the reads in a row that found the server down began (``time.time()``; None: it answered).
        self.since: float | None = None

    def status(self) -> dict[str, Any]:
        """The status resource's answer: the caller's counts, with ``chroma_server``.

        Raises:
            ResourceError: The index itself cannot be read (why, and what to do).
        """
        server = self.server()
        try:
            out: dict[str, Any] = caller_view(self.service).status()
        except ToolError as exc:  # a resource read says its failure as ResourceError
            raise ResourceError(str(exc)) from exc
        return out | ({"chroma_server": server} if server is not None else {})

    def server(self) -> dict[str, Any] | None:
        """The index's Chroma server now (asked: one heartbeat), None when it uses none."""
        from skill_retriever.stores.chroma_connect import chroma_client
        from skill_retriever.stores.read_probe import read_probe_s

        index = self.service.index
        url = index.chroma_url
        if not url:
            return None
        shown, probe_s = {"url": shown_address(url)}, read_probe_s()  # a read: said down once the probe waited
        try:
            chroma_client(url, probe_s=probe_s).heartbeat()
        except Exception as exc:  # noqa: BLE001 -- down, refused, timed out, an HTTP error: reported, not raised
            problem = problem_of(url, exc)
            if not problem.down:  # it answers, wrongly (credentials, not Chroma): no outage to date
                self.since = None
                return shown | {"reachable": False, "error": problem.what, "advice": problem.todo, "down": False}
            self.since = self.since or time.time()
            since = datetime.fromtimestamp(self.since, UTC).isoformat(timespec="seconds")
            return shown | {"reachable": False, "error": problem.what, "advice": problem.todo, "down": True,
                            "unreachable_since": since, "reads": MEANWHILE}
        self.since = None
        return shown | {"reachable": True}
