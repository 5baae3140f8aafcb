"""An index learns about itself: the "nothing fits" line from off-topic probes, stored with
the index, read by every process, applied to each query unless the call opts out."""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.calibration import (
    Calibration,
    FitModel,
    calibrate_index,
    calibration_of,
    ensure_calibration,
)
from skill_retriever.calibration.fit import (
    AGREEMENT_BONUS,
    AGREEMENT_MARGIN,
    THRESHOLD_QUANTILE,
    probes,
)
from skill_retriever.components.service import ComponentService
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def test_assess_draws_the_line_where_the_model_says() -> None:
    model = FitModel((0.1, 0.2, 0.3), threshold=0.3, agreement_margin=0.05, scale=0.02)
    assert model.assess(0.29, agree=True).nothing_fits  # below the line
    ok = model.assess(0.31, agree=True)
    assert not ok.nothing_fits and ok.confidence == pytest.approx(1 / (1 + 2.718281828 ** -0.5), abs=1e-3)
    assert model.assess(0.33, agree=False).nothing_fits  # the keywords do not back it: needs 0.35
    assert not model.assess(0.36, agree=False).nothing_fits
    assert model.assess(0.3, agree=True).confidence == pytest.approx(0.5)
    backed = FitModel((0.1, 0.2, 0.3), threshold=0.3, agreement_margin=0.05, scale=0.02, agreement_bonus=0.04)
    assert not backed.assess(0.27, agree=True).nothing_fits  # two channels agree: the line is 0.26
    assert backed.assess(0.25, agree=True).nothing_fits
    assert backed.assess(0.34, agree=False).nothing_fits  # the margin still holds without them
    assert backed.assess(0.26, agree=True).confidence == pytest.approx(0.5)


def test_the_probes_are_everyday_requests() -> None:
    found = probes()
    assert len(found) == 100 and len(set(found)) == 100
    assert not any(p.startswith("#") for p in found)


def test_calibration_is_stored_read_back_and_applied(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "ix")
    assert calibration_of(index.snapshot()) is None
    calibration = calibrate_index(index)
    assert calibration.version == index.version and calibration.fit is not None
    null = sorted(calibration.fit.null_top)
    assert len(null) + calibration.fit.probes_answered == 100 and calibration.fit.threshold == pytest.approx(
        sorted(null)[int(THRESHOLD_QUANTILE * 99)], abs=0.05
    )
    assert calibration.fit.agreement_margin == AGREEMENT_MARGIN
    assert calibration.fit.agreement_bonus == AGREEMENT_BONUS
    reader = Index.open(tmp_path / "ix")  # another process's view: it reads the stored one
    try:
        again = calibration_of(reader.snapshot())
        assert again == calibration
        retriever = Retriever(reader, reranker=None)
        on_topic = retriever.search("postgres migrations with alembic revision scripts", principals=["*"])
        assert on_topic.fit is not None and not on_topic.nothing_fits
        off_topic = retriever.search("bake sourdough bread with a crisp crust", principals=["*"])
        assert off_topic.nothing_fits and off_topic.confidence is not None and off_topic.confidence < 0.5
        # the tiny graph mixes components, incidents, a service and a document: no catalogue
        assert any(w.startswith("nothing in the index fits this well") for w in off_topic.warnings)
        assert retriever.search("how to boil an egg", principals=["*"], use_calibration=False).fit is None
    finally:
        reader.close()
        index.close()


def test_a_write_leaves_the_calibration_visible_but_stale(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "ix")
    calibrate_index(index)
    node = index.get("skill:alembic")
    index.upsert([node.with_changes(description="changed")])
    found = calibration_of(index.snapshot())
    assert found is not None and found.summary(index.version)["stale_by"] == 1
    index.close()


def test_a_current_calibration_is_kept_and_a_stale_one_computed_again(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "ix")
    first, computed = ensure_calibration(index)
    assert computed and first.version == index.version
    warm = index.snapshot()
    again, computed = ensure_calibration(index)  # nothing changed: no work, the snapshot kept
    assert not computed and again == first and index.snapshot() is warm
    node = index.get("skill:alembic")
    index.upsert([node.with_changes(description="changed")])
    fresh, computed = ensure_calibration(index)
    assert computed and fresh.version == index.version > first.version
    index.close()


def test_a_damaged_calibration_says_what_to_do() -> None:
    with pytest.raises(IndexCorruptError, match=r"skill-retriever repair` \(or `skill-retriever calibrate`\)"):
        Calibration.from_json(json.dumps({"format": 1, "version": "x"}))


