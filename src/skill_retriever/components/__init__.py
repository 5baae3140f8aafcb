"""Components for coding agents: dependency closure, conflicts, whole-unit budgets,
near-duplicates, rationales, installation into a ``.claude/`` layout (and back out), and
the facade that ties them to retrieval (`ComponentService`). Everything reads the index
through a `CallerView`: one snapshot, as one caller may see it."""

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
