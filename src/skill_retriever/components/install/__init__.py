"""Install components, and what they require, into a ``.claude/`` layout; take them back.

Where each kind goes is `layout`; what is read and written is checked by `paths`; the
root to write into is `target`; the plan types are `plan` (a component's, `component_plan`;
its lines for people, `plan_lines`: ``print(plan)`` shows them); `render` makes a component's
files, hooks (`render_hook`) and server entry (`render_mcp`), typed in `rendered`;
`settings` merges ``settings.json`` and ``.mcp.json``; `planner` plans (`install_args`:
the Python arguments checked first; `resolve` and `suggest`: what a name stands for, and
close names when nothing; `file_action`: one file; `claims`: two components writing one
path; `cases`: paths that differ only in case; `claude_names` and `missing`: its notes) and `apply`
writes, keeping what ``force`` replaces of the user's own (`replaced`), the original text
of the shared files and which folders it made (`as_before`), and what each component
brought along (`brought`); `inventory` finds what a root holds and keeps the install
record; `uninstall` takes an install back.

This package is callable as `install` itself (`_InstallPackage`): ``skill_retriever.components``
offers the function ``install``, but once this package is imported, Python binds the
package's name there to this module, so ``from skill_retriever.components import
ComponentService, install`` gave the module; either one now installs.
"""

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from skill_retriever.components.install.inventory import (
    INSTALLABLE,
    InstalledComponent,
    installed_components,
    match_installed,
)
from skill_retriever.components.install.layout import (
    LAYOUT,
    MCP_FILE,
    RECORD_FILE,
    RECORD_IGNORE,
    SETTINGS_FILE,
)
from skill_retriever.components.install.paths import destination_name, safe_destination
from skill_retriever.components.install.plan import (
    Clash,
    ComponentPlan,
    FileAction,
    HookEntry,
    InstallError,
    InstallPlan,
    UnknownComponentError,
    UnsafePathError,
)
from skill_retriever.components.install.settings import MCP_ENTRY_KEYS
from skill_retriever.components.install.still_required import StillRequiredError
from skill_retriever.components.install.uninstall import UninstallReport, uninstall

if TYPE_CHECKING:
    from skill_retriever.components.install.apply import apply_plan, install
    from skill_retriever.components.install.planner import plan_install, resolve_id

#: Loaded on first use (PEP 562): planning reads an index, and these modules import the
#: retrieval stack (NumPy, the snapshot); `uninstall` reads only the install record and
#: starts without them (tests/test_cold_start.py).
_WHERE = {"apply_plan": "apply", "install": "apply", "plan_install": "planner", "resolve_id": "planner"}

__all__ = [
    "INSTALLABLE",
    "LAYOUT",
    "MCP_ENTRY_KEYS",
    "MCP_FILE",
    "RECORD_FILE",
    "RECORD_IGNORE",
    "SETTINGS_FILE",
    "Clash",
    "ComponentPlan",
    "FileAction",
    "HookEntry",
    "InstallError",
    "InstallPlan",
    "InstalledComponent",
    "StillRequiredError",
    "UninstallReport",
    "UnknownComponentError",
    "UnsafePathError",
    "apply_plan",
    "destination_name",
    "install",
    "installed_components",
    "match_installed",
    "plan_install",
    "resolve_id",
    "safe_destination",
    "uninstall",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


class _InstallPackage(ModuleType):
    """This package, which calling runs `install` (see the module's docstring)."""

    def __call__(self, *args: Any, **kwargs: Any) -> InstallPlan:
        from skill_retriever.components.install.apply import install

        return install(*args, **kwargs)


sys.modules[__name__].__class__ = _InstallPackage
