"""Paths that several components of one install would write.

A file, or an ``.mcp.json`` server, has one writer per install (hooks merge into
``settings.json`` and are never claimed). Files whose paths differ only in case are one
path here (`cases.path_key`), as they are one file on macOS and Windows. When several
components of a plan render one path:

- with the same bytes and mode (a server: the same entry), it is no clash: copies of one
  component, as plugins re-host them (`components.dedup`), are written once, by the
  first of them that installs; the others say ``unchanged`` and whose copy it is;
- otherwise it is a `Clash` with the first claimer, each later claimer's file is blocked
  (`SAME_PATH`), and the plan is refused whole (`InstallPlan.clashes`): writing the one
  and not the other would leave the target half-installed, and no ``force`` settles it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from skill_retriever.components.install.cases import path_key
from skill_retriever.components.install.plan import (
    SAME_PATH,
    Clash,
    ComponentPlan,
    FileAction,
    Status,
)

__all__ = ["settle_claims", "status_of"]

_WRITES = ("create", "overwrite")


def status_of(actions: Sequence[FileAction]) -> Status:
    """A component's status from its files' actions."""
    kinds = {a.action for a in actions}
    if "refused" in kinds:
        return "refused"
    if "blocked" in kinds:
        return "blocked"
    return "install" if kinds & {*_WRITES, "remove"} else "unchanged"


def _same(a: FileAction, b: FileAction) -> bool:
    if a.mcp_entry is not None or b.mcp_entry is not None:
        return a.mcp_entry == b.mcp_entry
    return a.content == b.content and a.mode == b.mode


def _clash_why(first: str, path: str, other: str) -> str:
    """Why ``other`` is blocked: ``first`` writes ``path``, one file with it."""
    if other == path:
        return f"{first} {SAME_PATH}, with different content"
    return (
        f"{first} {SAME_PATH} as {path} (on macOS and Windows, where names that differ only "
        "in case are one file), with different content"
    )


def settle_claims(
    plans: Sequence[ComponentPlan],
) -> tuple[list[ComponentPlan], tuple[Clash, ...]]:
    """``plans`` with each path claimed twice settled (see the module), and the clashes."""
    claims: dict[str, dict[int, int]] = {}  # path key -> component index -> its file's index
    for ci, c in enumerate(plans):
        for fi, f in enumerate(c.files):
            if f.hook is None and f.action != "refused":  # a refused path is no one's
                claims.setdefault(path_key(f), {}).setdefault(ci, fi)
    files = [list(c.files) for c in plans]
    clashes: list[Clash] = []
    for by in claims.values():
        if len(by) < 2:
            continue
        (c0, f0), *later = by.items()
        first = plans[c0]
        path = first.files[f0].path
        differ = [(ci, fi) for ci, fi in later if not _same(first.files[f0], plans[ci].files[fi])]
        for ci, fi in differ:
            other = plans[ci].files[fi].path
            clashes.append(Clash(path, first.id, plans[ci].id, "" if other == path else other))
            why = _clash_why(first.id, path, other)
            files[ci][fi] = replace(files[ci][fi], action="blocked", reason=why)
        writer = next(
            (
                ci
                for ci, fi in by.items()
                if plans[ci].status == "install" and plans[ci].files[fi].action in _WRITES
            ),
            None,
        )
        if differ or writer is None:
            continue
        written = plans[writer].files[by[writer]].path
        for ci, fi in by.items():
            if ci != writer and files[ci][fi].action in _WRITES:
                spelled = f" as {written}" if written != files[ci][fi].path else ""
                why = f"the same as the copy of {plans[writer].id}, written once{spelled}"
                files[ci][fi] = replace(files[ci][fi], action="unchanged", reason=why)
    settled = [
        c if c.files == tuple(fs) else replace(c, files=tuple(fs), status=status_of(fs))
        for c, fs in zip(plans, files, strict=True)
    ]
    return settled, tuple(clashes)
