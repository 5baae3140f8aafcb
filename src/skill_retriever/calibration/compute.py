"""Computing and storing an index's calibration (a writer's job)."""

from __future__ import annotations

import logging
import time

from skill_retriever.calibration.channels import channel_calibration
from skill_retriever.calibration.fit import fit_model
from skill_retriever.calibration.language import catalogue_share
from skill_retriever.calibration.model import ALGORITHM, Calibration
from skill_retriever.calibration.stored import calibration_of
from skill_retriever.stores.index import Index

__all__ = ["calibrate_index", "ensure_calibration"]

log = logging.getLogger(__name__)


def calibrate_index(index: Index) -> Calibration:
    """Compute the calibration of the index's current state and store it with the index
    (takes the write lock). ``skill-retriever index`` runs it after every indexing run.

    It is computed under the write lock, from the state the lock shows. Computed before
    the lock was taken, a calibration that waited for another writer (``calibrate
    --lock-wait`` while ``index`` runs) stored what the index held before that writer ran,
    as if it were current."""
    computed: list[Calibration] = []

    def compute(_stored: str) -> str:
        started = time.perf_counter()
        snapshot = index.snapshot()  # the writer's, caught up when the lock was taken
        weights, route, evidence = channel_calibration(snapshot)
        computed.append(Calibration(
            version=snapshot.version,
            items=len(snapshot),
            channel_weights=weights,
            route=route,
            fit=fit_model(snapshot),
            english_share=catalogue_share(snapshot),
            evidence={**evidence, "seconds": round(time.perf_counter() - started, 2)},
        ))
        return computed[-1].to_json()

    index.store_meta("calibration", compute)
    log.info("[skill_retriever][calibrate] wrote the calibration of %d items (index version %d) to %s",
             computed[-1].items, computed[-1].version, index.path)
    return computed[-1]


def ensure_calibration(index: Index) -> tuple[Calibration, bool]:
    """The index's calibration, computed again only when the stored one is older than the
    index or than the algorithm: ``(calibration, computed now)``. A run that changed
    nothing keeps both the calibration and the warm snapshot (storing one drops it). One
    stored that cannot be read is drawn again (`stored.calibration_of` reads it as none)."""
    found = calibration_of(index.snapshot())
    if found is not None and found.version == index.version and found.algorithm == ALGORITHM:
        return found, False
    return calibrate_index(index), True
