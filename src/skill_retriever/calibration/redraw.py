"""What ``repair`` does about the calibration the index stores: it draws it again when it
cannot be read, and draws it when the index holds items but no calibration at all.

A calibration is lost without a word: a salvage of a damaged ``items.sqlite`` whose meta
page was hit writes a fresh file without it, and a row deleted by hand leaves none. Each
answer then says the index "was never calibrated" (`uncalibrated`), and ``nothing_fits``
is False for every query, while ``repair`` said the index was in step. So a missing one
is mended where the answers' note would ask for it, and only there: an index with no
items has nothing to draw it from; one with a run under way or stopped is calibrated by
the run that completes it (``repair`` names that run); one embedded by the
`HashingEmbedder` is for tests of the maths, its line over word buckets says nothing of
meaning, and the note leaves it uncalibrated too. Nor is it drawn with a model other than
the one the vectors were made with (`recorded_model.Recorded`: ``stats`` names the
mismatch), or with one that does not load (``repair`` says no query can be searched).
"""

from __future__ import annotations

from skill_retriever.calibration.compute import calibrate_index
from skill_retriever.calibration.stored import unreadable_calibration
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.embedder import Embedder, HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.recorded_model import Recorded
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["calibration_missing", "redraw_for_repair"]


def calibration_missing(snapshot: IndexSnapshot, embedder: Embedder) -> bool:
    """Whether the index holds items and no calibration where its answers would be judged
    by one (see the module docstring for the indexes left without)."""
    return (snapshot.calibration_json is None and len(snapshot) > 0 and not snapshot.unfinished_runs
            and not isinstance(embedder, HashingEmbedder | Recorded) and _loads(embedder))


def _loads(embedder: Embedder) -> bool:
    """Whether the model loads and embeds (a missing one is ``repair``'s to name, as left)."""
    try:
        embedder.embed(["repair: does the embedder load?"])
    except ConfigError:
        return False
    return True


def redraw_for_repair(index: Index) -> str | None:
    """Draw the index's calibration when the stored one cannot be read or there is none
    that should be (`calibration_missing`); what was done, for ``repair``'s line, or None
    when the calibration was left as it is."""
    snapshot = index.snapshot()
    if unreadable_calibration(snapshot) is not None:
        calibrate_index(index)
        return "computed its calibration again (the stored one could not be read)"
    if calibration_missing(snapshot, index.embedder):
        calibrate_index(index)
        return "computed its missing calibration (no answer was judged 'nothing fits' without it)"
    return None
