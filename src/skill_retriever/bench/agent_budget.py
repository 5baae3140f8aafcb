"""The figures behind the coding agent's ``DEFAULT_BUDGET`` (``graphs/coding_agent.py``):
the sizes of an index's skills, and how many of the top 5 of five tasks each token budget
keeps, as ``Retriever(index).search(task, k=5, budget=...)`` does.

Usage: python -m skill_retriever.bench.agent_budget INDEX_DIR
(the docstring's figures: an index of ``../shared/data/skills/trailofbits__skills``).
"""

from __future__ import annotations

import statistics
import sys

from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

#: Security tasks that the trailofbits catalogue answers.
TASKS = ("fuzz a rust crate", "audit a solidity smart contract", "write semgrep rules for python",
         "review a diff for security bugs", "set up codeql in CI")
BUDGETS = (4000, 16000, 20000)


def main(index_dir: str) -> None:
    with Index.open(index_dir) as index:
        retriever = Retriever(index)
        sizes = sorted(r.token_count for r in retriever.search("skill", k=1000, kinds=["skill"], budget=None).results)
        if len(sizes) < 2:
            raise SystemExit(f"{index_dir} holds fewer than 2 skills: index a skills catalogue first")
        p90 = statistics.quantiles(sizes, n=10)[-1]
        print(f"skills {len(sizes)}: median {statistics.median(sizes):.0f} tokens, p90 {p90:.0f}, largest {sizes[-1]}")
        for budget in BUDGETS:
            kept = sum(len(retriever.search(task, k=5, budget=budget).results) for task in TASKS)
            print(f"budget {budget}: {kept} of {5 * len(TASKS)} results kept")


def cli(argv: list[str] | None = None) -> None:
    """The command line: one index folder; a folder with no index is a one-line error."""
    import argparse

    from skill_retriever.exceptions import IndexOpenError

    parser = argparse.ArgumentParser(prog="python -m skill_retriever.bench.agent_budget",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("index_dir", metavar="INDEX_DIR", help="an index of a skills catalogue")
    args = parser.parse_args(argv)
    try:
        main(args.index_dir)
    except IndexOpenError as exc:
        parser.error(str(exc))


if __name__ == "__main__":
    cli(sys.argv[1:])
