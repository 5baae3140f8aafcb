#!/usr/bin/env python3
"""Refuse a deploy-control promotion outside the release window.

The script of the block-friday-deploys hook (a PreToolUse hook on the deploy-control MCP
server's tools). It exits 2 (Claude Code blocks the call, showing the reason) when the
local time is at or after ``--deny-after`` on that day (``'Fri 14:00'``) and before the
week's end, or on a Saturday or Sunday, unless the environment variable ``--allow-env``
names (``INCIDENT_OVERRIDE``) is set to something other than empty, ``0`` or ``false``:
an incident may need a fix shipped now. The hook's JSON on stdin is read only to say which
tool was refused. A ``--deny-after`` it cannot read blocks nothing and says so: it never
blocks for its own failures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _window_closes(text: str) -> tuple[int, int] | None:
    """``'Fri 14:00'`` as (weekday 0-6, minutes after midnight); None when it is not so written."""
    try:
        day, clock = text.split()
        hours, minutes = (int(part) for part in clock.split(":"))
        weekday = DAYS.index(day[:3].lower())
    except ValueError:
        return None
    if not (0 <= hours < 24 and 0 <= minutes < 60):
        return None
    return weekday, hours * 60 + minutes


def _tool() -> str:
    """The tool the hook's JSON on stdin names; '' when there is none."""
    if sys.stdin is None or sys.stdin.isatty():
        return ""
    try:
        payload = json.loads(sys.stdin.read() or "{}")
    except ValueError:
        return ""
    name = payload.get("tool_name") if isinstance(payload, dict) else None
    return name if isinstance(name, str) else ""


def closed(now: datetime, closes: tuple[int, int]) -> bool:
    """Whether ``now`` lies between the window's close and the end of the week."""
    weekday, minute = closes
    at = now.weekday() * 24 * 60 + now.hour * 60 + now.minute
    return at >= weekday * 24 * 60 + minute or now.weekday() >= 5


def main(argv: list[str] | None = None, now: datetime | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--deny-after", default="Fri 14:00", help="when the window closes, 'Fri 14:00'")
    parser.add_argument("--allow-env", default="", help="a variable that, set, lets the call through")
    args = parser.parse_args(argv)
    closes = _window_closes(args.deny_after)
    if closes is None:
        print(f"deploy_window: cannot read --deny-after {args.deny_after!r} (write 'Fri 14:00'); nothing blocked",
              file=sys.stderr)
        return 0
    tool = _tool()
    override = os.environ.get(args.allow_env, "") if args.allow_env else ""
    if override.strip().lower() not in ("", "0", "false"):
        return 0
    now = now or datetime.now()
    if not closed(now, closes):
        return 0
    how = f"; for an incident, set {args.allow_env}=1 and try again" if args.allow_env else ""
    print(f"deploy_window: blocked {tool or 'the promotion'}: deploys are closed from {args.deny_after} "
          f"to the end of the week (now {now:%a %H:%M}){how}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
