"""A bad data file fails its section or set, not the run.

One malformed line (``IngestError``: the file and line), a missing or unreadable file
or a file that is not JSON stopped the whole benchmark, so every section after it went
unmeasured. The runner and the retrieval sections catch these
(:data:`DATA_ERRORS`), record the failure here, and go on; the run then exits 1 and
report.md lists the failures at its end. Any other error is a fault of ours and still
stops the run (its report is headed **Failed**).
"""

from __future__ import annotations

import json
from typing import Any

from skill_retriever.exceptions import IngestError

__all__ = ["DATA_ERRORS", "failure", "failures_lines", "failures_summary"]

#: What a bad data file raises: a line that does not parse (IngestError names file and
#: line), a file that is missing or cannot be read, JSON or text that does not decode. Not
#: every OSError: a closed stdout (``| head``) or a full disk is no fault of one set's data.
DATA_ERRORS: tuple[type[Exception], ...] = (
    IngestError, FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError,
    json.JSONDecodeError, UnicodeDecodeError)


def failure(section: str, set_name: str | None, exc: Exception) -> dict[str, Any]:
    """One failure as ``_run.json`` keeps it."""
    return {"section": section, "set": set_name, "error": f"{type(exc).__name__}: {exc}"}


def _where(f: dict[str, Any]) -> str:
    return str(f.get("set") or f.get("section") or "?")


def failures_summary(run: dict[str, Any]) -> str:
    """The header's sentence on the last run's failures ("" when none)."""
    failed = run.get("failures") or []
    if not failed:
        return ""
    return (f"{len(failed)} section(s) or set(s) failed on their data ({', '.join(_where(f) for f in failed)}); "
            "the others were measured (or reused). Failures at the end of this report.")


def failures_lines(run: dict[str, Any]) -> list[str]:
    """report.md's closing section: each failure with its error (file and line)."""
    failed = run.get("failures") or []
    if not failed:
        return []
    return ["## Failures", "",
            ("The last run measured every section and set but these, each stopped by its data; mend the file "
             "named and run the same command again."), "",
            *[f"- {_where(f)}: {f.get('error')}" for f in failed], ""]
