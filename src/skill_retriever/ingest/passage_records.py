"""A passage corpus's records read into passage nodes (`ingest.passages` links them).

Each record is ``{"idx", "title", "text"}``. What cannot be read is a problem of the
corpus file: a record without a readable idx keeps the whole file's earlier items at
re-indexing (which stored passage it was cannot be told); one with an idx keeps that
passage's earlier version and its facts (`Unread.ITEM`), the rest of the file being
authoritative (a text or title JSON cannot hold, a NaN, too; an empty or blank title or
text, the title named as the corpus names it). A repeated idx is kept under
``passage:<idx>#<n>``, with a note, and so is a text longer than the parser reads
(`facts.MAX_PARSE_CHARS`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skill_retriever.exceptions import InvalidItemError
from skill_retriever.ingest import json_values
from skill_retriever.ingest.facts import MAX_PARSE_CHARS
from skill_retriever.ingest.result import IngestResult, Problem, Unread
from skill_retriever.model import Node, NodeKind

__all__ = ["passages_of", "read_records"]


def read_records(corpus_path: Path, max_bytes: int, result: IngestResult) -> list[Any]:
    """The corpus's records; on failure one problem of the file and none."""
    records, why = json_values.read_file(corpus_path, max_bytes)
    if why is None and isinstance(records, list):
        return records
    if why is None:
        why = f'expected a JSON list of {{"title", "text", "idx"}}, got {json_values.type_name(records)}'
    result.problems.append(Problem(str(corpus_path), f"unreadable corpus: {why}"))
    return []


def passages_of(records: list[Any], where: str, result: IngestResult, origin: dict[str, str]) -> list[Node]:
    passages: list[Node] = []
    taken: dict[str, int] = {}
    for i, rec in enumerate(records):
        bad = json_values.unrepresentable_message(
            {k: rec[k] for k in ("idx", "title", "text") if k in rec} if isinstance(rec, dict) else None
        )
        if bad is not None:
            if _readable_idx(rec):  # that passage keeps its earlier version; the rest goes on
                _skip(result, where, f"record {i} (idx {rec['idx']!r}): {bad}; passage skipped", f"passage:{rec['idx']}", taken)
            else:
                result.problems.append(Problem(where, f"record {i}: {bad}; skipped"))
            continue
        if (why := _idx_problem(rec)) is not None:
            result.problems.append(Problem(where, f"record {i}: {why}"))
            continue
        title = rec.get("title")
        title = str(title) if isinstance(title, (int, float)) and not isinstance(title, bool) else title
        if not isinstance(title, str) or not title.strip():  # a Node would say "name is empty"
            why = ("no title" if "title" not in rec else "title is empty" if isinstance(title, str)
                   else f"title must be a string, got {json_values.type_name(title)}")
            _skip(result, where, f"record {i} (idx {rec['idx']!r}): {why}; passage skipped", f"passage:{rec['idx']}", taken)
            continue
        base = f"passage:{rec['idx']}"
        n = taken.get(base, 0) + 1
        if n > 1:
            result.problems.append(Problem(where, (
                f"record {i}: idx {rec['idx']!r} repeats an earlier record's; kept as {base}#{n} "
                f"(a question whose answer is {base} matches only the first)"), read_whole=True))
        attrs: dict[str, Any] = {"idx": rec["idx"], **({"duplicate_idx": True} if n > 1 else {}), **origin}
        try:
            passages.append(Node(id=base if n == 1 else f"{base}#{n}", kind=NodeKind.PASSAGE,
                                 name=title, text=rec.get("text", ""), source=where, attrs=attrs))
        except InvalidItemError as exc:
            _skip(result, where, f"record {i} (idx {rec['idx']!r}): {exc}", base, taken)
            continue
        taken[base] = n
        if len(text := passages[-1].text) > MAX_PARSE_CHARS:  # say it, rather than drop the rest unseen
            result.problems.append(Problem(where, (
                f"record {i} (idx {rec['idx']!r}): text is {len(text):,} characters; its entities and facts "
                f"are read from the first {MAX_PARSE_CHARS:,} (the whole text is indexed and searched by "
                "keyword; a passage that long is better split into several)"), read_whole=True))
    return passages


def _idx_problem(rec: Any) -> str | None:
    """Why ``rec`` names no passage, or None: its idx must be a whole number or text (true
    is no idx, though Python counts it an int: it became ``passage:True``)."""
    if not isinstance(rec, dict):
        return f"not an object, got {json_values.type_name(rec)}"
    if "idx" not in rec:
        keys = ", ".join(repr(k) for k in list(rec)[:4]) or "none"
        return f"no idx (its keys: {keys}): give each record an 'idx', a 'title' and a 'text', as HippoRAG's corpus.json does"
    idx = rec["idx"]
    if isinstance(idx, bool) or not isinstance(idx, (int, str)):
        shown = json.dumps(idx) if idx is None or isinstance(idx, (bool, float)) else json_values.type_name(idx)
        return f"idx must be a whole number or text, got {shown}"
    return None


def _readable_idx(rec: Any) -> bool:
    """Whether ``rec`` names its passage: an int or text idx that JSON and the index can hold."""
    return _idx_problem(rec) is None and json_values.unrepresentable_message({"idx": rec["idx"]}) is None


def _skip(result: IngestResult, where: str, message: str, base: str, taken: dict[str, int]) -> None:
    """A record with an idx that cannot be read: its passage keeps its earlier version (and
    its facts) at re-indexing (`Unread.ITEM`); the rest of the corpus is authoritative."""
    n = taken.get(base, 0) + 1
    result.problems.append(Problem(where, message, unread=Unread.ITEM, item=base if n == 1 else f"{base}#{n}"))
