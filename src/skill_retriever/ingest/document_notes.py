"""The note on a folder read as documents without being told to (`documents.or_documents`).

It says what the skills read found there: no component file at all, or component files
it skipped (a SKILL.md of frontmatter alone holds nothing to index), with the first
of them and why. The note said "no SKILL.md ... file found" when five empty ones were.
"""

from __future__ import annotations

from pathlib import Path

from skill_retriever.ingest.result import Problem

__all__ = ["READ_AS_DOCUMENTS", "READ_AS_PREFIX", "read_as_note"]

#: How every note on a folder read as documents without being told to begins.
READ_AS_PREFIX = "read as documents: "
#: The note on a folder read as documents without being told to, no component file found.
READ_AS_DOCUMENTS = (
    f"{READ_AS_PREFIX}no SKILL.md, agent, command, hook or MCP file found "
    "(--kind docs says so explicitly)"
)


def read_as_note(base: Path, skipped: list[Problem]) -> str:
    """The note on the folder ``base`` read as documents, ``skipped`` the component files
    the skills read found there and skipped."""
    if not skipped:
        return READ_AS_DOCUMENTS
    first = Path(skipped[0].path)
    named = first.relative_to(base).as_posix() if first.is_relative_to(base) else str(first)
    more = f" and {len(skipped) - 1} more" if len(skipped) > 1 else ""
    reasons = "; ".join(dict.fromkeys(p.message for p in skipped))
    return (
        f"{READ_AS_PREFIX}the {len(skipped)} SKILL.md, agent, command, hook or MCP file(s) found "
        f"({named}{more}) were all skipped as skills ({reasons}), so nothing was read as a skills "
        "repository (--kind docs says so explicitly)"
    )
