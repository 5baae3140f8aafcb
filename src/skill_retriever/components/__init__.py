"""Components for coding agents: dependency closure, conflicts, whole-unit budgets,
near-duplicates, rationales, installation into a ``.claude/`` layout (and back out), and
the facade that ties them to retrieval (`ComponentService`). Everything reads the index
through a `CallerView`: one snapshot, as one caller may see it.

The names load on first use (PEP 562), so ``skill-retriever --help`` does not import the
retrieval stack through this package.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skill_retriever.components.closure import Closure, dependency_closure
    from skill_retriever.components.conflicts import Conflict, find_conflicts
    from skill_retriever.components.install import (
        InstallError,
        InstallPlan,
        install,
        plan_install,
        uninstall,
    )
    from skill_retriever.components.results import ComponentResponse, ComponentResult
    from skill_retriever.components.service import ComponentService
    from skill_retriever.components.view import CallerView

_WHERE = {
    "CallerView": "view",
    "Closure": "closure",
    "ComponentResponse": "results",
    "ComponentResult": "results",
    "ComponentService": "service",
    "Conflict": "conflicts",
    "InstallError": "install",
    "InstallPlan": "install",
    "dependency_closure": "closure",
    "find_conflicts": "conflicts",
    "install": "install",
    "plan_install": "install",
    "uninstall": "install",
}

__all__ = [
    "CallerView",
    "Closure",
    "ComponentResponse",
    "ComponentResult",
    "ComponentService",
    "Conflict",
    "InstallError",
    "InstallPlan",
    "dependency_closure",
    "find_conflicts",
    "install",
    "plan_install",
    "uninstall",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'skill_retriever.components' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"skill_retriever.components.{_WHERE[name]}"), name)
    globals()[name] = value
    # Importing the ``install`` subpackage (service does) binds its name here to it, over
    # the function this package offers: put the function back (a subpackage imported
    # before this is callable as the function too, ``components.install._InstallPackage``).
    if isinstance(found := globals().get("install"), ModuleType):
        globals()["install"] = found.install
    return value
