"""One Markdown component file -> a `Record`; the field rules every component kind shares.

A record is a node-to-be plus the names it refers to (requires, conflicts, tools);
`skills.py` places records in their corpus and resolves those names into edges. A file
that cannot be used raises `RecordError`; a field that is merely ignored comes back as a
warning. Both become per-file problems.
"""

from __future__ import annotations

import codecs
import math
import os
import re
import stat
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

from skill_retriever.exceptions import InvalidItemError
from skill_retriever.ingest.access_keys import access_notes
from skill_retriever.ingest.frontmatter import (
    FrontmatterError,
    parse_frontmatter,
    split_frontmatter,
)
from skill_retriever.ingest.frontmatter_comments import comment_cuts

# The keys and `name_list` have their own module, which answers read without the YAML
# reader; imported here under their old names (``skill_records.name_list`` still works).
from skill_retriever.ingest.frontmatter_names import (
    CONFLICTS_KEY,
    DEPENDENCIES_KEY,
    REQUIRES_KEYS,
    name_list,
    tool_entries,
)
from skill_retriever.ingest.result import Note
from skill_retriever.ingest.yaml_loader import KeptText
from skill_retriever.model import NodeKind, parse_timestamp
from skill_retriever.time_text import unset_time

_CREATED_KEYS = ("created", "date_added")
_UPDATED_KEYS = ("updated", "last_updated")
#: What a file over the size limit can do about it.
#: Skill and document files larger than this are skipped and reported (``index --max-file-bytes``).
MAX_FILE_BYTES = 2_000_000
_RAISE = "split it, or raise the limit (index --max-file-bytes N; max_file_bytes in the Python API)"
#: A frontmatter line indented with a tab (YAML allows only spaces there).
_TAB_INDENT_RE = re.compile(r"^ *\t", re.MULTILINE)


class RecordError(ValueError):
    """This file cannot become a node; the message is the problem to report."""


class AccessError(RecordError):
    """The ``access`` labels cannot be read: the item is not indexed (`access_labels`)."""


class EmptyRecordError(RecordError):
    """This file was read and says nothing to index (no body, no description): what an
    earlier run read from it goes, as for a file deleted (it was kept, as unreadable)."""


@dataclass(slots=True)
class Record:
    """A node-to-be read from one file (or one entry of an MCP config file)."""

    rel: str
    kind: NodeKind
    name: str
    description: str
    text: str
    tags: tuple[str, ...] = ()
    #: Who may see it (``access``; `access_labels`); none: every caller.
    access: tuple[str, ...] = ()
    created: datetime | None = None
    updated: datetime | None = None
    attrs: dict[str, Any] = field(default_factory=dict)
    requires: list[str] = field(default_factory=list)
    #: The ``dependencies`` entries: packages, or components when every one names one.
    dependencies: list[str] = field(default_factory=list)
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def read_text(path: Path, max_bytes: int) -> str:
    """The file as UTF-8 text; RecordError when too large, binary or undecodable, or no
    regular file (the walk skips those; this holds if one took a file's place since).

    The file is opened without blocking, so a named pipe is told apart rather than waited
    on, and read only up to the limit, so a file growing since its size was taken is
    still cut off there."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RecordError("not a regular file (a named pipe, socket or device); skipped")
        if st.st_size > max_bytes:
            raise RecordError(f"file is {st.st_size:,} bytes, over the {max_bytes:,}-byte limit; skipped: {_RAISE}")
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise RecordError(f"file grew past the {max_bytes:,}-byte limit while it was read; skipped: {_RAISE}")
    wide = _wide_encoding(data)
    if wide:
        raise RecordError(f"{wide} text (it starts with a {wide} byte order mark); skipped: save it as UTF-8 and index again")
    if b"\x00" in data:
        raise RecordError("binary file (NUL bytes); skipped")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start}); skipped: save it as UTF-8 and index again"
        ) from exc


def unreadable(exc: OSError) -> str:
    """The problem of a file the system would not let us read (no permission, an I/O error)."""
    return f"cannot read: {exc.strerror or exc}; make it readable and index again"


def _wide_encoding(data: bytes) -> str | None:
    """The encoding whose byte order mark ``data`` starts with ("UTF-16" or "UTF-32"; its
    NUL bytes would otherwise call it binary), else None."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: FF FE begins both
        return "UTF-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16"
    return None


