"""A stored calibration that parses but holds values no calibration has (a hand edit, a
damaged row) is read as unreadable, as one that does not parse is: queries go on
uncalibrated and say so, ``stats`` says so, ``repair`` draws it again. Before, a
``"scale": 0`` made every query fail ("apply_token_budget failed: ZeroDivisionError"), a
``"threshold": "x"`` with a TypeError, a channel weight "x" with a ValueError, and a
scale of 1e-9 (readable: a step at the line) with an OverflowError (seen editing the
calibration row of an index of anthropics__skills)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.calibration import Calibration, FitModel, calibrate_index
from skill_retriever.cli import main
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.stores.index import Index

BAD = [
    ("fit", "scale", 0),
    ("fit", "scale", -0.02),
    ("fit", "threshold", "x"),
    ("fit", "threshold", None),
    ("fit", "threshold", float("nan")),
    ("fit", "agreement_margin", True),
    ("fit", "null_top", ["x"]),
    ("fit", "null_top", 3),
    ("channel_weights", "semantic", "x"),
    ("channel_weights", "semantic", -1),
    ("route", None, "sideways"),
    ("items", None, "many"),
]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    index = build_tiny_index(tmp_path_factory.mktemp("cal") / "ix")
    try:
        return dict(json.loads(calibrate_index(index).to_json()))
    finally:
        index.close()


def _with(stored: dict[str, Any], where: str, key: str | None, value: object) -> str:
    data = json.loads(json.dumps(stored))
    if key is None:
        data[where] = value
    else:
        data[where][key] = value
    return json.dumps(data)


@pytest.mark.parametrize(("where", "key", "value"), BAD)
def test_a_value_no_calibration_has_is_unreadable(stored: dict[str, Any], where: str, key: str | None, value: object) -> None:
    with pytest.raises(IndexCorruptError, match="calibration is unreadable"):
        Calibration.from_json(_with(stored, where, key, value))


def test_a_sound_calibration_reads_back_and_judges(stored: dict[str, Any]) -> None:
    calibration = Calibration.from_json(json.dumps(stored))
    assert calibration.fit is not None and calibration.fit.threshold == stored["fit"]["threshold"]


@pytest.mark.parametrize(("where", "key", "value"), [BAD[0], BAD[2], BAD[8]])
def test_queries_go_on_uncalibrated_and_repair_draws_it_again(
    tmp_path: Path, stored: dict[str, Any], capsys: pytest.CaptureFixture[str], where: str, key: str | None, value: object
) -> None:
    path = tmp_path / "ix"
    build_tiny_index(path).close()
    with Index.open(path, writable=True) as index:
        index.store_meta("calibration", _with(stored, where, key, value))
    assert main(["query", "alembic migrations", "--index-dir", str(path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["fit"] is None and any("calibration is unreadable" in w for w in answer["warnings"])
    assert main(["stats", "--index-dir", str(path)]) == 0
    assert "calibration: the index's calibration is unreadable" in capsys.readouterr().out
    assert main(["repair", "--index-dir", str(path)]) == 0
    assert "computed its calibration again" in capsys.readouterr().out
    assert main(["query", "alembic migrations", "--index-dir", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["fit"] is not None


def test_confidence_never_overflows_however_narrow_the_curve() -> None:
    """A best match far from a line with a very narrow curve is confidence 0 or 1, not an
    OverflowError (1e-9: a hand-edited scale; a computed one is at least 0.01)."""
    for scale in (0.01, 1e-9):
        model = FitModel((0.1,), threshold=0.3, agreement_margin=0.02, scale=scale)
        low, high = model.assess(-1.0, agree=False), model.assess(1.0, agree=True)
        assert (low.confidence, low.nothing_fits, high.confidence, high.nothing_fits) == (0.0, True, 1.0, False)
