"""Every benchmark section, in run order: the one list the runner and the CLI read.

A section is a function ``(run: BenchRun) -> None`` that writes its results and
publishes them (:class:`~skill_retriever.bench.common.BenchRun`). Add a section here and
``skill-retriever benchmark --only`` knows its name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skill_retriever.bench.battery import run_battery
from skill_retriever.bench.common import BenchRun
from skill_retriever.bench.incidents import run_incidents
from skill_retriever.bench.million_edges import SCALE_MODEL, run_scale
from skill_retriever.bench.retrieval_sets import run_multihop, run_skills, run_toolret
from skill_retriever.bench.speed import run_speed
from skill_retriever.bench.startup import run_startup


@dataclass(frozen=True)
class Section:
    """One section of the benchmark.

    Attributes:
        name: What ``--only`` calls it.
        run: Runs it, writes ``results/<key>.json`` and publishes the result.
        quick: Part of the ``--quick`` profile.
        needs_data: Reads the data folder (skipped without one).
        what: A few words for the note printed when ``--quick`` leaves it out.
        embedder: The model it embeds with whatever ``--embedder`` says (its result and
            reuse inputs name it); None: ``--embedder``'s.
    """

    name: str
    run: Callable[[BenchRun], None]
    quick: bool = True
    needs_data: bool = False
    what: str = ""
    embedder: str | None = None


SECTIONS: tuple[Section, ...] = (
    Section("battery", run_battery),
    Section("incidents", run_incidents),
    Section("skills", run_skills, needs_data=True),
    Section("toolret", run_toolret, needs_data=True),
    Section("multihop", run_multihop, needs_data=True),
    Section("speed", run_speed),
    Section("startup", run_startup),
    Section("scale", run_scale, quick=False, what="100k nodes / 1M edges", embedder=SCALE_MODEL),
)
#: Section names in run order (``--only`` accepts these).
NAMES: tuple[str, ...] = tuple(s.name for s in SECTIONS)
