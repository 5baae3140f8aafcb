"""Read a JSON Lines file (a tool set's ``tools.jsonl``, ``edges.jsonl``, ``queries.jsonl``)
one object a line, streaming: a bad line is one problem naming its line and column, and
the lines around it are read.

A file written as one JSON document over several lines (``json.dumps(tools, indent=2)``
saved as ``tools.jsonl``, the easiest mistake to make) fails on every line; it is said so
once (`whole_document_note`) rather than as one "not JSON" per line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from skill_retriever.exceptions import IngestError
from skill_retriever.ingest import json_values
from skill_retriever.ingest.result import IngestResult, Problem

#: A line of a .jsonl file longer than this is one problem, not a memory spike.
MAX_LINE_CHARS = 4_000_000
#: A file whose first line is no object is parsed whole, to tell one JSON document over
#: several lines, up to this size (a larger one keeps its per-line problems).
WHOLE_DOCUMENT_BYTES = 64 * 1024 * 1024
_SURROGATE = re.compile("[\udc80-\udcff]")  # an undecodable byte, kept by surrogateescape


def _lines(fh: TextIO) -> Iterator[str | None]:
    """The file's lines, never holding more than `MAX_LINE_CHARS` of one in memory; None
    stands for a longer line (its rest is skipped)."""
    while line := fh.readline(MAX_LINE_CHARS + 1):
        if len(line) <= MAX_LINE_CHARS or line.endswith("\n"):
            yield line
            continue
        while (rest := fh.readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
            pass
        yield None


def read_objects(path: Path, result: IngestResult | None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) per non-blank line, streaming the file.

    A line that is not a JSON object, or not UTF-8, becomes a problem in ``result``, or
    raises `IngestError` when ``result`` is None; so does a file that cannot be read (a
    folder, no permission). A byte order mark is read past. A file of several lines that is one JSON
    document, its first line failing, has one problem saying so (`whole_document_note`)
    and yields nothing, also where a line of it is an object on its own.
    """
    first = len(result.problems) if result is not None else 0
    read = 0
    try:
        # surrogateescape: an invalid byte stays visible (a lone surrogate), so its line
        # is refused rather than stored with U+FFFD in place of what the author wrote.
        with path.open("r", encoding="utf-8-sig", errors="surrogateescape") as fh:
            for n, line in enumerate(_lines(fh), 1):
                rec, why = parse_line(line)
                if rec is not None:
                    read += 1
                    yield n, rec
                if why is None:
                    continue
                if result is None:
                    raise IngestError(f"{path}:{n}: {why}")
                if not read and len(result.problems) == first and (note := whole_document_note(path)):
                    # Its first line fails, and the file is one JSON document: an object on a
                    # line of its own inside it (`[`, `{...}`, `]`) is no JSON Lines either.
                    result.problems.append(Problem(str(path), note))
                    return
                result.problems.append(Problem(str(path), f"line {n}: {why}"))
    except OSError as exc:
        why = f"cannot be read ({exc.strerror or exc}); check that it is a readable file"
        if result is None:
            raise IngestError(f"{path}: {why}") from exc
        result.problems.append(Problem(str(path), why))
        return


def whole_document_note(path: Path) -> str | None:
    """What a file that is one JSON document (not one a line) is, and how to make it JSON
    Lines; None when it is not one (or is too large to parse whole)."""
    try:
        if path.stat().st_size > WHOLE_DOCUMENT_BYTES:
            return None
        text = path.read_text(encoding="utf-8-sig").strip()
        if "\n" not in text:  # one line: its own problem says what it holds
            return None
        doc = json_values.loads(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    if isinstance(doc, list) and doc and all(isinstance(d, dict) for d in doc):
        return (f"is one JSON list of {len(doc):,} objects over several lines, not JSON Lines: write each "
                f"object on a line of its own (`jq -c '.[]' {path.name}` prints them so)")
    if isinstance(doc, dict):
        return ("is one JSON object over several lines, not JSON Lines: write each object on a line of "
                "its own (a list under one key: `jq -c '.KEY[]'`)")
    return None


def parse_line(line: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """One line's JSON object, or why it is not a usable one; (None, None) when blank."""
    if line is None:
        return None, f"longer than {MAX_LINE_CHARS:,} characters; skipped unread"
    if not line.strip():
        return None, None
    if _SURROGATE.search(line):
        return None, "not UTF-8 text; save the file as UTF-8"
    text = line.rstrip("\r\n")  # so a position is a column of this line, not of "line 2"
    try:
        rec = json_values.loads(text)
    except json.JSONDecodeError as exc:
        cut = " (the line ends before its JSON does)" if exc.pos >= len(text.rstrip()) else ""
        return None, f"not JSON at column {exc.pos + 1}: {exc.msg}{cut}"
    except (ValueError, RecursionError) as exc:
        return None, f"not JSON ({exc})"
    if not isinstance(rec, dict):
        listed = isinstance(rec, list) and bool(rec) and all(isinstance(r, dict) for r in rec)
        hint = f": a list of {len(rec):,} objects on one line; write each on a line of its own" if listed else ""
        return None, f"not a JSON object (it is {json_values.type_name(rec)}){hint}"
    why = json_values.nesting_message(rec) or json_values.unrepresentable_message(rec)
    return (rec, None) if why is None else (None, why)
