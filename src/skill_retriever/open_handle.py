"""Pickling or deep-copying an open index's handle (`Index`, `Retriever`, `SkillRetriever`)
is refused in words: what it holds (a SQLite connection, the write lock's descriptor,
threads' locks, loaded models) is this process's only, and pickle's own error named a lock
("cannot pickle '_thread.lock' object"), not what to do: open the index's path there.

A deep copy is refused too, not answered with the handle itself: a "copy" that is the
original (closing one closes the other) is no deep copy, and a real one would be a second
handle on the same folder (its own views and models in memory, contending for the write
lock). One handle serves many threads (README, "Thread safety"): share it. ``copy.copy``
makes the shallow copy it made before (pickle's protocol, which it went through, now refuses).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, NoReturn, Self

__all__ = ["OpenHandle"]


class OpenHandle:
    """Refuses pickle and deepcopy with what to do instead. ``_reopen`` is how another
    process opens its own handle; the index's path is ``self.path`` or ``self.index.path``."""

    _reopen: ClassVar[str] = "Index.open(path)"

    def _refusal(self, verb: str) -> TypeError:
        name = type(self).__name__
        holder: Any = getattr(self, "index", self)
        path: Path = holder.path
        return TypeError(
            f"{name} cannot be {verb}: it holds the open index at {path} (its SQLite connection, "
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
        if made is not None:
            return made()  # type: ignore[no-any-return]
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new
