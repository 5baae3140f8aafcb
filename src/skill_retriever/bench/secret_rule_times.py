"""How long each prose secret rule takes over some folders' text: the check that a new rule
(or a wider one) does not make ingest slow.

Usage: python -m skill_retriever.bench.secret_rule_times [--top N] FOLDER...

Every ``*.md`` file below each FOLDER (UTF-8; a file that is not is skipped) is passed
through ``prose_secrets.PROSE_RULES`` in order, as ``redact_prose`` does, and the seconds
each rule took, summed over the files, are printed to stdout, slowest first, with the total.
A rule runs over what the rules before it left, as in ingest. Timings are wall-clock on
this machine: compare two checkouts in one sitting, on an otherwise idle machine.

With another checkout's code (this file needs only ``prose_secrets.PROSE_RULES``, a name
and a function per rule); ``-P`` keeps this file's folder off ``sys.path``::

    PYTHONPATH=OLD/src python -P src/skill_retriever/bench/secret_rule_times.py ../shared/data/skills/*
    python -m skill_retriever.bench.secret_rule_times ../shared/data/skills/*
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path


def rule_seconds(texts: list[str]) -> dict[str, float]:
    """The seconds each prose rule took over ``texts``, by the rule's name."""
    from skill_retriever.ingest.prose_secrets import PROSE_RULES

    spent: dict[str, float] = defaultdict(float)
    for text in texts:
        for name, rule in PROSE_RULES:
            start = time.perf_counter()
            text = rule(text)
            spent[name] += time.perf_counter() - start
    return dict(spent)


def _texts(folders: list[Path]) -> list[str]:
    texts = []
    for folder in folders:
        for path in sorted(folder.rglob("*.md")):
            try:
                texts.append(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                continue  # ingest reports such a file; its time here would be none
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("folders", nargs="+", type=Path, metavar="FOLDER")
    parser.add_argument("--top", type=int, default=12, help="rules to print, slowest first (default 12)")
    args = parser.parse_args(argv)
    texts = _texts(args.folders)
    spent = rule_seconds(texts)
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1])[: args.top]:
        print(f"{seconds:7.2f} s  {name}")
    print(f"{sum(spent.values()):7.2f} s  all {len(spent)} rules, {len(texts)} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
