"""Paths that several components of one install would write.

A file, or an ``.mcp.json`` server, has one writer per install (hooks merge into
``settings.json`` and are never claimed). When several components of a plan render one
path:

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
    return "install" if kinds & set(_WRITES) else "unchanged"


def _same(a: FileAction, b: FileAction) -> bool:
    if a.mcp_entry is not None or b.mcp_entry is not None:
        return a.mcp_entry == b.mcp_entry
    return a.content == b.content and a.mode == b.mode


def settle_claims(
    plans: Sequence[ComponentPlan],
) -> tuple[list[ComponentPlan], tuple[Clash, ...]]:
    """``plans`` with each path claimed twice settled (see the module), and the clashes."""
    claims: dict[str, dict[int, int]] = {}  # path -> component index -> its file's index
    for ci, c in enumerate(plans):
        for fi, f in enumerate(c.files):
            if f.hook is None and f.action != "refused":  # a refused path is no one's
                claims.setdefault(f.path, {}).setdefault(ci, fi)
    files = [list(c.files) for c in plans]
    clashes: list[Clash] = []
    for path, by in claims.items():
        if len(by) < 2:
            continue
        (c0, f0), *later = by.items()
        first = plans[c0]
        differ = [(ci, fi) for ci, fi in later if not _same(first.files[f0], plans[ci].files[fi])]
        for ci, fi in differ:
            clashes.append(Clash(path, first.id, plans[ci].id))
            why = f"{first.id} {SAME_PATH}, with different content"
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
        for ci, fi in by.items():
            if ci != writer and files[ci][fi].action in _WRITES:
                why = f"the same as the copy of {plans[writer].id}, written once"
                files[ci][fi] = replace(files[ci][fi], action="unchanged", reason=why)
    settled = [
        c if c.files == tuple(fs) else replace(c, files=tuple(fs), status=status_of(fs))
        for c, fs in zip(plans, files, strict=True)
    ]
    return settled, tuple(clashes)
