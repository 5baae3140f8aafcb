"""What the CLI adds to the error of an ``index`` run that stopped part-way: its Chroma
server stopped answering, or its disk filled (`cli.main`'s error line)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from skill_retriever.exceptions import IndexCorruptError, SkillRetrieverError

__all__ = ["stopped_run_advice"]


def stopped_run_advice(exc: SkillRetrieverError, args: argparse.Namespace, argv: Sequence[str] | None) -> str:
    """What an index run whose Chroma server stopped answering, or whose disk filled, leaves:
    the batches it committed, so the same command completes the sources (and copies what
    the server lacks); ``repair`` alone left the run's sources half-written. A full disk
    said "nothing was changed" with the run's first batches stored."""
    import shlex

    from skill_retriever.exceptions import ServerUnreachableError
    from skill_retriever.stores.items import environment_error

    disk = isinstance(exc, IndexCorruptError) and exc.__cause__ is not None and environment_error(exc.__cause__)
    if args.command != "index" or not (disk or isinstance(exc, ServerUnreachableError)):
        return ""
    again = shlex.join(["skill-retriever", *(sys.argv[1:] if argv is None else argv)])
    if disk:
        return (f"; what this run stored before it is kept (`stats` names a source it left part-written): "
                f"once the disk has room, run the same command again to complete the run: `{again}`")
    if isinstance(exc, ServerUnreachableError) and exc.nothing_written:  # its open refused: nothing to complete
        return f"; nothing was written to the index: the server must answer first, then run the same command: `{again}`"
    return f"; to complete this run once the server answers, run the same command again: `{again}`"
