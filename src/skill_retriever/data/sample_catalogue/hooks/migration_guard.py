#!/usr/bin/env python3
"""Block a shell command that would run schema migrations against a production database.

The script of the migration-guard hook (a PreToolUse hook on Bash). It reads the hook's
JSON on stdin and exits 2 (Claude Code blocks the call, showing the reason) when the
command runs a denied migration command (``--deny 'alembic upgrade'``, any number) and
names a production database host, in the command itself or in the database variables it
runs with (``DATABASE_URL``, ``SQLALCHEMY_URL``, ``PGHOST``). The hosts are those of
``--prod-hosts-file`` (one a line, ``#`` comments), relative to the project; with no such
file no host counts as production, and nothing is blocked. Every other case exits 0: it
never blocks for its own failures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

DATABASE_VARIABLES = ("DATABASE_URL", "SQLALCHEMY_URL", "PGHOST")


def _command() -> str:
    """The Bash command of the hook's JSON on stdin; '' when there is none."""
    if sys.stdin is None or sys.stdin.isatty():
        return ""
    try:
        payload = json.loads(sys.stdin.read() or "{}")
    except ValueError:
        return ""
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    return command if isinstance(command, str) and payload.get("tool_name") == "Bash" else ""


def _hosts(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [h for h in (line.split("#", 1)[0].strip().lower() for line in text.splitlines()) if h]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--deny", action="append", default=[], help="a migration command to guard")
    parser.add_argument("--prod-hosts-file", default="", help="production hosts, one a line")
    args = parser.parse_args(argv)
    command = " ".join(_command().split()).lower()
    denied = [d for d in args.deny if " ".join(d.split()).lower() in command]
    if not denied or not args.prod_hosts_file:
        return 0
    project = Path(os.environ.get("CLAUDE_PROJECT_DIR") or Path.cwd())
    seen = " ".join([command, *(os.environ.get(v, "").lower() for v in DATABASE_VARIABLES)])
    hosts = [
        h
        for h in _hosts(project / args.prod_hosts_file)
        if re.search(rf"(?<![\w.-]){re.escape(h)}(?![\w-]|\.\w)", seen)  # the whole host name
    ]
    if not hosts:
        return 0
    print(
        f"migration_guard: blocked: '{denied[0]}' against production ({', '.join(hosts)}) from a "
        "workstation; migrations reach production through the deploy pipeline. Run it against "
        "a local or staging database instead.",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
