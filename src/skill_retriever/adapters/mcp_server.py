"""``skill-retriever mcp``: component search, dependency checks and installs over MCP (stdio).

Built with the official ``mcp`` SDK (``MCPServer``; ``FastMCP`` on mcp 1.x). Tools:

- ``search_components(query, kinds, k, budget, target, drop_conflicts)``: ranked
  components with scores, a readable reason each, their dependencies, conflicts and
  other sources of the same component.
- ``get_component(id)``: one component in full, with what it requires, what requires it,
  its conflicts and its duplicates.
- ``check_dependencies(ids, target)``: the closure of a chosen set, cycles, conflicts.
- ``install_components(ids, target, dry_run=True, force=False)``: the install plan, and
  with ``dry_run=false`` the files written into ``target``'s ``.claude/`` layout.

Resource ``skill-retriever://status``: the index's status as JSON.

Register it with a coding agent, e.g. Claude Code::

    claude mcp add skill-retriever -- skill-retriever mcp --index-dir /path/to/index

Only the protocol goes to stdout; logs go to stderr.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any

from skill_retriever.components.dedup import duplicates_of
from skill_retriever.components.install import install, resolve_id
from skill_retriever.components.service import ComponentService
from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.filters import Filters
from skill_retriever.model import EdgeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # pragma: no cover - mcp 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[no-redef,attr-defined]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef]

__all__ = ["STATUS_URI", "build_server", "serve"]

STATUS_URI = "skill-retriever://status"
INSTRUCTIONS = (
    "Finds the skills, agents, slash commands, hooks and MCP servers a coding task needs, "
    "with everything they depend on and any conflicts. Call search_components with the task; "
    "check_dependencies before installing a hand-picked set; install_components writes them "
    "into a project's .claude/ folder (dry run unless dry_run is false)."
)


def build_server(
    index: Index, *, retriever: Retriever | None = None, principals: Sequence[str] | None = ("*",)
) -> Any:
    """An MCP server over ``index`` (not started; call ``.run("stdio")``)."""
    service = ComponentService(index, retriever, principals=principals)
    visible = index.allowed(
        Filters(principals=frozenset(principals) if principals is not None else None)
    )
    app = MCPServer("skill-retriever", instructions=INSTRUCTIONS)

    def known(ref: str) -> str:
        node_id = resolve_id(index, ref)
        if visible is not None and not visible(node_id):
            raise ToolError(f"no component {ref!r} in the index")
        return node_id

    @app.tool()
    def search_components(
        query: str,
        kinds: list[str] | None = None,
        k: int = 5,
        budget: int | None = None,
        target: str | None = None,
        drop_conflicts: bool = False,
    ) -> dict[str, Any]:
        """Find the components a coding task needs, best first, with their dependencies.

        Args:
            query: The task in plain words, e.g. "scaffold a FastAPI service with tracing".
            kinds: Any of skill, agent, command, hook, mcp_server (default: all).
            k: How many matching components (their dependencies come on top).
            budget: Token budget for all returned components; dependency sets are kept whole.
            target: A project folder; conflicts with components installed there are reported.
            drop_conflicts: Drop the lower-ranked side of each conflict.
        """
        try:
            return service.search(
                query, kinds, k, budget, target=target, drop_conflicts=drop_conflicts
            ).to_dict()
        except SkillRetrieverError as exc:
            raise ToolError(str(exc)) from exc

    @app.tool()
    def get_component(id: str) -> dict[str, Any]:
        """One component in full: text, metadata, requirements, dependants, conflicts, duplicates.

        Args:
            id: A component id from search_components (or a unique component name).
        """
        try:
            node_id = known(id)
        except SkillRetrieverError as exc:
            raise ToolError(str(exc)) from exc
        node = index.get(node_id)
        out = node.to_dict()
        graph = index.graph

        def seen(ids: list[str]) -> list[str]:
            return [i for i in ids if visible is None or visible(i)]

        out["requires"] = seen([e.target for e in graph.out_edges(node_id, EdgeKind.DEPENDS_ON)])
        out["required_by"] = seen([e.source for e in graph.in_edges(node_id, EdgeKind.DEPENDS_ON)])
        conflicts = graph.out_edges(node_id, EdgeKind.CONFLICTS_WITH) + graph.in_edges(
            node_id, EdgeKind.CONFLICTS_WITH
        )
        out["conflicts"] = [
            {
                "id": e.target if e.source == node_id else e.source,
                "reason": e.description,
                "declared_by": e.source,
            }
            for e in conflicts
            if visible is None or visible(e.target if e.source == node_id else e.source)
        ]
        out["also_at"] = list(duplicates_of(index, node_id, allowed=visible))
        return out

    @app.tool()
    def check_dependencies(ids: list[str], target: str | None = None) -> dict[str, Any]:
        """What a chosen set of components requires (transitively), cycles and conflicts.

        Args:
            ids: Component ids (or unique names).
            target: A project folder; conflicts with components installed there are reported.
        """
        try:
            resolved = [known(i) for i in ids]
            return service.check_dependencies(resolved, target=target)
        except SkillRetrieverError as exc:
            raise ToolError(str(exc)) from exc

    @app.tool()
    def install_components(
        ids: list[str],
        target: str,
        dry_run: bool = True,
        force: bool = False,
        with_dependencies: bool = True,
    ) -> dict[str, Any]:
        """Install components and what they require into target/.claude (and target/.mcp.json).

        A dry run (the default) only returns the plan. Existing files that differ are kept
        unless force is true; paths that would leave the target are refused.

        Args:
            ids: Component ids (or unique names).
            target: The project folder (absolute path recommended).
            dry_run: Only plan; write nothing.
            force: Overwrite files that differ.
            with_dependencies: Also install what the components require.
        """
        try:
            resolved = [known(i) for i in ids]
            plan = install(
                index,
                resolved,
                target,
                force=force,
                dry_run=dry_run,
                with_dependencies=with_dependencies,
            )
        except (SkillRetrieverError, OSError) as exc:
            raise ToolError(str(exc)) from exc
        out = plan.to_dict()
        out["summary"] = plan.lines()
        return out

    @app.resource(STATUS_URI, name="index-status", mime_type="application/json")
    def status() -> str:
        """What the index holds: counts by kind, embedder, version."""
        return json.dumps(index.status(), indent=2)

    return app


def serve(
    index_dir: str, *, chroma_url: str | None = None, principals: Sequence[str] | None = ("*",)
) -> None:
    """Open the index and serve it over stdio until the client closes the connection."""
    index = Index.open(index_dir, chroma_url=chroma_url, create=False)
    # Load the embedding model while the client connects; the first search waits for it.
    threading.Thread(target=lambda: index.embedder.dim, name="warm-embedder", daemon=True).start()
    try:
        build_server(index, principals=principals).run("stdio")
    finally:
        index.close()
