"""The embedding model ``items.sqlite`` records beside the one ``index.json`` names.

A writer records the model its vectors were made with in the items (`EMBEDDER_KEY`), so
that a lost manifest can be recreated and a hand-edited one checked. When the manifest
names another model that then fails to load, the load error alone ("cannot load embedding
model ... Use a local folder path ...") never said that the items know the right one and
that ``skill-retriever repair`` puts it back (``stores.embedder_repair``): `Recorded` adds
it to that error, and `mismatch_line` says it where nothing loads the model (``stats``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from skill_retriever.advice import command
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.embedder import Embedder, Vectors

__all__ = ["EMBEDDER_KEY", "Recorded", "mismatch_line"]

#: The ``meta`` key naming the embedder, so that a lost manifest can be recreated.
EMBEDDER_KEY = "embedder"

T = TypeVar("T")


def mismatch_line(named: str, recorded: str, directory: Path) -> str:
    """That ``index.json`` names ``named`` while the items record ``recorded``, and the fix."""
    return (
        f"{directory / 'index.json'} names embedding model {named!r}, but {directory / 'items.sqlite'} records "
        f"{recorded!r}, the model the index's vectors were made with; if {named!r} does not load here, "
        f"`{command(['repair'], directory)}` sets index.json back to {recorded!r}"
    )


class Recorded:
    """The embedder ``index.json`` names, where ``items.sqlite`` records another: used as
    it is, but an error loading it also says which model the items record and how
    ``repair`` puts it back.

    Args:
        inner: The embedder the manifest names.
        recorded: The model the items record.
        directory: The index directory.
    """

    def __init__(self, inner: Embedder, recorded: str, directory: Path) -> None:
        self.inner = inner
        self.recorded = recorded
        self.directory = directory

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self._loading(lambda: self.inner.dim)

    def embed(self, texts: Sequence[str]) -> Vectors:
        return self._loading(lambda: self.inner.embed(texts))

    def __getattr__(self, attr: str) -> object:  # what else the inner embedder offers
        if attr == "inner":  # not set yet (a copy being made): no recursion
            raise AttributeError(attr)
        return getattr(self.inner, attr)

    def _loading(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except ConfigError as exc:
            raise ConfigError(f"{exc} {mismatch_line(self.name, self.recorded, self.directory)}") from exc
