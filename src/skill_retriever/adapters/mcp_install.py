"""The MCP tool ``install_components``: the install plan, and with ``dry_run=false`` the
files written, as the caller may see the index (`mcp_server.build_server` registers it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skill_retriever.adapters.mcp_arguments import Flag, Ids, checked_target, refused_as_tool_errors
from skill_retriever.adapters.mcp_names import named_ids
from skill_retriever.adapters.mcp_search import Detail, caller_view
from skill_retriever.components.install import install
from skill_retriever.components.service import ComponentService

__all__ = ["install_tool", "without_empty_reasons"]


def install_tool(service: ComponentService) -> Callable[..., dict[str, Any]]:
    """The ``install_components`` tool function for `mcp_server.build_server` to register."""

    def install_components(
        ids: Ids,
        target: str,
        dry_run: Flag = True,
        force: Flag = False,
        with_dependencies: Flag = True,
        allow_conflicts: Flag = False,
        detail: Detail = "brief",
    ) -> dict[str, Any]:
        """Install components and what they require into a project: target/.claude (skills,
        agents, commands, hook scripts), target/.claude/settings.json (hooks) and
        target/.mcp.json (MCP servers). A plugin id installs its components.

        A dry run (the default) only returns the plan. Files that differ are kept unless
        force is true, and so is a hook whose command runs a script that neither it ships
        nor the target holds (it would fail, or block, each time it runs); paths that would leave the target are refused; a set holding a
        conflict is refused (ok false, conflicts listed) unless allow_conflicts is true;
        so is, always, one where two components would write one path differently (clashes).
        A file, hook or MCP server entry holding what looks like a credential (a key its
        repository committed) is not written: held_back lists it, why, and the CLI command
        for the user to install it.

        Args:
            ids: Component or plugin ids (or unique names).
            target: The project folder, as an absolute path.
            dry_run: Only plan; write nothing.
            force: Overwrite files that differ; write a hook whose script is missing.
            with_dependencies: Also install what the components require.
            allow_conflicts: Install even when two components conflict.
            detail: "brief" (a line per file) or "full" (every component and file).
        """
        view = caller_view(service)
        resolved = named_ids(view, ids, "ids")  # unknown names: with close names
        target = checked_target(target, may_create=True) or ""  # never None: the argument is required
        with refused_as_tool_errors(target, "write into"):
            plan = install(
                view,
                resolved,
                target,
                force=force,
                dry_run=dry_run,
                with_dependencies=with_dependencies,
                allow_conflicts=allow_conflicts,
                hold_credentials=True,  # an agent: a file holding what looks like a key is the user's to write
            )
        new_folder = {} if not plan.ok or plan.applied or plan.target.exists() else {"new_folder": (
            f"{plan.target} does not exist yet: a real run makes it, in {plan.target.parent}; "
            "if you meant an existing project, check the path"
        )}  # a typo'd project path would otherwise pass for one with nothing installed yet
        if detail == "full":
            return without_empty_reasons(plan.to_dict()) | new_folder
        out: dict[str, Any] = {"target": str(plan.target), "applied": plan.applied, "ok": plan.ok}
        out.update(without_empty_reasons(plan.brief()))  # conflicts and clashes as data, then the summary
        out.update(new_folder)
        if plan.ok and not plan.applied:  # the dry run is the default: say how to write
            out["next"] = "call install_components again with dry_run false to write these files"
        return out


    return install_components


def without_empty_reasons(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with no ``"reason": ""`` in its conflicts: a conflict written without one
    read as if its reason were lost; the key is left out instead."""

    def cleaned(value: Any, in_conflicts: bool = False) -> Any:
        if isinstance(value, dict):
            return {
                k: cleaned(v, k == "conflicts")
                for k, v in value.items()
                if not (in_conflicts and k == "reason" and v == "")
            }
        if isinstance(value, list):
            return [cleaned(v, in_conflicts) for v in value]
        return value

    out: dict[str, Any] = cleaned(answer)
    return out