def test_components_add_no_requirements_when_nothing_fits(tmp_path: Path) -> None:
    from skill_retriever.indexing import index_sources, sample_catalogue_path
    from skill_retriever.stores.embedder import HashingEmbedder

    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [sample_catalogue_path()])  # calibrates at the end
    assert run.calibration is not None and run.calibration["nothing_fits_below"] is not None
    service = ComponentService(index, Retriever(index, reranker=None), principals=["*"])
    fits = service.search("scaffold a FastAPI service with tracing", k=3)
    assert not fits.nothing_fits and any(r.role == "dependency" for r in fits.results)
    off = service.search("how long should I boil an egg for a soft yolk", k=3)
    assert off.nothing_fits and off.results and all(r.role == "match" for r in off.results)
    assert off.to_dict()["nothing_fits"] is True and off.brief(len)["note"].startswith("nothing in the catalogue")
    index.close()


def test_a_calibration_stored_before_the_bonus_reads_back_without_it() -> None:
    stored = {"format": 1, "version": 3, "items": 10, "algorithm": 1, "channel_weights": {}, "route": None,
              "evidence": {}, "fit": {"null_top": [0.1, 0.2], "threshold": 0.2, "agreement_margin": 0.04, "scale": 0.01}}
    calibration = Calibration.from_json(json.dumps(stored))
    assert calibration.fit is not None and calibration.fit.agreement_bonus == 0.0
    assert calibration.fit.assess(0.19, agree=True).nothing_fits  # as it was computed then


def test_a_calibration_stored_before_probes_were_left_out_reads_as_drawn_from_all() -> None:
    stored = {"format": 1, "version": 3, "items": 10, "algorithm": 3, "channel_weights": {}, "route": None,
              "evidence": {}, "fit": {"null_top": [0.1, 0.2], "threshold": 0.2, "agreement_margin": 0.04, "scale": 0.01,
                                      "agreement_bonus": 0.06}}
    calibration = Calibration.from_json(json.dumps(stored))
    assert calibration.fit is not None and calibration.fit.probes_answered == 0
    assert calibration.summary(3)["nothing_fits_probes_answered"] == 0
    for bad in (-1, 2.5, True, "9"):
        damaged = {**stored, "fit": {**stored["fit"], "probes_answered": bad}}  # type: ignore[dict-item]
        with pytest.raises(IndexCorruptError, match="probes_answered"):
            Calibration.from_json(json.dumps(damaged))


def test_a_calibration_that_waits_for_another_writer_is_of_what_that_writer_left(tmp_path: Path) -> None:
    """`calibrate --lock-wait` while `index` runs: it stored the state from before the run
    as current (found by a walkthrough: a 1-item calibration on a 268-item index, so
    "nothing fits" never said so)."""
    build_tiny_index(tmp_path / "ix").close()
    writer = Index.open(tmp_path / "ix", writable=True)  # holds the lock, as a running `index` does
    reader = Index.open(tmp_path / "ix", lock_wait_s=30)
    before = reader.snapshot().version
    done: list[object] = []
    waiting = threading.Thread(target=lambda: done.append(calibrate_index(reader)))
    waiting.start()
    time.sleep(0.5)  # the calibration is waiting for the lock by now
    node = writer.get("skill:alembic")
    writer.upsert([node.with_changes(description="changed while the calibration waited")])
    after = writer.version
    writer.close()
    waiting.join(timeout=30)
    assert not waiting.is_alive() and after > before
    stored = done[0]
    assert isinstance(stored, Calibration) and stored.version == after
    found = calibration_of(reader.snapshot())
    assert found is not None and found.summary(reader.version)["stale_by"] == 0
    reader.close()


def test_an_answer_says_when_its_nothing_fits_line_is_of_a_much_smaller_index(tmp_path: Path) -> None:
    """Writes through the Python API do not calibrate again; a line drawn on a few items
    then never says "nothing fits" on many (found by a walkthrough, after a calibration
    that waited for an index run; here the same through upsert)."""
    index = build_tiny_index(tmp_path / "ix")
    calibrate_index(index)
    note = "the 'nothing fits' line was calibrated"
    everything = Retriever(index, principals=["*"])  # the counts are said to who sees every item
    assert not [w for w in everything.search("review code", k=3).warnings if note in w]
    grown = len(index) + 40
    index.upsert([index.get("skill:alembic").with_changes(id=f"skill:extra-{i}", name=f"extra-{i}") for i in range(40)])
    said = [w for w in everything.search("review code", k=3).warnings if note in w]
    assert len(said) == 1 and f"it holds {grown:,} now" in said[0] and "skill-retriever calibrate" in said[0]
    # the tiny index holds a private item: a public caller is judged by a line drawn now
    # over what it may see (`calibration.access_fit`), which no write makes stale
    assert not [w for w in Retriever(index).search("review code", k=3).warnings if note in w]
    calibrate_index(index)
    assert not [w for w in everything.search("review code", k=3).warnings if note in w]
    index.close()


