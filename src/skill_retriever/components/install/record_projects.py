"""Which project's ``.mcp.json`` each part of the install record belongs to.

Projects may share one ``.claude`` folder through links (``ln -s /x/shared sa/.claude``,
and ``sb/.claude`` too), and so one install record; but ``.mcp.json`` lies in each
project folder, beside the link, not in ``.claude``. So the record keeps what concerns an
``.mcp.json`` per project (its folder, resolved, as ``mcp_project``): a component's
servers, the user's entries ``force`` replaced there and why an uninstall kept one; and
whether an install created that ``.mcp.json``, and its text before. Loaded for a project,
the record shows that project's parts at the top (what every other module reads), and
carries the other projects' along unchanged (``elsewhere``), written back as they were:
each project's install and uninstall handle its own entries, and a component stays
recorded while any project holds its server. A record written before this (no
``mcp_project``) reads as the project that loads it, the one it was written in; so does
one whose ``mcp_project`` no longer uses this ``.claude`` (the project moved, or was copied
with its ``.claude``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from skill_retriever.components.install.layout import MCP_FILE

__all__ = ["entry_parts", "held_elsewhere", "joined", "project_of", "record_parts", "split"]

_SERVER = f"{MCP_FILE}#"


def project_of(root: Path) -> str:
    """The key of the project folder ``root`` in the record: its resolved path."""
    return str(root.resolve())


def entry_parts(data: Mapping[str, Any]) -> dict[str, Any]:
    """A component entry's parts (as JSON) that lie in one project's ``.mcp.json``."""
    kept = data.get("kept") or {}
    return {
        "mcp_servers": dict(data.get("mcp_servers") or {}),
        "replaced_servers": dict(data.get("replaced_servers") or {}),
        "kept": {k: v for k, v in dict(kept).items() if str(k).startswith(_SERVER)},
    }


def record_parts(data: Mapping[str, Any]) -> dict[str, Any]:
    """The record's parts (as JSON) about one project's ``.mcp.json``: whether an install
    created it, and its text before an install first changed it."""
    return {
        "created": [p for p in data.get("created") or [] if p == MCP_FILE],
        "originals": {k: v for k, v in dict(data.get("originals") or {}).items() if k == MCP_FILE},
    }


def split(
    data: Mapping[str, Any], parts: dict[str, Any], project: str | None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """``project``'s parts of the JSON object ``data`` (``parts``: those at its top level)
    and every other project's, by folder. None reads the top level as the loader's.

    Raises:
        ValueError: ``elsewhere`` is not an object of objects.
    """
    elsewhere = data.get("elsewhere") or {}
    if not isinstance(elsewhere, dict) or not all(isinstance(v, dict) for v in elsewhere.values()):
        raise ValueError("'elsewhere' must map project folders to what their .mcp.json holds")
    others = {str(p): dict(v) for p, v in elsewhere.items()}
    owner = data.get("mcp_project")
    if project is None:
        return parts, others
    if isinstance(owner, str) and owner != project and _shares(owner, project):
        if any(parts.values()):
            others[owner] = parts
        parts = {key: type(value)() for key, value in parts.items()}
    theirs = others.pop(project, None)
    if theirs is not None and not any(parts.values()):  # (a record never holds both)
        parts = {**parts, **theirs}
    return parts, others


def _shares(owner: str, project: str) -> bool:
    """Whether the folder ``owner`` still uses the ``.claude`` that ``project`` uses. A
    project moved (its old folder gone) or copied (its ``.claude`` a folder of its own)
    shares nothing: the record it carries is its own, whatever folder it names."""
    mine, theirs = Path(project) / ".claude", Path(owner) / ".claude"
    try:
        return theirs.is_dir() and theirs.resolve() == mine.resolve()
    except OSError:  # a link loop: no sharing can be read through it
        return False


def joined(parts: Mapping[str, Any], others: Mapping[str, Mapping[str, Any]], project: str | None) -> dict[str, Any]:
    """The keys that say whose the top-level ``parts`` are and hold the other projects'."""
    out: dict[str, Any] = {}
    if project is not None and any(parts.values()):
        out["mcp_project"] = project
    if others:
        out["elsewhere"] = {p: dict(v) for p, v in sorted(others.items())}
    return out


def held_elsewhere(name: str, projects: Iterable[str]) -> str:
    """What an uninstall says of the component ``name`` whose servers all lie in other
    ``projects`` sharing this ``.claude``: nothing of it is here to take back; where to run it."""
    where = ", ".join(f"{p}/{MCP_FILE}" for p in sorted(projects))
    return (
        f"{name}: nothing of it is in this project; its server is in {where}, a project "
        f"sharing this .claude: run `uninstall {name} --target <that project>` to take it back"
    )
