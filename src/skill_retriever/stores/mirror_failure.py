"""A write committed to ``items.sqlite`` that its Chroma server did not receive.

The writer that made it keeps the write lock, so ``repair`` cannot run while it lives, and
its next write mirrored only its own batch: the server stayed without the missed write,
and the writer's own searches, which go through the server, silently missed its items.
``Index`` now searches its own vectors in memory while its server lacks a write (saying so
in each answer: :func:`behind_note`) and brings the server fully in step at its next write.
"""

from __future__ import annotations

from pathlib import Path

from skill_retriever.advice import command
from skill_retriever.exceptions import IndexCorruptError, IndexOpenError, ServerUnreachableError
from skill_retriever.stores import manifest as mf

__all__ = ["behind_note", "mirror_failed"]


def mirror_failed(path: Path, url: object, exc: BaseException) -> IndexOpenError:
    """The error of a write committed at ``path`` whose server ``url`` failed with ``exc``:
    a :class:`ServerUnreachableError` when nothing answered (the index is not damaged, as
    that class says), else an :class:`IndexCorruptError`."""
    said = (
        f"the write is committed to {path / mf.DATABASE}, but the Chroma server {url} failed ({type(exc).__name__}: "
        f"{exc}); once it answers, the index's next write copies what the server lacks (until then this process "
        f"searches in memory), as does `{command(['repair'], path)}`"
    )
    return ServerUnreachableError(said) if isinstance(exc, ServerUnreachableError) else IndexCorruptError(said)


def behind_note(path: Path, url: object) -> str:
    """An answer's warning while the writer's server lacks one of its writes."""
    return (
        f"the Chroma server at {url} lacks a write this process made to the index at {path} while the server failed: "
        "vector search ran on the index's own vectors in memory; the next write copies what the server lacks"
    )
