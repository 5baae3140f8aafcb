"""The warning of an answer whose index has no "nothing fits" line to judge it by.

``skill-retriever index`` calibrates an index when it ends; an index written through the
Python API (``Index.open(dir, create=True)`` and ``add``/``upsert``) is never calibrated
unless asked (`calibration.calibrate_index`). Its answers carry no ``fit``, so
``nothing_fits`` is False for every query, also for one nothing answers: the caller who
tests ``if hits.nothing_fits:`` is told so in ``warnings`` rather than left to trust it.
"""

from __future__ import annotations

from skill_retriever.calibration import calibration_of, redraw_advice, unreadable_calibration
from skill_retriever.config import RetrievalConfig
from skill_retriever.stores.embedder import Embedder, HashingEmbedder
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["uncalibrated_note"]


def uncalibrated_note(
    snapshot: IndexSnapshot, config: RetrievalConfig, embedder: Embedder, judged: bool
) -> str | None:
    """The warning for an answer with no ``fit`` because its index has no "nothing fits"
    line, with how to draw one; None where calibrating would change nothing.

    None when the answer was judged (``judged``: it has a ``fit``), or holds nothing to
    judge (the caller passes ``judged=True`` then too); when the caller turned the
    calibration off (``use_calibration=False``) or the semantic channel, which the
    judgement reads; while an index run is under way or stopped (it calibrates when it
    ends, and the answer says so already); and for an index embedded by the
    `HashingEmbedder`, which is for tests of the maths, not for retrieval: a line over its
    word buckets says nothing of meaning, and every test index would carry the note. A
    stored calibration that cannot be read is said whatever the embedder or runs: the
    search went on without it (`calibration.stored`), and the note names what redraws it.
    """
    if judged or not config.use_calibration or not config.channel_on("semantic") or not len(snapshot):
        return None
    if unreadable := unreadable_calibration(snapshot):  # derived data: said, never an error
        return f"{unreadable}; until then nothing_fits is False for every query"
    if snapshot.unfinished_runs or isinstance(embedder, HashingEmbedder):
        return None
    calibration = calibration_of(snapshot)
    if calibration is not None and calibration.fit is not None:
        return None  # calibrated: the phase said why it did not judge, if it had to
    what = "was never calibrated" if calibration is None else "was calibrated while it held no items"
    return (
        f"no 'nothing fits' judgement: the index {what} (writes through the Python API, Index.add/upsert, do not calibrate; "
        f"`skill-retriever index` does), so nothing_fits is False for every query: {redraw_advice(snapshot)} "
        "once it holds its items"
    )
