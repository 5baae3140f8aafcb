"""What rendering a component gives: its files, hooks, server entry and notes.

These types sit apart from `render` so that the per-kind renderers (`render_hook`,
`render_mcp`) and the planner share them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skill_retriever.components.install.paths import NO_ROOT_NOTE, source_root_of
from skill_retriever.components.install.plan import HookEntry, InstallError
from skill_retriever.components.install.unshipped_scripts import Unshipped
from skill_retriever.ingest.item_attrs import REDACTED
from skill_retriever.model import Node

__all__ = ["FileOut", "Rendered", "SkipComponent", "rebuilt_note"]


class SkipComponent(InstallError):
    """This install cannot place the component (its status becomes ``skipped``)."""


@dataclass(frozen=True)
class FileOut:
    """One file to write, relative to the root."""

    rel: str
    content: bytes
    mode: int = 0o644


@dataclass
class Rendered:
    """Everything installing one component writes.

    ``complete`` is False when a file it lists could not be read (not on disk, no source
    root): what an earlier install wrote and this rendering lacks may then be one of
    those, so none of it is removed (`retired`)."""

    files: list[FileOut] = field(default_factory=list)
    hooks: list[HookEntry] = field(default_factory=list)
    mcp_entry: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    complete: bool = True
    #: Scripts its hook commands run that it does not ship (`unshipped_scripts`).
    needs: list[Unshipped] = field(default_factory=list)
    #: Keys of a server's source entry that ``.mcp.json`` does not get (`render_mcp`).
    left_out_keys: list[str] = field(default_factory=list)


def rebuilt_note(node: Node) -> str:
    """Why a component's content came from the index instead of its source file, and
    what to fill in: the index keeps ``[redacted]`` where the file quoted a secret."""
    why = NO_ROOT_NOTE if source_root_of(node) is None else "rebuilt from the index"
    if REDACTED in node.text or REDACTED in node.description:
        why += f" (it says {REDACTED} where the source file held a secret: write the value in)"
    return why
