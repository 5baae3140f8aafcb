"""What an index learns about itself, without labels, and keeps with it.

- :mod:`.fit`: where "nothing in the catalogue fits this well" starts (a null distribution
  of off-topic probe requests);
- :mod:`.channels`: channel weights and a default route learned per index (the place for
  them; nothing is learned there yet, and its docstring says why);
- :mod:`.model`: the stored `Calibration` and how a query applies it;
- :mod:`.compute`: computing and storing it (``skill-retriever index`` does after each run;
  ``skill-retriever calibrate`` on demand);
- :mod:`.stored`: reading it for a search or ``stats``, which go on uncalibrated (and say
  so) when the stored one cannot be read.
- :mod:`.redraw`: what ``skill-retriever repair`` draws again: one that cannot be read, or
  none at all beside items (lost to a salvage of ``items.sqlite``).
"""

from skill_retriever.calibration.compute import calibrate_index, ensure_calibration
from skill_retriever.calibration.model import Calibration, Fit, FitModel
from skill_retriever.calibration.stored import calibration_of, redraw_advice, unreadable_calibration

__all__ = [
    "Calibration", "Fit", "FitModel", "calibrate_index", "calibration_of", "ensure_calibration", "redraw_advice",
    "unreadable_calibration",
]
