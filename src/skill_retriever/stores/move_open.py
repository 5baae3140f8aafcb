"""Opening an index for ``move_index_to_server`` / ``move_index_to_embedded``, in the words
of the function the caller called. They open it with `Index.open`, whose errors name
``Index.open``: a bad ``lock_wait_s`` given to a move was refused as "Index.open's
lock_wait_s", and a busy index told the caller to "open it with Index.open(...,
lock_wait_s=SECONDS)", a call it never made (found in a walkthrough)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from skill_retriever.exceptions import IndexLockedError
from skill_retriever.stores import api_args
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.lock import locked_message

__all__ = ["open_to_move"]


@contextmanager
def open_to_move(path: str | Path, embedder: Embedder | None, lock_wait_s: float, caller: str) -> Iterator[Index]:
    """The index at ``path`` opened to write, without its server, for ``caller`` (the
    public function's name, which the errors name).

    Raises:
        ConfigError: ``path`` or ``lock_wait_s`` is unusable (named as ``caller``'s).
        IndexLockedError: Another process (or handle) is writing; its message says how
            to wait through ``caller``.
    """
    where = api_args.one_path(path, f"{caller}'s path")
    wait = api_args.lock_wait(lock_wait_s, f"{caller}'s lock_wait_s")
    try:
        index = Index.open(where, embedder=embedder, writable=True, use_server=False, lock_wait_s=wait)
    except IndexLockedError as exc:
        directory = exc.directory or str(where)
        how = f"call {caller}(..., lock_wait_s=SECONDS)"
        raise IndexLockedError(locked_message(directory, exc.holder, exc.waited_s, how, "index directory"),
                               directory, exc.holder, exc.waited_s) from None
    with index:
        yield index
