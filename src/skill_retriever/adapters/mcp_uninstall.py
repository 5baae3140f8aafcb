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

Its advice works when followed literally: after a run that kept what the user changed,
``next`` names the ids still recorded (uninstalling a plugin forgets the plugin while a
changed member stays recorded under its own id, so the plugin's id would be refused), and
ids of which some are not installed are refused whole, as the CLI refuses them, the
answer naming those that are as a list to pass.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from skill_retriever.adapters.mcp_arguments import (
    Flag,
    Ids,
    ToolError,
    checked_target,
    refused_as_tool_errors,
)
from skill_retriever.adapters.mcp_search import Detail, caller_view
from skill_retriever.adapters.mcp_uninstall_names import installed_ids
from skill_retriever.components.closure import plugin_members
from skill_retriever.components.install.brought import taken_along
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.picked import pick
from skill_retriever.components.install.still_required import StillRequiredError
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
        install's force replaced is put back. What an installed component that stays
        still requires is refused, nothing removed, unless its ids are passed too or
        force is true.

        Args:
            ids: Component or plugin ids (or unique names), as installed.
            target: The project folder, as an absolute path.
            dry_run: Only say what would be removed; remove nothing.
            force: Also remove what changed since the install, and what a component that stays requires.
            detail: "brief" (a line per file) or "full" (every list of the report).
        """
        view = caller_view(service)
        target = checked_target(target) or ""  # never None: the argument is required
        resolved = installed_ids(view, ids, target)  # unknown names: with close names installed there
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
        try:
            report = _redacted(uninstall_held(root, ids, force, dry_run=dry_run), hidden)
        except StillRequiredError as exc:
            raise ToolError(_still_required(view, exc)) from exc
    # (what goes is all visible, `_check`, so this drops nothing: the ids are said to pass)
    report.left_ids = [i for i in report.left_ids if i in view]
    return report


def _check(view: CallerView, record: InstallRecord, ids: list[str]) -> None:
    """Refuse ids not installed in ``record``'s root (`_not_installed`), and a set whose
    uninstall would take back (as a plugin's member or as brought along) a component the
    caller may not see."""
    held = set(record.components) | set(record.plugins)
    if any(i not in held for i in ids):
        raise ToolError(_not_installed(view, record, ids, held))
    chosen = pick(record, ids).ids
    going = chosen + taken_along(record, chosen)  # (changes only this copy of the record)
    if any(i not in view for i in going):
        raise ToolError(
            "taking these back would also take back what installing them brought that this "
            "server's caller may not see; nothing removed; run `skill-retriever uninstall` as "
            "someone who may see it"
        )


def _still_required(view: CallerView, exc: StillRequiredError) -> str:
    """The refusal of ``exc`` in the tool's words: the ids to pass to take the components
    that require what goes back too, or ``force``; a component the caller may not see is
    not named, and not offered to take back (this tool would refuse it: only force)."""
    def name(i: str) -> str:
        return exc.names[i] if i in view else OTHER

    if any(i not in view for i in exc.dependents):
        said = "; ".join(
            f"{exc.names[i]} is required by {', '.join(dict.fromkeys(name(u) for u in users))}"
            for i, users in exc.required.items()
        )
        return f"{said}, which stays installed; nothing removed: pass force true to remove it anyway"
    together = f"pass ids {_listed(list(dict.fromkeys([*exc.asked, *exc.dependents])))}"
    return exc.advice(together, "pass force true")


def _not_installed(view: CallerView, record: InstallRecord, ids: list[str], held: set[str]) -> str:
    """Why ``ids`` are refused, some not being in ``record`` (the CLI refuses the whole call
    too), and the ids to pass instead: those given that are installed, and what a plugin
    given still has recorded (a partial uninstall forgets the plugin, its kept members
    stay); else what the record lists that the caller may see. Only visible ids are named,
    and a record holding only hidden ones reads as an empty one."""
    missing = [i for i in dict.fromkeys(ids) if i not in held]
    names = ", ".join(repr(view.name_of(i)) for i in missing)
    said = f"{names} not installed in {record.root} by skill-retriever"
    members = plugin_members(view)
    given = [i for i in dict.fromkeys(ids) if i in held]
    of_plugins = {i: [m for m in members(i) or () if m in record.components] for i in missing}
    parts = [f"of the ids given, installed there: {_names(view, given)}"] if given else []
    parts += [f"of plugin {view.name_of(p)!r}, still recorded there: {_names(view, m)}" for p, m in of_plugins.items() if m]
    if parts:
        passable = list(dict.fromkeys(given + [m for ms in of_plugins.values() for m in ms]))
        return f"{said}; nothing removed ({'; '.join(parts)}): pass ids {_listed(passable)} to take those back"
    shown = sorted(i for i in held if i in view)
    if not shown:
        return (
            f"{said}: skill-retriever has installed nothing there that you may see, so there is "
            "nothing to uninstall; pass as target the project folder install_components wrote into"
        )
    listing = ", ".join(shown[:10]) + (f" and {len(shown) - 10} more" if len(shown) > 10 else "")
    return f"{said}; nothing removed; what it installed there: {listing}: pass the ones to take back as ids"


def _names(view: CallerView, ids: list[str]) -> str:
    return ", ".join(view.name_of(i) for i in ids)


def _listed(ids: list[str]) -> str:
    """``ids`` as a JSON list, to copy into the next call's ``ids``."""
    return json.dumps(ids)


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
    """The report's lines (`UninstallReport.item_lines`, as the CLI says them), the ids
    that stay recorded (as the CLI's ``still recorded`` line names them), then the counts
    (a dry run says what it would do)."""
    out = report.item_lines("install's force")
    if report.left_ids:
        said = "would stay recorded" if dry_run else "still recorded (the ids to pass to finish)"
        out.append(f"{said}: {', '.join(report.left_ids)}")
    out.append(f"dry run, nothing changed; would be {report.counts()}" if dry_run else report.counts())
    return out


def next_step(report: UninstallReport, dry_run: bool, force: bool) -> str:
    """What to call next, if anything: the real run after a dry run; after a real run that
    kept something, the ids still recorded (a plugin named is forgotten while a changed
    member stays recorded by its own id: naming the plugin again would be refused), with
    ``force`` for what the user changed."""
    changed = [p for p, why in report.kept.items() if why == CHANGED]
    steps = []
    if report.refused:
        return "fix what refused says, then call uninstall_components again"
    if dry_run and (report.removed or report.restored or report.gone):
        steps.append("call uninstall_components again with dry_run false to take these back")
    if dry_run:  # the record is as it was: the same ids take back what a fix frees
        if changed and not force:
            steps.append(
                f"{', '.join(changed)} changed since the install: undo the change (or delete it) "
                "first to take it back too, or pass force true to remove it as it is"
            )
        return "; ".join(steps)
    if not report.left_ids:
        return ""
    again = f"call uninstall_components again with ids {_listed(report.left_ids)}"
    if changed and not force:
        steps.append(
            f"{', '.join(changed)} changed since the install and stays recorded: undo the change (or "
            f"delete it) and {again} to finish, or pass force true with those ids to remove it as it is"
        )
    else:
        steps.append(f"once what kept says is fixed, {again} to finish")
    return "; ".join(steps)