def test_a_small_index_that_grew_by_far_more_than_a_fifth_says_its_line_is_stale(tmp_path: Path) -> None:
    """"A fifth more or fewer items" (README) held only past 10 items: a line drawn on 11
    items said nothing on 20, nor one drawn on 3 on 12, where a fresh line (bundled MiniLM,
    10 off-topic requests) flagged 10 of 10 and the stale one 5 (found in a walkthrough of
    tiny indexes built through the Python API)."""
    index = build_tiny_index(tmp_path / "ix")
    calibrate_index(index)
    note = "the 'nothing fits' line was calibrated"
    everything = Retriever(index, principals=["*"])
    then = len(index)
    index.upsert([index.get("skill:alembic").with_changes(id=f"skill:extra-{i}", name=f"extra-{i}") for i in range(2)])
    assert not [w for w in everything.search("review code", k=3).warnings if note in w]  # 2 more of 11: within a fifth
    index.upsert([index.get("skill:alembic").with_changes(id=f"skill:extra-{i}", name=f"extra-{i}") for i in range(2, 9)])
    said = [w for w in everything.search("review code", k=3).warnings if note in w]
    assert len(said) == 1 and f"held {then:,} items; it holds {then + 9:,} now" in said[0]
    index.delete([f"skill:extra-{i}" for i in range(9)] + ["skill:alembic", "skill:pytest-fixtures", "command:deploy"])
    said = [w for w in everything.search("review code", k=3).warnings if note in w]  # 3 fewer of 11: more than a fifth
    assert len(said) == 1 and f"it holds {then - 3:,} now" in said[0]
    index.close()


def test_an_answer_says_when_its_nothing_fits_line_is_of_items_rewritten_since(tmp_path: Path) -> None:
    """Rewriting the items' text through `upsert` keeps the count, so the count alone said
    nothing: a line drawn on a catalogue of database skills went on judging one of bread
    recipes, and only ``stats`` said "computed 1 write ago" (found by a walkthrough)."""
    index = build_tiny_index(tmp_path / "ix")
    calibrate_index(index)
    note = "the 'nothing fits' line was calibrated"
    everything = Retriever(index, principals=["*"])
    nodes = list(index.snapshot().nodes.values())
    index.upsert([n.with_changes(text=f"Knead sourdough bread dough {i} and bake it in a hot oven.")
                  for i, n in enumerate(nodes[:2])])
    assert not [w for w in everything.search("review code", k=3).warnings if note in w]  # 2 of 11: within a fifth
    index.upsert([n.with_changes(text=f"Knead sourdough bread dough {i} and bake it in a hot oven.")
                  for i, n in enumerate(nodes)])
    assert len(index) == len(nodes)
    (said,) = [w for w in everything.search("review code", k=3).warnings if note in w]
    assert f"before {len(nodes)} of the index's {len(nodes)} items were added or rewritten" in said
    assert "skill-retriever calibrate" in said
    # a caller who may not see a private item is judged by a line drawn now (`access_fit`)
    assert not [w for w in Retriever(index).search("review code", k=3).warnings if note in w]
    # another process reads each item's last write from the file, and says the same
    reader = Index.open(tmp_path / "ix")
    assert [w for w in Retriever(reader, principals=["*"]).search("review code", k=3).warnings if note in w] == [said]
    reader.close()
    calibrate_index(index)
    assert not [w for w in everything.search("review code", k=3).warnings if note in w]
    index.close()


def test_calibrate_verbose_logs_its_steps(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # the help says "-v: log one line per phase"; `calibrate -v` logged nothing
    from cli_calls import indexed_graph

    from skill_retriever.cli import main

    graph = {"nodes": [{"id": f"s{i}", "kind": "skill", "name": f"s{i}", "description": f"formats code {i}"}
                       for i in range(3)], "edges": []}
    ix = indexed_graph(tmp_path, graph)
    logger = logging.getLogger("skill_retriever")
    try:
        with caplog.at_level(logging.INFO, logger="skill_retriever"):
            caplog.clear()
            assert main(["-v", "calibrate", "--index-dir", str(ix)]) == 0
    finally:
        logger.setLevel(logging.NOTSET)  # main set it to INFO for -v
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("[skill_retriever][calibrate]")]
    assert len(lines) == 3, lines
    assert f"searched {len(probes())} probes against 3 items: best matches " in lines[0]
    assert re.search(r"nothing fits below a best match of 0\.\d{3} \(the probes' 90% quantile\)", lines[1])
    assert "wrote the calibration of 3 items (index version " in lines[2] and str(ix) in lines[2]
