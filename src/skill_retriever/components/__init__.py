"""Components for coding agents: dependency closure, conflicts, whole-unit budgets,
near-duplicates, rationales, installation into a ``.claude/`` layout, and the facade
that ties them to retrieval (`ComponentService`)."""

from skill_retriever.components.closure import Closure, dependency_closure
from skill_retriever.components.conflicts import Conflict, find_conflicts
from skill_retriever.components.install import InstallError, InstallPlan, install, plan_install
from skill_retriever.components.service import ComponentResult, ComponentService

__all__ = [
    "Closure",
    "ComponentResult",
    "ComponentService",
    "Conflict",
    "InstallError",
    "InstallPlan",
    "dependency_closure",
    "find_conflicts",
    "install",
    "plan_install",
]
