"""The ``skill-retriever`` console script: Ctrl-C and SIGTERM handled from the first moment.

`cli.main` turns Ctrl-C into "skill-retriever: interrupted" and exit 130 (SIGTERM into
143), as the README promises, but only once its command runs: its modules take a tenth of
a second or more to import, and its parser is built before that handling starts. A Ctrl-C
landing there printed a traceback and the process died of SIGINT (exit -2 to its parent; a
SIGTERM, of SIGTERM). This module imports nothing of the package's heavy parts: it takes
SIGTERM as Ctrl-C while `cli` loads, and says either as `cli.main` does, before any
command has run (so there is nothing left half-done to name).
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

# stdlib alone below it: loaded before anything heavy
from skill_retriever.termination import EXIT_TERMINATED, Terminated

__all__ = ["EXIT_INTERRUPTED", "main"]

#: A shell's exit status for a process ended by Ctrl-C (128 + SIGINT).
EXIT_INTERRUPTED = 128 + signal.SIGINT


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def _stopped(exc: KeyboardInterrupt) -> int:
    terminated = isinstance(exc, Terminated)
    print(f"skill-retriever: {'terminated (SIGTERM)' if terminated else 'interrupted'}", file=sys.stderr)
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def main() -> int:
    """Run ``skill-retriever`` with ``sys.argv``; its exit status."""
    before = signal.signal(signal.SIGTERM, _raise)
    try:
        from skill_retriever.cli import main as cli_main

        # put back inside the try: a SIGTERM up to here is still said as one
        signal.signal(signal.SIGTERM, before)  # `mcp` handles SIGTERM its own way: the default
    except KeyboardInterrupt as exc:
        signal.signal(signal.SIGTERM, before)
        return _stopped(exc)
    try:
        return cli_main()
    except KeyboardInterrupt as exc:  # before the command ran: while its arguments were parsed
        return _stopped(exc)


if __name__ == "__main__":
    raise SystemExit(main())
