"""The "nothing fits" line of a caller who may not see every item.

``index`` draws the line over every item (`calibration.fit`): the probes' best matches
among all the items that can be an answer. A caller whose access hides some of them
searches fewer, so its own best matches run lower, and a line drawn over items it cannot
see was wrong for it twice: too high where the hidden items were near the probes (its
right answers flagged "nothing fits"), and moved by private items it may not know of.
So such a caller is judged by a line drawn the same way over what it may see: the same
probes (embedded once per model and process, `fit.probe_vectors`), the same quantile,
searched with its access, and those its items answer left out (`fit.probe_tops`: the
keyword channel's backing read with its access too). Whether the catalogue reads as English, which decides the note
on one in another language, is measured over what it may see too (`english_share_seen_by`).
Drawn from the snapshot it searches, neither is ever stale; each is drawn once per
snapshot and access, the last `LINES_KEPT` kept, like the keyword statistics
(`stores.keyword_access`). A caller who sees every item that can be an answer reads the
stored ones, at no cost; one who sees none has no line (nothing to judge).
"""

from __future__ import annotations

from skill_retriever.calibration.fit import null_model, probe_tops
from skill_retriever.calibration.language import catalogue_share
from skill_retriever.calibration.model import FitModel
from skill_retriever.filters import Filters
from skill_retriever.model import ANSWER_KINDS
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = ["LINES_KEPT", "SHARE_SAMPLE_ITEMS", "english_share_seen_by", "fit_seen_by", "sees_every_answer"]

#: Lines kept per snapshot (the accesses most recently judged).
LINES_KEPT = 8
#: Items whose text a caller's `english_share_seen_by` reads (a calibration reads up to
#: 2,000): their first 2,000 characters each hold thousands of the words that tell a
#: language, and at a query, not at index time, the cost counts (``python -m
#: skill_retriever.bench.private_fit`` prints it).
SHARE_SAMPLE_ITEMS = 200


def sees_every_answer(snapshot: IndexSnapshot, filters: Filters) -> bool:
    """Whether ``filters``' caller may see every item of ``snapshot`` that can be an
    answer (so the stored line, drawn over all of them, is its own)."""
    if filters.sees_all_labels(snapshot.has_access_labels):
        return True
    who = filters.visibility()
    return snapshot.memo(
        "sees every answer", filters.principals,
        lambda: all(who.can_see(n) for n in snapshot.nodes.values() if n.kind.value in ANSWER_KINDS), LINES_KEPT,
    )


def fit_seen_by(snapshot: IndexSnapshot, filters: Filters, stored: FitModel | None) -> FitModel | None:
    """The "nothing fits" line for ``filters``' caller: ``stored`` (the index's, None when
    it was never calibrated) for one who sees every item that can be an answer, else one
    drawn over what it may see (None when it sees no such item)."""
    if stored is None or sees_every_answer(snapshot, filters):
        return stored
    who = filters.visibility()

    def draw() -> FitModel | None:
        if not any(who.can_see(n) for n in snapshot.nodes.values() if n.kind.value in ANSWER_KINDS):
            return None
        return null_model(*probe_tops(snapshot, who))

    return snapshot.memo("nothing-fits line", who.principals, draw, LINES_KEPT)



def english_share_seen_by(snapshot: IndexSnapshot, filters: Filters, stored: float | None) -> float | None:
    """How English the items ``filters``' caller may see read (`calibration.language`), which
    decides the note on a catalogue in another language: ``stored`` (the calibration's) for
    one who sees every item that can be an answer, else measured over what it may see."""
    if sees_every_answer(snapshot, filters):
        return stored
    who = filters.visibility()
    return snapshot.memo(
        "english share", who.principals, lambda: catalogue_share(snapshot, who, SHARE_SAMPLE_ITEMS), LINES_KEPT
    )
