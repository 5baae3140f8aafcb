"""``skill-retriever mcp``: search, dependency checks and installs over MCP (stdio).

Built with the official ``mcp`` SDK (``MCPServer``; ``FastMCP`` on mcp 1.x). Tools:

- ``search(query, kinds, k, budget, detail)``: everything the index holds (documents,
  incidents, deploys, services, tools, passages, components), best first, each with a
  one-line reason and, for an item read from a file, its source path (`mcp_search`).
- ``search_components(query, kinds, k, budget, target, drop_conflicts, detail)``: ranked
  components, each with a one-line reason, what it requires and what it conflicts with.
- ``get_component(id, detail)``: one item's text and source (any kind ``search`` finds),
  the skill it is part of, what it requires and requires it, its conflicts and duplicates.
- ``check_dependencies(ids, target)``: the closure of a chosen set, cycles, conflicts.
- ``install_components(ids, target, dry_run=True, force, with_dependencies,
  allow_conflicts, detail)``: the install plan, and with ``dry_run=false`` the files
  written into ``target`` (``.claude/``, ``.claude/settings.json`` hooks, ``.mcp.json``);
  a set holding a conflict is refused unless ``allow_conflicts`` is true (`mcp_install`).
- ``uninstall_components(ids, target, dry_run=True, force, detail)``: what taking back
  those installs would remove, and with ``dry_run=false`` removes it; files changed
  since are kept unless ``force`` is true (`mcp_uninstall`).
- Resource ``skill-retriever://status``: counts of what this server's caller may see, and
  the index's Chroma server: its address, whether it answers, since when not (`mcp_status`).

Every call pins one snapshot and reads it through one `CallerView` with the server's
principals: a concurrent write cannot make a call fail half way, and an item the caller
may not see is never named, counted or written. ``detail="brief"`` (the default) keeps a
search result to about 150 tokens; ``"full"`` gives every field. Bad arguments: `_Server`;
each argument's help in its schema and each tool's hints (read-only, destructive): `mcp_schemas`.

Register it with a coding agent (only the protocol goes to stdout; logs go to stderr), e.g. Claude Code::

    claude mcp add skill-retriever -- skill-retriever mcp --index-dir /path/to/index
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from skill_retriever import __version__
from skill_retriever.adapters.mcp_arguments import (
    Budget,
    Count,
    Flag,
    Ids,
    Kinds,
    ToolError,
    WholeNumber,
    argument_error,
    checked_ref,
    checked_target,
    whole_number,
)
from skill_retriever.adapters.mcp_bad_lines import serve_stdio
from skill_retriever.adapters.mcp_install import install_tool, without_empty_reasons
from skill_retriever.adapters.mcp_names import named_ids, unknown_names_said
from skill_retriever.adapters.mcp_schemas import ANNOTATIONS, described
from skill_retriever.adapters.mcp_search import (
    Detail,
    caller_view,
    checked_counts,
    item_id,
    nothing_fits_note,
    search_tool,
)
from skill_retriever.adapters.mcp_status import ServerWatch
from skill_retriever.adapters.mcp_uninstall import uninstall_tool
from skill_retriever.adapters.mcp_warm_up import warm_up, warming
from skill_retriever.adapters.tool_default_k import configured_k
from skill_retriever.adapters.visible_attrs import visible_attrs
from skill_retriever.algorithms.budget import token_counter
from skill_retriever.components.dedup import duplicates_of
from skill_retriever.components.install import UnknownComponentError
from skill_retriever.components.owning_skill import part_of
from skill_retriever.components.requires_not_shown import requires_not_shown
from skill_retriever.components.service import ComponentService, component_kinds
from skill_retriever.config import close_name
from skill_retriever.exceptions import QueryTooLongError, SkillRetrieverError
from skill_retriever.filters import kinds_named
from skill_retriever.item_location import read_from
from skill_retriever.model import EdgeKind
from skill_retriever.retriever import Retriever
from skill_retriever.shown_value import shown
from skill_retriever.stores.index import Index

try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer
except ImportError:  # pragma: no cover - mcp 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[no-redef,attr-defined]

__all__ = ["STATUS_URI", "WholeNumber", "build_server", "checked_target", "serve", "warm_up", "whole_number"]

STATUS_URI = "skill-retriever://status"
INSTRUCTIONS = (
    "Finds the skills, agents, slash commands, hooks and MCP servers a coding task needs, "
    "with everything they depend on and any conflicts. Call search_components with the task; "
    "for a plugin (a bundle of components, installed whole by its id) call search with kinds "
    "plugin; check_dependencies before installing a hand-picked set; install_components writes them "
    "into a project's .claude/ folder, settings.json hooks and .mcp.json (a dry run unless "
    "dry_run is false; a set with conflicts is refused unless allow_conflicts is true); "
    "uninstall_components takes back what it wrote (a dry run unless dry_run is false). "
    "Call search for anything else the index holds (runbooks, documents, incidents, deploys, "
    "services, tools) and get_component with a result's id to read it whole."
)
#: A brief get_component answer shows this much of the text.
BRIEF_TEXT_CHARS = 4000


class _Server(MCPServer):
    """The SDK's server, stricter about arguments: a name the tool does not take (``top_k``,
    ``kind``) is refused, not dropped (the agent would think it had filtered), and a
    wrong type or a missing argument is said in one line. The schemas say the same
    (``additionalProperties: false``)."""

    takes: dict[str, inspect.Signature]  #: tool name -> its function's signature (`build_server`)

    async def run_stdio_async(self) -> None:
        """The SDK's stdio serving, with a reply to each line it cannot read (the SDK
        drops those, and the client waits for good: `mcp_bad_lines`)."""
        lowlevel = getattr(self, "_lowlevel_server", None)
        if lowlevel is None:  # pragma: no cover - mcp 1.x: served as its SDK serves it
            return await super().run_stdio_async()
        await serve_stdio(lowlevel)

    async def list_tools(self) -> list[Any]:
        tools = await super().list_tools()
        key = "input_schema" if tools and hasattr(tools[0], "input_schema") else "inputSchema"  # mcp 2 / mcp 1
        out = []
        for t in tools:
            # the SDK sends a docstring as written: its Args lines indented by 8 spaces
            description = inspect.cleandoc(t.description or "")
            schema = described(getattr(t, key), description) | {"additionalProperties": False}
            out.append(t.model_copy(update={key: schema, "description": description}))
        return out

    async def call_tool(self, name: str, arguments: dict[str, Any], *rest: Any) -> Any:
        if (sig := self.takes.get(name)) is None:  # the SDK's refusal quoted a 1 MB name whole, naming no tool
            meant = close_name(name[:100], self.takes)  # cut: difflib's work grows with the length
            raise ToolError(f"Unknown tool: {shown(name)}{meant}; this server's tools are {', '.join(self.takes)}")
        takes = ", ".join(n + " (required)" * (a.default is a.empty) for n, a in sig.parameters.items())
        takes = f"{name} takes {takes}"
        if unknown := sorted(set(arguments) - set(sig.parameters)):
            said = f"unknown argument(s) {', '.join(map(shown, unknown))}; {takes}"
            raise ToolError(f"Error executing tool {name}: {said}")
        try:
            return await super().call_tool(name, arguments, *rest)
        except ToolError as exc:
            if not isinstance(exc.__cause__, ValidationError):
                raise
            said = argument_error(exc.__cause__, takes)
            raise ToolError(f"Error executing tool {name}: {said}") from exc.__cause__


def build_server(
    index: Index, *, retriever: Retriever | None = None, principals: Sequence[str] | None = ("*",)
) -> Any:
    """An MCP server over ``index`` for a caller holding ``principals`` (not started; call
    ``.run("stdio")``)."""
    service = ComponentService(index, retriever, principals=principals)
    count = token_counter(service.retriever.config.encoding)
    # the version a client shows beside the server (Claude Code's /mcp); mcp 1.x took none
    takes_version = "version" in inspect.signature(MCPServer.__init__).parameters
    version: dict[str, Any] = {"version": __version__} if takes_version else {}
    app = _Server("skill-retriever", instructions=INSTRUCTIONS, **version)

    @app.tool(annotations=ANNOTATIONS["search_components"])
    @configured_k(service.retriever.config)  # a k the server's retriever sets, else 5
    def search_components(
        query: str,
        kinds: Kinds | None = None,
        k: Count = 5,
        budget: Budget | None = None,
        target: str | None = None,
        drop_conflicts: Flag = False,
        detail: Detail = "brief",
    ) -> dict[str, Any]:
        """Find the components a coding task needs, best first, with their dependencies.

        Args:
            query: The task in plain words, e.g. "scaffold a FastAPI service with tracing".
            kinds: Any of skill, agent, command, hook, mcp_server (default: all); one
                kind may be given alone. For plugins call search with kinds plugin.
            k: How many matching components, 1 to 50 (their dependencies come on top).
            budget: Token budget for all returned components; dependency sets are kept whole.
            target: A project folder (absolute path); conflicts with components installed there are reported.
            drop_conflicts: Drop the losing side of each conflict (one installed in target wins, else the lower-ranked loses).
            detail: "brief" (about 150 tokens a component) or "full" (every field).
        """
        checked_counts(k, budget)  # in the search tool's words, not the budget packer's
        view = caller_view(service)
        target = checked_target(target)
        try:
            resp = service.search(
                query, kinds, k, budget, target=target, drop_conflicts=drop_conflicts, view=view
            )
        except QueryTooLongError as exc:  # the limit is the server's: the model can only shorten
            raise ToolError(exc.to_agent) from exc
        except SkillRetrieverError as exc:
            raise ToolError(str(exc)) from exc
        # an agent cannot run `stats`: a kind the index lacks is answered with the component
        # kinds the caller may ask this tool for, as `search` names its kinds
        # (the nodes are read only for such a warning: not on every call of the tool)
        askable = set(component_kinds(None))
        resp = replace(resp, warnings=[
            kinds_named(w, view.filters, (n for n in view.snapshot.nodes.values() if n.kind.value in askable))
            for w in resp.warnings
        ])
        if detail == "full":
            return without_empty_reasons(resp.to_dict())
        out = without_empty_reasons(resp.brief(count))
        if resp.nothing_fits:  # named, as search names them: "these" named none
            closest = nothing_fits_note(
                resp.warnings, [(r.name, r.kind, r.id) for r in resp.results[:3]], view, component_kinds(kinds)
            )
            out["note"] = f"{closest}; nothing they need was added"
        return out

    search = app.tool(annotations=ANNOTATIONS["search"])(search_tool(service, count))  # any kind: `mcp_search`

    @app.tool(annotations=ANNOTATIONS["get_component"])
    def get_component(id: str, detail: Detail = "brief") -> dict[str, Any]:
        """One item (a component, or a document or anything else search finds): its text,
        its source file, the skill it is part of, what it requires, what requires it, conflicts, copies.

        Args:
            id: An id from search or search_components (or a unique name).
            detail: "brief" (the text cut at 4,000 characters) or "full" (all of it,
                with tags, dates and attributes).
        """
        checked_ref(id, "id")
        view = caller_view(service)
        try:
            node_id = item_id(view, id)
        except UnknownComponentError as exc:
            raise ToolError(unknown_names_said(exc, "id")) from exc  # with close names, as install
        node = view.get(node_id)

        def named(ids: list[str]) -> list[dict[str, str]]:
            return [{"id": i, "name": view.name_of(i)} for i in dict.fromkeys(ids)]

        text = node.text
        out: dict[str, Any] = {"id": node.id, "kind": node.kind.value, "name": node.name, "description": node.description}
        out["part_of"] = part_of(view, node_id)  # the skill whose folder holds it, as search says
        if node.source:  # where it was read from: a document (or its section) is opened there
            out.update(read_from(node))
        if detail == "brief" and len(text) > BRIEF_TEXT_CHARS:
            out["text"] = text[:BRIEF_TEXT_CHARS]
            out["text_cut"] = (
                f"first {BRIEF_TEXT_CHARS} of {len(text)} characters; detail='full' gives all"
            )
        else:
            out["text"] = text
        out["requires"] = named([e.target for e in view.out_edges(node_id, EdgeKind.DEPENDS_ON)])
        out.update(requires_not_shown(view, node_id))  # by count: the plan's words, no name
        out["required_by"] = named([e.source for e in view.in_edges(node_id, EdgeKind.DEPENDS_ON)])
        edges = view.out_edges(node_id, EdgeKind.CONFLICTS_WITH) + view.in_edges(
            node_id, EdgeKind.CONFLICTS_WITH
        )
        out["conflicts"] = [
            {"id": (other := e.target if e.source == node_id else e.source), "name": view.name_of(other)}
            | ({"reason": e.description} if e.description else {})  # none written: no empty reason
            for e in edges
        ]
        out["also_at"] = list(duplicates_of(view, node_id))
        if detail == "full":
            full = node.to_dict()
            out.update({k: full[k] for k in ("tags", "created", "updated", "source")})
            out["attrs"] = visible_attrs(view, node.attrs, node.id)  # its frontmatter may name a hidden item
        return out

    @app.tool(annotations=ANNOTATIONS["check_dependencies"])
    def check_dependencies(ids: Ids, target: str | None = None) -> dict[str, Any]:
        """What a chosen set of components requires (transitively), cycles and conflicts;
        a plugin counts as its members, as install_components takes it.

        Args:
            ids: Component ids (or unique names).
            target: A project folder (absolute path); conflicts with components installed there are reported.
        """
        view = caller_view(service)
        resolved = named_ids(view, ids, "ids")  # unknown names: with close names
        target = checked_target(target)
        try:
            return without_empty_reasons(service.check_dependencies(resolved, target=target, view=view))
        except SkillRetrieverError as exc:
            raise ToolError(str(exc)) from exc

    install_components = app.tool(annotations=ANNOTATIONS["install_components"])(install_tool(service))
    uninstall_components = app.tool(annotations=ANNOTATIONS["uninstall_components"])(uninstall_tool(service))

    watch = ServerWatch(service)

    @app.resource(STATUS_URI, name="index-status", mime_type="application/json")
    def status() -> str:
        """What this caller may see (counts by kind, embedder, version); its Chroma server (`mcp_status`)."""
        return json.dumps(watch.status(), indent=2)

    tools = (search, search_components, get_component, check_dependencies, install_components, uninstall_components)
    app.takes = {fn.__name__: inspect.signature(fn) for fn in tools}
    return app


def serve(
    index_dir: str, *, chroma_url: str | None = None, principals: Sequence[str] | None = ("*",)
) -> None:
    """Open the index and serve it over stdio until the client closes the connection.

    The model, the snapshot's derived views and one search are warmed in the background
    while the client connects (`mcp_warm_up`); a line on stderr says when the server is
    ready, and from then on the first tool call costs what later ones do. A warm-up still
    running when the client leaves is stopped and waited for before the index closes.
    """
    # a Chroma server down does not stop the open: a reader searches in memory meanwhile, saying so (`server_down`)
    index = Index.open(index_dir, chroma_url=chroma_url, create=False)
    try:
        retriever = Retriever(index)
        with warming(retriever, principals):
            build_server(index, retriever=retriever, principals=principals).run("stdio")
    finally:
        index.close()
