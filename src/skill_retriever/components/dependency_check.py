"""`dependency_report`: what a chosen set of components requires, cycles and conflicts,
as the install plan of that set would say it (`ComponentService.check_dependencies`).

It agrees with the plan on what the index cannot bring: each component's ``requires``
names that the caller's view has no component of (none has it, or it is one the caller
may not see) are listed under ``missing_requirements`` with the plan's own note
(`missing.unknown_notes`), and a conflict with a component ``target`` holds that the view
does not show is listed as the plan lists it (`unseen`), its other side ``UNSEEN`` and
never named.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skill_retriever.components.closure import dependency_closure
from skill_retriever.components.conflicts import find_conflicts
from skill_retriever.components.install.inventory import match_installed
from skill_retriever.components.install.missing import unknown_notes
from skill_retriever.components.install.not_installable import memberless_plugin
from skill_retriever.components.install.planner import expand_plugins
from skill_retriever.components.install.target import existing_folder
from skill_retriever.components.install.unseen import installed_names, unseen_conflicts
from skill_retriever.components.view import CallerView
from skill_retriever.model import NodeKind

__all__ = ["dependency_report"]


def dependency_report(view: CallerView, ids: Sequence[str], target: str | Path | None) -> dict[str, Any]:
    """The answer of `ComponentService.check_dependencies` (see there).

    A plugin with no installable member in the view (one a marketplace only lists) is
    said under ``not_installable`` (only then present) with the words install skips it
    with; the rest is checked all the same.

    Raises:
        InstallError: ``target`` is not an existing folder.
    """
    missing = [i for i in ids if i not in view]
    wanted, plugins = expand_plugins(view, [i for i in ids if i in view])
    memberless = {i: memberless_plugin(view, view.get(i)) for i in wanted if view.get(i).kind is NodeKind.PLUGIN}
    wanted = [i for i in wanted if i not in memberless]
    closure = dependency_closure(view, wanted)
    root = existing_folder(target) if target is not None else None
    installed = match_installed(view, root) if root is not None else {}
    conflicts = find_conflicts(view, closure.ids, installed)
    if root is not None:
        conflicts += unseen_conflicts(view, closure.ids, root, installed)
    present = installed_names(root) if root is not None else frozenset()
    notes = unknown_notes(view, closure.ids, present)
    out: dict[str, Any] = {
        "selected": list(closure.selected),
        "plugins": {p: list(members) for p, members in plugins.items()},
        "added": [
            {
                "id": i,
                "name": view.name_of(i),
                "kind": view.get(i).kind.value,
                "required_by": list(closure.required_by.get(i, ())),
                "chain": list(closure.chains.get(i, ())),
            }
            for i in closure.added
        ],
        "requires": {i: list(closure.requires.get(i, ())) for i in closure.ids},
        "missing_requirements": {i: [m.to_dict() for m in found] for i, found in notes.items()},
        "cycles": [list(c) for c in closure.cycles],
        "conflicts": [c.to_dict() for c in conflicts],  # an UNSEEN side says ``not_shown``
        "installed": installed,
        "missing": missing,
    }
    if memberless:  # said only when there is one (the answer an agent reads stays short)
        out["not_installable"] = memberless
    return out
