"""How a caller who may not see every item is judged by "nothing fits": the flag rates of
the skills benchmark (`fit_rates`: the 48 answerable dev queries, the 2 whose right answer
is empty, 300 out-of-catalogue questions) for a public caller of an index that holds the
three judged folders in public and other skill folders behind an access label, beside an
index of the judged folders alone and the see-all caller of the first.

A line drawn over what the caller may see (`calibration.access_fit`) gives the public
caller the rates of the index of the public items alone, to the query.

Usage: python -m skill_retriever.bench.private_fit [--data DIR] [--private FOLDER ...]
[--work DIR] (default: ../shared/data, the sickn33 and trailofbits folders private, a
temporary work folder; 5-8 minutes on 2 cores with other work beside it, most of it embedding).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skill_retriever.bench.datasets import SKILL_FOLDERS, default_data_dir, skills_sets
from skill_retriever.bench.fit_rates import fit_rates
from skill_retriever.calibration import calibrate_index, calibration_of
from skill_retriever.calibration.access_fit import english_share_seen_by, fit_seen_by
from skill_retriever.calibration.defaults import index_defaults
from skill_retriever.calibration.fit import probes
from skill_retriever.filters import Filters
from skill_retriever.ingest.skills import ingest_skill_repos
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

__all__ = ["PRIVATE_FOLDERS", "main"]

#: Skill folders indexed behind the access label ``team`` by default (863 items).
PRIVATE_FOLDERS = ("sickn33__antigravity-awesome-skills", "trailofbits__skills")
LABEL = "team"


def _build(path: Path, skills: Path, private: Sequence[str]) -> Index:
    """An index of the judged folders in public and ``private`` behind `LABEL`, calibrated."""
    index = Index.open(path, create=True)
    public = ingest_skill_repos([skills / f for f in SKILL_FOLDERS])
    index.add(public.nodes, public.edges)
    if private:
        hidden = ingest_skill_repos([skills / f for f in private])
        index.add([n.with_changes(access=(LABEL,)) for n in hidden.nodes], hidden.edges)
    calibrate_index(index)
    return index


def _line(name: str, rates: dict[str, Any]) -> str:
    def cell(key: str) -> str:
        r = rates.get(key)
        return f"{r['flagged']}/{r['queries']}" if r else "-"
    return f"| {name} | {cell('answerable')} | {cell('none')} | {cell('out_of_catalogue')} |"


def _costs(index: Index) -> tuple[float, float, float, float]:
    """Milliseconds to embed the probes, to draw a public caller's line from them, to
    measure how English the items it may see read, and to decide the settings its items
    suggest (`calibration.defaults.index_defaults`)."""
    stored = calibration_of(index.snapshot())
    started = time.perf_counter()
    index.embedder.embed(probes())
    embedded = time.perf_counter()
    fit_seen_by(index.snapshot(), Filters(), stored.fit if stored else None)
    drawn = time.perf_counter()
    english_share_seen_by(index.snapshot(), Filters(), stored.english_share if stored else None)
    measured = time.perf_counter()
    index_defaults(index.snapshot(), Filters())
    return ((embedded - started) * 1000, (drawn - embedded) * 1000, (measured - drawn) * 1000,
            (time.perf_counter() - measured) * 1000)


def main(data: Path, private: Sequence[str], work: Path) -> list[str]:
    """The table's lines (also printed)."""
    sets, notes = skills_sets(data)
    if not sets:
        raise SystemExit("; ".join(notes))
    dev, skills = sets[0], data / "skills"
    missing = [f for f in private if not (skills / f).is_dir()]
    if missing:
        raise SystemExit(f"no skill folder {', '.join(missing)} under {skills}")
    with _build(work / "with-private", skills, private) as both, _build(work / "public", skills, ()) as alone:
        counts = f"{len(alone)} public items, {len(both) - len(alone)} behind '{LABEL}'"
        embed_ms, draw_ms, share_ms, defaults_ms = _costs(both)
        lines = [
            (f"the public caller's line: the probes embedded in {embed_ms:.0f} ms (once per process), "
             f"drawn in {draw_ms:.0f} ms, its english_share in {share_ms:.0f} ms, its index defaults decided in "
             f"{defaults_ms:.0f} ms (once per index version and access)"),
            f"flagged 'nothing fits' ({counts}; {', '.join(private)} private)",
            "| caller, index | answerable | no right answer | out of catalogue |",
            "|---|---|---|---|",
            _line("public caller, both", fit_rates(Retriever(both), dev, data, principals=())),
            _line("the public items alone", fit_rates(Retriever(alone), dev, data)),
            _line(f"'{LABEL}' caller, both (sees all)", fit_rates(Retriever(both), dev, data, principals=(LABEL,))),
        ]
    print("\n".join(lines))
    return lines


def cli(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m skill_retriever.bench.private_fit",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=default_data_dir(), help="benchmark data folder")
    parser.add_argument("--private", nargs="+", default=list(PRIVATE_FOLDERS), metavar="FOLDER",
                        help="skill folders indexed behind the access label (default: %(default)s)")
    parser.add_argument("--work", type=Path, default=None, help="where the two indexes are built (default: a temporary folder)")
    args = parser.parse_args(argv)
    if args.data is None:
        parser.error("no benchmark data: pass --data (the folder holding skills/)")
    if args.work is not None:
        main(args.data, args.private, args.work)
        return
    with tempfile.TemporaryDirectory(prefix="private-fit-") as work:
        main(args.data, args.private, Path(work))


if __name__ == "__main__":
    cli(sys.argv[1:])
