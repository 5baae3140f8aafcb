"""Pickling or deep-copying an open index's handle (`Index`, `Retriever`, `SkillRetriever`)
is refused in words: what it holds (a SQLite connection, the write lock's descriptor,
threads' locks, loaded models) is this process's only, and pickle's own error named a lock
("cannot pickle '_thread.lock' object"), not what to do: open the index's path there.

A deep copy is refused too, not answered with the handle itself: a "copy" that is the
original (closing one closes the other) is no deep copy, and a real one would be a second
handle on the same folder (its own views and models in memory, contending for the write
lock). One handle serves many threads (README, "Thread safety"): share it.

A shallow ``copy.copy`` of an `Index` or `Retriever` is refused as well: it shared the
original's SQLite connection and lock but kept a ``closed`` flag of its own, so closing the
copy closed the original's database under it (``ix2 = copy.copy(ix); ix2.close(); len(ix)``
raised sqlite3's "Cannot operate on a closed database"). A `SkillRetriever` keeps pydantic's
shallow copy (``model_copy``, which LangChain users call): it shares the index but closes
only a `Retriever` it built itself, and a copy builds its own once that one is closed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, NoReturn, Self

__all__ = ["OpenHandle"]


class OpenHandle:
    """Refuses pickle, deepcopy and (but for a pydantic model) copy.copy with what to do
    instead. ``_reopen`` is how another process opens its own handle; the index's path is
    ``self.path`` or ``self.index.path``."""

    _reopen: ClassVar[str] = "Index.open(path)"
    #: Why a shallow copy is refused, and what to make instead (`__copy__`).
    _copy_shares: ClassVar[str] = (
        "(its SQLite connection and locks) but not its closed state: closing the copy would "
        "close the database under this one"
    )
    _copy_instead: ClassVar[str] = ""

    def _refusal(self, verb: str) -> TypeError:
        name = type(self).__name__
        return TypeError(
            f"{name} cannot be {verb}: it holds the open index at {self._index_path()} (its SQLite connection, "
            "locks and models), which only this process can use. To search from another process, "
            f"send it the path and open the index there: {self._reopen}; in this process, share "
            f"this {name} (it serves many threads)"
        )

    def __reduce__(self) -> NoReturn:
        raise self._refusal("pickled")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> NoReturn:
        raise self._refusal("deep-copied")

    def __copy__(self) -> Self:
        made = getattr(super(), "__copy__", None)  # a pydantic model's own shallow copy
        if made is None:
            name = type(self).__name__
            raise TypeError(
                f"{name} cannot be copied: a copy would share the open index at {self._index_path()} "
                f"{self._copy_shares}. Share this {name} (it serves many threads){self._copy_instead}"
            )
        return made()  # type: ignore[no-any-return]

    def _index_path(self) -> Path:
        holder: Any = getattr(self, "index", self)
        path: Path = holder.path
        return path
