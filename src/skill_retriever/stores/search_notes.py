"""Why an answer's vector search ran in memory although its index names a Chroma server,
said in the answer (``IndexSnapshot.search_notes``) and not only in a log line, which a
JSON or MCP caller never sees: it cannot tell a degraded search from a normal one.

Two cases. The process did not take the server up when it opened the index, or followed a
move (a ``cp -r`` copy of an index on a server, the collections missing or out of step):
``stores.remote`` decides, and records why in ``LiveState.in_memory_note``, which each
snapshot carries. Or it searches the server, and its collections were found out of step
since (a write that did not reach them, entries deleted there, the data wiped): the
collections' fallback says so (``vectors.OutOfStepSearch``, judged once an index version;
a writer's, while it cannot make them again: ``stores.writer_search``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skill_retriever.stores.snapshot import RemoteVectors

__all__ = ["InMemoryNotes"]


@dataclass(frozen=True)
class InMemoryNotes:
    """The warnings of a snapshot's answers on searching in memory; call it for them."""

    note: str  # ``LiveState.in_memory_note`` when the snapshot was taken ("" for none)
    remote: RemoteVectors | None  # the server it searches (None: in memory, or none named)
    path: Path

    def __call__(self) -> list[str]:
        if self.note:
            return [self.note]
        store = self.remote.nodes if self.remote is not None else None
        fallback = getattr(store, "fallback", None)
        if callable(said_by := getattr(fallback, "note", None)):  # a writer's (stores.writer_search)
            return [note] if (note := str(said_by())) else []
        if fallback is None or not fallback.out_of_step():
            return []
        if callable(down := getattr(fallback, "down_note", None)) and (said_down := str(down())):
            return [said_down]  # the server did not answer (stores.server_down)
        from skill_retriever.stores.repair_wait import while_writing
        from skill_retriever.stores.server_errors import repair_command

        url = str(getattr(store, "url", "") or "its Chroma server")
        where = str(getattr(store, "index_dir", "") or self.path)
        said = (
            f"the Chroma server at {url} does not hold the vectors of the index at {where} as they are (a write that "
            "did not reach it, entries changed or deleted there, or its data wiped): vector search ran on the "
            f"index's own vectors in memory; `{repair_command(where, url)}` copies them there again{while_writing(where)}"
        )
        return [said]