def markdown_record(
    text: str, rel: str, kind: NodeKind, default_name: str, *, labelled_items: bool = False
) -> Record | None:
    """A Markdown component; None for an OTHER candidate without frontmatter name +
    description, unless ``labelled_items`` (a file in a skill's folder) and it gives
    ``access`` labels: install copies a skill's folder files, leaving out only those that
    are items the caller may not see, so a labelled file must be one or go to everyone."""
    try:
        fm = parse_frontmatter(text)
    except FrontmatterError as exc:
        raise RecordError(str(exc)) from exc
    fields = fm.fields
    named = fields.get("name") and fields.get("description")
    if kind is NodeKind.OTHER and not named and not (labelled_items and fields.get("access")):
        return None
    record = record_from_fields(fields, rel, kind, default_name, body=fm.body)
    record.warnings[:0] = [f"frontmatter {w}{unset_note(w, fields)}" for w in fm.warnings]
    record.warnings += comment_cuts(split_frontmatter(text)[0] or "", fields)
    raw = {k: v for k, v in fields.items() if k not in ("name", "description")}
    record.attrs["frontmatter"] = jsonable(raw)
    if fm.recovered_from:
        record.attrs["frontmatter_recovered"] = fm.recovered_from
        tabbed = _TAB_INDENT_RE.search(split_frontmatter(text)[0] or "") is not None
        record.warnings.insert(0, recovered_note(fm.recovered_from, tabbed))
    if kind in (NodeKind.SKILL, NodeKind.AGENT) and not record.description:
        record.warnings.append(
            Note(f"no 'description' in the frontmatter: Claude Code chooses {_article(kind.value)} by "
                 "its description (and loads no agent without one); add one")
        )
    return record


