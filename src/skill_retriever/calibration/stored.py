"""Reading an index's stored calibration, for a search and for ``stats``.

The calibration is derived data: ``skill-retriever repair`` (or ``calibrate``, or the next
``index`` run) draws it again from the items at any time. So a stored one that cannot be
parsed (a hand edit, a damaged row) must not stop a search or ``stats``: they go on as for
an index never calibrated, and say it is unreadable and what redraws it
(`unreadable_calibration`). A writer that needs to know, to draw it again, asks
`unreadable_calibration` too.
"""

from __future__ import annotations

import dataclasses
import json

from skill_retriever.advice import command
from skill_retriever.calibration.language import catalogue_share
from skill_retriever.calibration.model import Calibration
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.stores.run_marks import run_state
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["calibration_of", "redraw_advice", "unreadable_calibration"]


def _read(snapshot: IndexSnapshot) -> Calibration | str | None:
    """The stored calibration, or why it cannot be read (parsed once per snapshot)."""
    text = snapshot.calibration_json
    if text is None:
        return None

    def parse() -> Calibration | str:
        try:
            found = Calibration.from_json(text, snapshot.path)
        except IndexCorruptError as exc:
            return str(exc.__cause__ or exc)
        if "english_share" not in json.loads(text):
            # drawn before the share was measured: a German catalogue would get no note
            # until redrawn; the share reads a sample of the items' text, cheap next to a search
            return dataclasses.replace(found, english_share=catalogue_share(snapshot))
        return found

    return snapshot.memo("calibration-read", text, parse)


def calibration_of(snapshot: IndexSnapshot) -> Calibration | None:
    """The snapshot's stored calibration; None when there is none, or when it cannot be
    read (then `unreadable_calibration` says so: the search goes on uncalibrated)."""
    found = _read(snapshot)
    return found if isinstance(found, Calibration) else None


def unreadable_calibration(snapshot: IndexSnapshot) -> str | None:
    """What to say of a stored calibration that cannot be parsed, with what draws it again
    (the run under way, where one is: it calibrates when it ends, and holds the lock that
    ``repair`` and ``calibrate`` need); None when it reads, or there is none."""
    found = _read(snapshot)
    if not isinstance(found, str):
        return None
    return (
        f"the index's calibration is unreadable ({found}), so answers are not judged by it (no 'nothing fits' "
        f"line, no learned weights); nothing else is affected: {redraw_advice(snapshot, repair=True)}"
    )


def redraw_advice(snapshot: IndexSnapshot, *, repair: bool = False) -> str:
    """How the index's calibration gets drawn again: while an index run is under way, by
    that run when it ends (``calibrate`` and ``repair`` would wait for its lock, and their
    calibration would be of a half-written index); else by ``calibrate`` (``repair``
    first, where the stored one is unreadable: the command the other damage points to)."""
    if any(run_state(mark) == "running" for mark in snapshot.unfinished_runs.values()):
        return "the index run under way draws it again when it ends"
    calibrate = f"`{command(['calibrate'], snapshot.path)}`"
    if repair:
        return f"run `{command(['repair'], snapshot.path)}` (or {calibrate}) to draw it again"
    return f"run {calibrate} (Python: skill_retriever.calibration.calibrate_index(index))"
