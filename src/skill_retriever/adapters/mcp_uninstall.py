"""The MCP tool ``uninstall_components``: take back what ``install_components`` wrote, as
the caller may see it (`mcp_server.build_server` registers it).

It is `components.install.uninstall` with ``install_components``' conventions: ids
resolved in the caller's view (a private id is "no component", like one that does not
exist), an existing absolute ``target``, a dry run unless ``dry_run`` is false, files the
user changed since kept unless ``force``.

Uninstall works from the target's install record, which an install by anyone wrote, and
takes back with the named components what installing them brought (`brought`) and a
plugin's members. So the record is read first, under the target's install lock: a call
that would take back a component the caller may not see is refused and nothing is removed
(the CLI, run by someone who may see it, takes it back); the answer names no such
component, and a note naming one that stays (one that installed a file too, or still
requires what goes) leaves its name out. The lock is held from that check through the
removal, so no install in between can slip a hidden component into what goes.

The dry run is uninstall's own (`uninstall_dry_run`: the real uninstall, of a copy), so
it says exactly what the real one would, and the target is only read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skill_retriever.adapters.mcp_arguments import (
    Flag,
    Ids,
    ToolError,
    checked_target,
    refused_as_tool_errors,
    resolved_ids,
)
from skill_retriever.adapters.mcp_search import Detail, caller_view
from skill_retriever.components.install.brought import taken_along
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.picked import pick
from skill_retriever.components.install.target import install_root
from skill_retriever.components.install.target_lock import holding
from skill_retriever.components.install.uninstall import uninstall_held
from skill_retriever.components.install.uninstall_report import (
    CHANGED,
    UninstallReport,
)
from skill_retriever.components.service import ComponentService
from skill_retriever.components.view import CallerView

__all__ = ["take_back", "uninstall_tool"]

#: Said of a component that stays whose name the caller may not see.
OTHER = "another installed component"


def uninstall_tool(service: ComponentService) -> Callable[..., dict[str, Any]]:
    """The ``uninstall_components`` tool function for `mcp_server.build_server` to register."""

    def uninstall_components(
        ids: Ids,
        target: str,
        dry_run: Flag = True,
        force: Flag = False,
        detail: Detail = "brief",
    ) -> dict[str, Any]:
        """Take back what install_components wrote into a project: the files, the
        target/.claude/settings.json hooks and the target/.mcp.json servers of these
        components, and what installing them brought along; a plugin id takes its components.

        A dry run (the default) only says what would be removed. A file or server changed
        since it was installed is kept (and stays recorded) unless force is true; what
        install's force replaced is put back.

        Args:
            ids: Component or plugin ids (or unique names), as installed.
            target: The project folder, as an absolute path.
            dry_run: Only say what would be removed; remove nothing.
            force: Remove files and servers changed since the install too.
            detail: "brief" (a line per file) or "full" (every list of the report).
        """
        view = caller_view(service)
        resolved = resolved_ids(view, ids, "ids")
        target = checked_target(target) or ""  # never None: the argument is required
        with refused_as_tool_errors(target, "change"):
            report = take_back(view, resolved, target, dry_run=dry_run, force=force)
        if detail == "full":
            return {**report.to_dict(), "applied": not dry_run}
        return {
            "target": str(report.target),
            "applied": not dry_run,
            "ok": report.ok,
            "summary": summary(report, dry_run),
            **({"next": nxt} if (nxt := next_step(report, dry_run, force)) else {}),
        }

    return uninstall_components


def take_back(view: CallerView, ids: list[str], target: str, *, dry_run: bool, force: bool) -> UninstallReport:
    """Uninstall ``ids`` (visible node ids) from ``target`` (with ``dry_run``, from a copy:
    `uninstall_dry_run`), refused when it would take back a component ``view``'s caller may
    not see.

    Raises:
        ToolError: An id is not installed there, or what goes holds a hidden component.
        InstallError: As `uninstall` raises it (nothing is removed then).
    """
    root, _ = install_root(target, False, None, must_exist=True)
    with holding(root):  # the check and the removal (or the dry run) as one step
        record = InstallRecord.load(root)
        _check(view, record, ids)
        hidden = {e.name for i, e in record.components.items() if i not in view}
        return _redacted(uninstall_held(root, ids, force, dry_run=dry_run), hidden)


def _check(view: CallerView, record: InstallRecord, ids: list[str]) -> None:
    """Refuse ids not installed in ``record``'s root, and a set whose uninstall would take
    back (as a plugin's member or as brought along) a component the caller may not see."""
    held = set(record.components) | set(record.plugins)
    if missing := [i for i in ids if i not in held]:
        shown = sorted(i for i in held if i in view)
        listing = ", ".join(shown[:10]) + (f" and {len(shown) - 10} more" if len(shown) > 10 else "")
        raise ToolError(
            f"{', '.join(repr(view.name_of(i)) for i in missing)} not installed in {record.root} by "
            f"skill-retriever; its record lists {listing or 'nothing you may see'}: pass one of those as ids"
        )
    chosen = pick(record, ids).ids
    going = chosen + taken_along(record, chosen)  # (changes only this copy of the record)
    if any(i not in view for i in going):
        raise ToolError(
            "taking these back would also take back what installing them brought that this "
            "server's caller may not see; nothing removed; run `skill-retriever uninstall` as "
            "someone who may see it"
        )


def _redacted(report: UninstallReport, hidden: set[str]) -> UninstallReport:
    """``report`` without the names, in notes of what stays, of components the caller may not see."""
    report.shared = {p: OTHER if name in hidden else name for p, name in report.shared.items()}
    report.stayed = {name: why for name, why in report.stayed.items() if name not in hidden}
    needed = {name: [u if u not in hidden else OTHER for u in users] for name, users in report.needed.items()}
    report.needed = {name: list(dict.fromkeys(users)) for name, users in needed.items()}
    # (the tool resolves names to ids first, so a name's note is rare here: one that could
    # name a hidden component is left out whole)
    report.notes = [n for n in report.notes if not any(name in n for name in hidden)]
    return report


def summary(report: UninstallReport, dry_run: bool) -> list[str]:
    """The report's lines (`UninstallReport.item_lines`, as the CLI says them), then the
    counts (a dry run says what it would do)."""
    out = report.item_lines("install's force")
    out.append(f"dry run, nothing changed; would be {report.counts()}" if dry_run else report.counts())
    return out


def next_step(report: UninstallReport, dry_run: bool, force: bool) -> str:
    """What to call next, if anything: the real run after a dry run, ``force`` for what
    the user changed (said whether or not this was a dry run)."""
    changed = [p for p, why in report.kept.items() if why == CHANGED]
    steps = []
    if report.refused:
        return "fix what refused says, then call uninstall_components again"
    if dry_run and (report.removed or report.restored or report.gone):
        steps.append("call uninstall_components again with dry_run false to take these back")
    if changed and not force:
        steps.append(
            f"{', '.join(changed)} changed since the install: undo the change (or delete it) and "
            "call uninstall_components again to finish, or pass force true to remove it as it is"
        )
    return "; ".join(steps)
