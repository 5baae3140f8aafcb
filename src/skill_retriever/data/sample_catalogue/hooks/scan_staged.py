#!/usr/bin/env python3
"""Block a git commit whose staged changes hold something that looks like a secret.

The script of the block-secrets-in-commits hook (a PreToolUse hook on Bash). It reads the
lines ``git diff --cached`` adds (with ``git commit -a``, every tracked change) and looks
for credential shapes: cloud and chat tokens, private keys, ``password = "..."``. On a
match it names the file, line and rule (never the value) on stderr and exits 2, which
Claude Code reads as "block this tool call"; otherwise it exits 0: no match, not a git
repository, git not installed, or (with ``--only-if-git-commit``) a command that is no
``git commit``. It never blocks for its own failures.

Options:
    --rules FILE: More rules, a TOML file of ``[[rules]]`` tables with ``name`` and
        ``pattern`` (a Python regular expression), relative to the project; a missing file
        is fine (the built-in rules apply), a broken one is said on stderr and skipped.
    --only-if-git-commit: Read the hook's JSON on stdin and scan only when the Bash
        command runs ``git commit``.

A line holding ``scan-staged: allow`` is never reported (a test fixture, a documented
example key).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

RULES = [
    ("AWS access key id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    ("Slack token", r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    ("Stripe secret key", r"\b[sr]k_live_[A-Za-z0-9]{16,}"),
    ("Harbor API token", r"\bhbr_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("private key", r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----"),
    (
        "secret assigned in code",
        (
            r"(?i)\b(?:api[_-]?key|secret(?:[_-]?key)?|passw(?:or)?d|access[_-]?token|auth[_-]?token)"
            r"[\"']?\s*[:=]\s*[\"'][A-Za-z0-9+/_\-]{16,}[\"']"
        ),
    ),
]
ALLOW = "scan-staged: allow"
#: ``git commit`` inside a command (``git -C repo commit``, ``cd x && git commit -m ...``).
GIT_COMMIT = re.compile(r"\bgit\b[^;&|\n]*?\bcommit\b([^;&|\n]*)")
#: ``-a`` / ``-am`` / ``--all``: the commit takes every tracked change, staged or not.
ALL_FLAG = re.compile(r"(?:^|\s)(?:-(?!-)[A-Za-z]*a[A-Za-z]*|--all)(?=\s|$)")


def _payload() -> dict[str, object]:
    """The hook's JSON on stdin; {} when there is none (run by hand) or it is no object."""
    if sys.stdin is None or sys.stdin.isatty():
        return {}
    try:
        data = json.loads(sys.stdin.read() or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _commit_args(payload: dict[str, object]) -> str | None:
    """The arguments of the ``git commit`` the Bash call runs; None when it runs none."""
    tool_input = payload.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if payload.get("tool_name") != "Bash" or not isinstance(command, str):
        return None
    found = GIT_COMMIT.search(command)
    return found.group(1) if found else None


def _rules(path: Path | None) -> list[tuple[str, re.Pattern[str]]]:
    """The built-in rules and those of ``path`` (see the module docstring)."""
    rules = [(name, re.compile(pattern)) for name, pattern in RULES]
    if path is None or not path.is_file():
        return rules
    try:
        import tomllib  # Python 3.11+

        table = tomllib.loads(path.read_text(encoding="utf-8"))
        for rule in table.get("rules", []):
            rules.append((str(rule["name"]), re.compile(str(rule["pattern"]))))
    except (ImportError, OSError, ValueError, KeyError, TypeError, re.error) as exc:
        print(f"scan_staged: {path} not read ({exc}); the built-in rules apply", file=sys.stderr)
    return rules


def _added_lines(folder: Path, everything: bool) -> list[tuple[str, int, str]] | None:
    """(file, line number, text) of each line the commit adds; None when ``folder`` is
    not in a git repository or git cannot run."""
    which = ["HEAD"] if everything else ["--cached"]
    try:
        done = subprocess.run(
            ["git", "diff", *which, "--no-color", "--no-ext-diff", "-U0", "--diff-filter=d"],
            cwd=folder, capture_output=True, text=True, encoding="utf-8", errors="replace",
            timeout=30, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0 and everything:  # no commit yet: what is staged is all there is
        return _added_lines(folder, everything=False)
    if done.returncode != 0:
        return None
    found: list[tuple[str, int, str]] = []
    name, number = "", 0
    for line in done.stdout.splitlines():
        if line.startswith("+++ "):
            name = line[6:] if line.startswith("+++ b/") else line[4:]
        elif line.startswith("@@"):
            hunk = re.search(r"\+(\d+)", line)
            number = int(hunk.group(1)) if hunk else 0
        elif line.startswith("+"):
            found.append((name, number, line[1:]))
            number += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--rules", default="", help="a TOML file of more rules")
    parser.add_argument("--only-if-git-commit", action="store_true")
    args = parser.parse_args(argv)
    payload = _payload()
    commit = _commit_args(payload)
    if args.only_if_git_commit and commit is None:
        return 0
    cwd = payload.get("cwd")
    folder = Path(cwd) if isinstance(cwd, str) and os.path.isdir(cwd) else Path.cwd()
    project = Path(os.environ.get("CLAUDE_PROJECT_DIR") or folder)
    lines = _added_lines(folder, everything=bool(commit and ALL_FLAG.search(commit)))
    if not lines:
        return 0
    rules = _rules(project / args.rules if args.rules else None)
    hits = [
        f"  {name}:{number}  {rule}"
        for name, number, text in lines
        if ALLOW not in text
        for rule, pattern in rules
        if pattern.search(text)
    ]
    if not hits:
        return 0
    print(
        "scan_staged: the commit is blocked: its staged changes hold what looks like a secret\n"
        + "\n".join(dict.fromkeys(hits))
        + "\nTake the value out (use an environment variable or the secret store), stage the"
        " file again and commit; rotate it if it was ever pushed. A false match: end the line"
        f" with a comment holding '{ALLOW}'.",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
