"""The tools a toolret set's ``tools.jsonl`` lost at ingestion, said with the set's figures.

A line that is no JSON object, a tool with no id, a duplicate id or a field of the wrong
shape is dropped by `ingest.toolret` as an ingest problem. The benchmark showed those in
the build log only (the first three; nothing when the cached index was reused) and
measured the set on the rest as if it were whole. Now the set's result (``dropped_tools``)
and its notes in report.md say how many lines were dropped and why, and a set that lost
more than `MAX_DROPPED_SHARE` of its lines fails (`data_failures`) before it is embedded.

Why a share and not every drop: one stray line among thousands (an export's truncated last
line) leaves the set's catalogue and figures what they were, and its notes say it. Past a
few percent the catalogue measured is another one: fewer distractors flatter every method,
and each dropped judged tool counts as a miss, so the figures compare neither with the
published ones nor with an earlier run on the whole file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skill_retriever.exceptions import IngestError

__all__ = ["MAX_DROPPED_SHARE", "count_said", "dropped_note", "dropped_tools", "nonblank_lines", "set_tools_file",
           "why_said"]

#: A set whose ``tools.jsonl`` loses more than this share of its (non-blank) lines fails.
MAX_DROPPED_SHARE = 0.05
#: Reasons kept and shown per set.
SHOWN = 5
#: How `ingest.toolret` begins a problem of tools.jsonl that is about edges.jsonl, not a tool.
_EDGES_NOTE = "its tools and relations are kept"


def set_tools_file(family: str, sources: Sequence[Path]) -> Path | None:
    """The ``tools.jsonl`` of a toolret set (its first source is its folder); None for
    another family."""
    return sources[0].absolute() / "tools.jsonl" if family == "toolret" and sources else None


def nonblank_lines(path: Path) -> int:
    """The non-blank lines of ``path`` (each one tool, or one relation, unless dropped)."""
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


def dropped_tools(tools: Path, indexed: int, problems: Sequence[str] | None) -> dict[str, Any] | None:
    """How many lines of ``tools`` (its absolute path) did not become one of the ``indexed``
    tools, and why (the ingestion's ``problems``, each ``"<file>: <message>"``; None when
    they were not recorded: a cached index built before they were kept); None when none.

    Raises:
        IngestError: more than `MAX_DROPPED_SHARE` of the lines were dropped.
    """
    lines = nonblank_lines(tools)
    dropped = lines - indexed
    if dropped <= 0:
        return None
    prefix = f"{tools}: "
    reasons = None if problems is None else [
        p[len(prefix):] for p in problems if p.startswith(prefix) and not p[len(prefix):].startswith(_EDGES_NOTE)
    ][:SHOWN]
    found = {"file": str(tools), "lines": lines, "dropped": dropped, "share": round(dropped / lines, 4),
             "reasons": reasons}
    if dropped / lines > MAX_DROPPED_SHARE:
        raise IngestError(f"{tools}: {count_said(found)}, more than the {MAX_DROPPED_SHARE:.0%} a set may lose and "
                          f"still be measured{why_said(found)}; mend those lines, or move the set out of the data folder")
    return found


def count_said(found: dict[str, Any]) -> str:
    """``N of M lines of <file name> dropped (x%)``."""
    return (f"{found['dropped']} of {found['lines']} lines of {Path(found['file']).name} dropped "
            f"({found['share']:.1%})")


def why_said(found: dict[str, Any]) -> str:
    """``: <reason>; <reason>; and N more`` (or why the reasons are not known)."""
    reasons = found["reasons"]
    if reasons is None:
        return " (why is not known: its cached index was built before reasons were kept; delete it to see them)"
    more = found["dropped"] - len(reasons)
    return f": {'; '.join(reasons)}" + (f"; and {more} more" if more > 0 else "")


def dropped_note(found: dict[str, Any]) -> str:
    """The set's note on its dropped tools (``dropped_tools``' answer)."""
    return (f"{count_said(found)}, measured on the rest (a judged tool among them counts as a miss; a set fails "
            f"past {MAX_DROPPED_SHARE:.0%}){why_said(found)}")