def _article(word: str) -> str:
    """``word`` after "a" or "an" ("a skill", "an agent")."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def recovered_note(reason: str, tabbed: bool = False) -> Note:
    """The note on frontmatter that only lenient reading could use (every line was read)."""
    tabs = "indent with spaces, not tabs, and " if tabbed else ""
    return Note(
        f"frontmatter is not valid YAML ({reason}); read as plain 'key: value' lines, each "
        f"value kept as written: {tabs}quote values holding ': ' or starting with '[', '{{' or '*'"
    )


def unset_note(warning: str, fields: dict[str, Any], keys: tuple[str, ...] = (*_CREATED_KEYS, *_UPDATED_KEYS)) -> str:
    """Say which date field (of ``keys``) a value kept as text leaves unset (its warning
    quotes it): "kept as text" alone reads as if the item held it."""
    for key in keys:
        key, value = date_field(fields, key)
        if isinstance(value, KeptText) and f"{str(value)!r}" in warning:
            return f"; '{key}' is left unset"
    return ""


def date_field(fields: dict[str, Any], key: str) -> tuple[str, Any]:
    """The frontmatter key that is ``key`` in any case (``Date:``, ``Updated:``, as some
    editors and site generators write them), as written, and its value; ``key`` and None
    when there is none. A runbook dated ``Date: 2026-02-01`` was undated without a word, left
    out of every since/until window (found in a walkthrough). The key as written wins."""
    if key in fields:
        return key, fields[key]
    folded = key.casefold()
    written = next((k for k in fields if isinstance(k, str) and k.casefold() == folded), None)
    return (key, None) if written is None else (written, fields[written])


def record_from_fields(
    fields: dict[str, Any], rel: str, kind: NodeKind, default_name: str, *, body: str
) -> Record:
    name = text_field(fields, "name").strip() or default_name
    description = text_field(fields, "description").strip()
    text = body.strip() or description
    if not text:
        raise EmptyRecordError("no body and no description: nothing to index; write a description")
    record = Record(rel=rel, kind=kind, name=name, description=description, text=text)
    record.tags = tuple(name_list(fields.get("tags"), "tags", record.warnings))
    record.access = access_labels(fields)
    record.warnings += access_notes(fields, record.access, inherits=True)
    record.created = first_time(fields, _CREATED_KEYS, record.warnings)
    record.updated = first_time(fields, _UPDATED_KEYS, record.warnings)
    for key in REQUIRES_KEYS:
        record.requires += name_list(fields.get(key), key, record.warnings)
    record.dependencies = name_list(fields.get(DEPENDENCIES_KEY), DEPENDENCIES_KEY, record.warnings)
    record.conflicts = _conflicts(fields.get(CONFLICTS_KEY), record.warnings)
    record.tools += tool_entries(fields, record.warnings)
    return record


def access_labels(fields: dict[str, Any]) -> tuple[str, ...]:
    """The ``access`` labels (a list, or a comma-separated string, as ``tags``).

    Raises:
        RecordError: ``access`` is set but cannot be read as labels: indexing the item
            as public would show it to every caller.
    """
    value = fields.get("access")
    if value is None or value == "" or value == []:
        return ()
    unread: list[str] = []
    labels = name_list(value, "access", unread)
    if unread or not labels:
        raise AccessError(
            f"'access' {value!r:.60} is not a list of labels: not indexed (it would be shown "
            "to every caller); write `access: [label, ...]`"
        )
    return tuple(labels)


def text_field(fields: dict[str, Any], key: str) -> str:
    """A name-like field as text; numbers are read as text, lists and mappings refused."""
    value = fields.get(key)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise RecordError(f"'{key}' must be text, got a {type(value).__name__}")


def _conflicts(value: Any, warnings: list[str]) -> list[tuple[str, str]]:
    if isinstance(value, list):
        out = []
        for item in value:
            if isinstance(item, dict) and "name" not in item and len(item) == 1:
                ((name, reason),) = item.items()
                item = {"name": str(name), "reason": reason}
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                reason = item.get("reason")
                out.append(
                    (item["name"].strip(), reason.strip() if isinstance(reason, str) else "")
                )
            else:
                out += [(n, "") for n in name_list([item], "conflicts", warnings)]
        return out
    return [(n, "") for n in name_list(value, "conflicts", warnings)]


def first_time(
    fields: dict[str, Any], keys: tuple[str, ...], warnings: list[str]
) -> datetime | None:
    """The first of ``keys`` whose frontmatter value is a date (a bare date is midnight
    UTC); one that is no date is a warning and passed over."""
    for key in keys:
        key, value = date_field(fields, key)
        if unset_time(value) or isinstance(value, KeptText):
            continue  # KeptText: the YAML loader already reported why it is no date; 0: an export's "not set"
        if isinstance(value, date) and not isinstance(value, datetime):
            return datetime.combine(value, time(), tzinfo=UTC)
        try:
            return parse_timestamp(value, f"'{key}'")
        except (InvalidItemError, ValueError, OverflowError, OSError) as exc:
            if (isinstance(value, (int, float)) and not isinstance(value, bool)) or "RFC 2822" in str(exc):
                # epoch milliseconds, or an RFC 2822 time's unknown zone or wrong weekday, say so
                warnings.append(f"{exc}; ignored")
                continue
            # what to write instead: "November 26, 2026" and "11/20/2026" are common in runbooks
            warnings.append(f"'{key}' {_as_written(value)} is not an ISO date; ignored (write it as 2026-11-26 or 2026-11-26T09:15:00Z)")
    return None


def _as_written(value: Any, limit: int = 40) -> str:
    """A frontmatter value as its YAML wrote it, quoted, cut to ``limit`` characters: a
    list or map of dates was said as Python's ``[datetime.date(2026, 1, 1)]``."""
    text = repr(value if isinstance(value, str) else jsonable(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def jsonable(value: Any) -> Any:
    """A JSON-serialisable copy: dates become ISO text; other unserialisable values are dropped."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, str):
        return str(value)  # a plain str, not a subclass such as KeptText
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items() if _keep(v)}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value if _keep(v)]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _keep(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool, list, tuple, dict, date))
