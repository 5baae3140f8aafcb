"""What an index learned about itself, and how a query uses it.

``Calibration`` is computed by :func:`skill_retriever.calibration.calibrate_index` from the
index alone (no labels), stored with the index, read back by every process, shown by
``stats`` and applied to each query that does not opt out (``RetrievalConfig.use_calibration``):

- ``channel_weights``: factors on each channel's RRF weight (1 = unchanged);
- ``route``: the route for a query whose complexity the router would otherwise decide
  (None = the router decides);
- ``fit``: where "nothing in the catalogue fits this well" starts (:mod:`.fit`);
- ``english_share``: whether the catalogue reads as English, which the "nothing fits" line
  and the bundled model are tuned for (:mod:`.language`; None when no word tells a
  language; a calibration stored before it was measured gets it from the items when
  read, :mod:`.stored`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, get_args

from skill_retriever.advice import command
from skill_retriever.config import Route
from skill_retriever.exceptions import IndexCorruptError

__all__ = ["FORMAT", "Calibration", "Fit", "FitModel"]

FORMAT = 1
#: Bumped whenever the way a calibration is computed changes, so cached ones are redone
#: (4: the probes the catalogue answers left out of the "nothing fits" line).
ALGORITHM = 4


@dataclass(frozen=True)
class Fit:
    """How well the catalogue answers one query.

    Attributes:
        confidence: 0-1; 0.5 at the line where nothing fits.
        nothing_fits: The best match is no better than what off-topic requests get here.
        top_similarity: Cosine of the best semantic match.
        agree: The best semantic match is also among the keyword channel's top 5.
    """

    confidence: float
    nothing_fits: bool
    top_similarity: float
    agree: bool


@dataclass(frozen=True)
class FitModel:
    """The null distribution: what the best match scores for requests nothing answers.

    Attributes:
        null_top: Best-match cosine of each off-topic probe request, sorted.
        threshold: Below this best-match cosine, nothing fits (a high quantile of
            ``null_top``).
        agreement_margin: How far above ``threshold`` a match must be when the keyword
            channel does not agree with it.
        scale: Width of the confidence curve around the threshold.
        agreement_bonus: How far below ``threshold`` a match may be when the keyword
            channel agrees with it (two channels pointing at one item; 0 in calibrations
            stored before it existed).
        probes_answered: Probes left out of ``null_top`` because the catalogue answers
            them (`fit.probe_tops`; 0 in calibrations stored before, which drew from all).
    """

    null_top: tuple[float, ...]
    threshold: float
    agreement_margin: float
    scale: float
    agreement_bonus: float = 0.0
    probes_answered: int = 0

    def assess(self, top_similarity: float, agree: bool) -> Fit:
        bar = self.threshold + (-self.agreement_bonus if agree else self.agreement_margin)
        margin = top_similarity - bar
        # exp of a negative number only: a far miss over a narrow curve must not overflow
        z = margin / self.scale
        confidence = 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
        return Fit(round(confidence, 4), margin < 0.0, round(top_similarity, 4), agree)


@dataclass(frozen=True)
class Calibration:
    """What one index learned about itself (see the module doc)."""

    version: int
    items: int
    algorithm: int = ALGORITHM
    channel_weights: Mapping[str, float] = field(default_factory=dict)
    route: str | None = None
    fit: FitModel | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    english_share: float | None = None

    def weight(self, channel: str) -> float:
        return float(self.channel_weights.get(channel, 1.0))

    def to_json(self) -> str:
        data = asdict(self)
        data["format"] = FORMAT
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, index_dir: Path | None = None) -> Calibration:
        """The calibration ``text`` stores; unreadable, an error naming the command that
        computes it again for the index at ``index_dir``."""
        try:
            data = json.loads(text)
            if data.pop("format", None) != FORMAT:
                raise ValueError("unknown calibration format")
            fit = data.pop("fit", None)
            found = cls(
                fit=FitModel(**{**fit, "null_top": tuple(fit["null_top"])}) if fit else None,
                **data,
            )
            _check_values(found)  # one that parses may still hold what no calibration has
            return found
        except (ValueError, TypeError, KeyError) as exc:
            raise IndexCorruptError(
                f"the index's calibration is unreadable ({exc}); run `{command(['repair'], index_dir)}` "
                f"(or `{command(['calibrate'], index_dir)}`) to compute it again"
            ) from exc

    def summary(self, current_version: int) -> dict[str, Any]:
        """For ``stats`` and each response: what is applied, and how fresh it is."""
        return {
            "version": self.version,
            "stale_by": current_version - self.version,
            "channel_weights": dict(self.channel_weights),
            "route": self.route,
            "nothing_fits_below": round(self.fit.threshold, 4) if self.fit else None,
            "nothing_fits_probes_answered": self.fit.probes_answered if self.fit else None,
            "english_share": self.english_share,
        }


def _number(value: Any, what: str, *, positive: bool = False, at_least_zero: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{what} is {value!r}, not a finite number")
    if (positive and value <= 0) or (at_least_zero and value < 0):
        raise ValueError(f"{what} is {value!r}, not {'above' if positive else 'at least'} 0")


def _check_values(calibration: Calibration) -> None:
    """Raise ValueError (TypeError) naming the first value of a calibration read back that
    none is computed with (a hand edit, a damaged row). It parsed, but a scale of 0 or a
    text threshold failed every query ("apply_token_budget failed: ZeroDivisionError"), a
    text channel weight failed fusion; refused here, it reads as unreadable: searches go
    on uncalibrated and say so, and ``repair`` draws it again (`calibration.stored`)."""
    for name in ("version", "items", "algorithm"):
        value = getattr(calibration, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} is {value!r}, not a count")
    if not isinstance(calibration.channel_weights, dict):
        raise TypeError(f"channel_weights is {calibration.channel_weights!r}, not an object")
    for channel, weight in calibration.channel_weights.items():
        _number(weight, f"the weight of channel {channel!r}", at_least_zero=True)
    if calibration.route is not None and calibration.route not in get_args(Route):
        raise ValueError(f"route is {calibration.route!r}, not one of {', '.join(get_args(Route))}")
    if calibration.fit is not None:
        for name in ("threshold", "agreement_margin", "agreement_bonus"):
            _number(getattr(calibration.fit, name), name)
        _number(calibration.fit.scale, "scale", positive=True)
        for value in calibration.fit.null_top:
            _number(value, "a value of null_top")
        answered = calibration.fit.probes_answered
        if isinstance(answered, bool) or not isinstance(answered, int) or answered < 0:
            raise ValueError(f"probes_answered is {answered!r}, not a count")
    if calibration.english_share is not None:
        _number(calibration.english_share, "english_share", at_least_zero=True)
        if calibration.english_share > 1:
            raise ValueError(f"english_share is {calibration.english_share!r}, not a share (0 to 1)")
