"""Benchmark sizes that the command line and the runs share.

A module of its own, importing nothing, so that ``skill-retriever benchmark --help`` can
read them without loading a section.
"""

from __future__ import annotations

#: Toolret query sets larger than this are cut to a seeded sample of this size.
DEFAULT_MAX_QUERIES = 1000

#: Where the README describes the data folder (its layout, where the sets come from), for
#: the errors of a data section that found nothing to run.
DATA_LAYOUT_HELP = "the layout it needs is in README.md, Results > Running the benchmark"

#: The queries the quick profile samples of its one toolret set (``--max-queries`` aside).
QUICK_TOOLRET_QUERIES = 30
