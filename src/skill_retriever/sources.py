"""The sources an index holds, and taking one out whole.

Indexing records on every item the name and root of the source it came from
(``source_name``, ``source_root``: `ingest.provenance`), and indexing a source again
mirrors it. A source that is gone from disk cannot be indexed again (its path does not
exist), and a source that yields no item keeps what it had (a wrong or emptied folder must
not wipe it): `remove_source` is how its items leave, with every relation that touches
them (`Index.delete`).
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Node
from skill_retriever.stores.index import Index

if TYPE_CHECKING:
    from skill_retriever.cross_source import CrossSourceReport

__all__ = ["SourceCount", "remove_source", "source_ids", "sources_of"]


@dataclass(frozen=True, slots=True)
class SourceCount:
    """A source the index holds items of: its name, the folder or file it was read from
    ("" when not recorded) and how many items it has."""

    name: str
    root: str
    items: int

    @property
    def gone(self) -> bool:
        """Whether the recorded folder or file is no longer there (moved or deleted): the
        source can then not be indexed again, only removed (`remove_source`)."""
        return bool(self.root) and not Path(self.root).exists()

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "root": self.root, "items": self.items, "gone": self.gone}


def _source_of(node: Node) -> tuple[str, str] | None:
    name = node.attrs.get("source_name")
    if not isinstance(name, str) or not name:
        return None  # written through the API, or by a version that recorded none
    root = node.attrs.get("source_root")
    return name, root if isinstance(root, str) else ""


def sources_of(nodes: Mapping[str, Node]) -> tuple[list[SourceCount], int]:
    """The sources ``nodes`` came from, by name, and how many items record none."""
    counts = Counter(_source_of(n) for n in nodes.values())
    unnamed = counts.pop(None, 0)
    named = [SourceCount(name, root, n) for (name, root), n in counts.items()]  # type: ignore[misc]
    return sorted(named, key=lambda s: (s.name, s.root)), unnamed


def source_ids(nodes: Mapping[str, Node], name: str) -> list[str]:
    """The ids of the items of the source named ``name``.

    Raises:
        ConfigError: No item records that source (the message lists those there are).
    """
    # An item that records no source (written through the API) is no source's, not the
    # source "": `remove-source ""` took every such item out.
    ids = sorted(i for i, n in nodes.items() if (held := _source_of(n)) is not None and held[0] == name)
    if not ids:
        named = sources_of(nodes)[0]
        known = ", ".join(s.name for s in named) or "none"
        # a source is named after its folder, so its folder is what one types (`repo/`, completed by the shell)
        folder = next((s.name for s in named if name.strip() and s.root
                       and os.path.realpath(name) == os.path.realpath(s.root)), None)
        hint = f"; {name!r} is the folder the source {folder!r} was read from: give its name" if folder else ""
        raise ConfigError(f"the index holds no source named {name!r} (its sources: {known}){hint}; `stats` lists them")
    return ids


def remove_source(
    index: Index, name: str, *, dry_run: bool = False, relinked: Callable[[CrossSourceReport], None] | None = None
) -> list[str]:
    """Delete every item of the source named ``name`` and the relations touching them;
    the ids removed (those that would be, with ``dry_run``). The names of other sources'
    items that named one of them are looked up again (`cross_source`; ``relinked`` is
    given what that found), and the calibration is brought up to date as after indexing. The mark of a run of that source that did not finish
    goes too (`stores.run_marks`), also when that run wrote no item: then no id is removed.

    Raises:
        ConfigError: No item records that source, and no unfinished run of it is marked;
            ``name`` is not a str (a source's path is not its name), or is empty.
    """
    snap = index.snapshot()
    known = ", ".join(s.name for s in sources_of(snap.nodes)[0]) or "none"
    if not isinstance(name, str):  # a path would only be "no source named PosixPath(...)"
        raise ConfigError(f"remove_source takes a source's name (str), not {type(name).__name__}; "
                          f"the index's sources: {known} (`stats` lists them with their folders)")
    if not name.strip():  # mostly an unset variable: no source is named so
        raise ConfigError(f"the source name is empty; give one the index holds ({known}); "
                          "`stats` lists them with their folders")
    try:
        ids = source_ids(snap.nodes, name)
    except ConfigError:
        if name not in snap.unfinished_runs:
            if not dry_run and (behind := complete_a_stopped_write(index)):
                logging.getLogger("skill_retriever").warning(
                    "[skill_retriever][remove-source] the index's calibration was drawn %d write(s) before the index "
                    "as it was (a write that did not draw it again: one stopped part way, such as a remove-source "
                    "killed after its removal, or one through the Python API): looked up the names across sources "
                    "again and drew it again", behind,
                )
            raise
        ids = []  # a run stopped before its first write: only its mark to take off
    if not dry_run:
        from skill_retriever.calibration import ensure_calibration
        from skill_retriever.stores import run_marks

        if ids:
            index.delete(ids)
            _forget_parses(index)  # (before the rest: whatever fails later, no text stays)
        run_marks.end(index, name)  # a run of it that did not finish is moot now
        if ids:
            from skill_retriever.cross_source import link_across_sources

            report = link_across_sources(index, snap)
            if relinked is not None:
                relinked(report)
            ensure_calibration(index)
    return ids


def complete_a_stopped_write(index: Index) -> int:
    """Bring the names across sources and the calibration up to date when the stored
    calibration was drawn before the index's last write: what a write stopped after its
    change left undone, such as a `remove-source` killed (SIGKILL: nothing is said) after its
    delete. Running that command again found no such source and did nothing more, so the
    calibration of the items removed went on judging answers; `repair` said the index was
    "in step". A calibrated index, or one never calibrated (written through the Python API
    only), is left as it is.

    Returns:
        How many writes the calibration was behind (0: nothing was done).
    """
    from skill_retriever.calibration import calibration_of, ensure_calibration
    from skill_retriever.cross_source import link_across_sources

    stored = calibration_of(index.snapshot())
    if stored is None or stored.version >= (now := index.version):
        return 0
    link_across_sources(index)
    ensure_calibration(index)
    return now - stored.version


def _forget_parses(index: Index) -> None:
    """Take what spaCy read in a removed corpus's passages out of the index folder's cache
    (`ingest.passage_parses`): a source removed leaves none of its text behind. The items
    are gone already, so a cache that cannot be changed is said, not raised."""
    import logging
    import sqlite3

    from skill_retriever.ingest.passage_parses import CACHE_FILE, keep_only
    from skill_retriever.model import NodeKind

    held = {n.source for n in index.snapshot().nodes.values() if n.kind is NodeKind.PASSAGE}
    try:
        keep_only(index.path, held)
    except (sqlite3.Error, OSError) as exc:
        logging.getLogger("skill_retriever").warning(
            "[skill_retriever][remove-source] the removed passages' parses stay in %s (%s): "
            "delete that file (an index run of a corpus then parses it again)", index.path / CACHE_FILE, exc
        )
