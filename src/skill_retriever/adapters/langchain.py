"""LangChain faces of the retrieval graph: a retriever, an agent tool, a bigtool retriever.

* :class:`SkillRetriever` is a ``BaseRetriever``: ``invoke``/``ainvoke`` return
  ``Document``\\ s whose text is the item's full text (what ``token_count`` counts) and
  whose metadata carries the id, kind, name, scores, channels and path, and the answer's
  ``warnings`` and ``nothing_fits`` (also logged on the ``skill_retriever`` logger).
* :func:`make_search_skills_tool` builds ``search_skills``, a tool with typed arguments
  (query, kinds, k, token_budget) whose answer is a compact ranked list a model can read.
* ``skill_retriever.adapters.bigtool`` has the functions ``langgraph_bigtool.create_agent``
  calls, and indexes a bigtool tool registry as TOOL nodes.

Each runs the compiled retrieval graph with the caller's callbacks, so a LangSmith trace
shows the retriever or tool run with every retrieval phase nested under it (the search
itself, and the snapshot each answer is built from: ``adapters.langchain_search``; the
retriever: ``adapters.langchain_retriever``; the tool's argument schema:
``adapters.search_skills_input``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool

from skill_retriever.adapters.langchain_retriever import SkillRetriever
from skill_retriever.adapters.langchain_search import (
    TOOL_ARGUMENTS,
    arun_search,
    as_retriever,
    asearch_with_snapshot,
    caller_visibility,
    documents_of,
    run_search,
    search_with_snapshot,
    to_document,
    tool_settings,
)
from skill_retriever.adapters.search_settings_check import check_search_settings
from skill_retriever.adapters.search_skills_input import (
    KindName,
    SearchSkillsInput,
    StrictReadyTool,
    schema_violation_message,
    schema_with_defaults,
)
from skill_retriever.adapters.tool_errors import BAD_INPUT_ERRORS, bad_input_to_model
from skill_retriever.components.view import CallerView
from skill_retriever.entry_k import entry_k
from skill_retriever.filters import ALL_PRINCIPALS, Filters, kinds_named
from skill_retriever.item_dates import dated_line, dates_of
from skill_retriever.item_location import file_location, read_from
from skill_retriever.model import COMPONENT_KINDS, NodeKind
from skill_retriever.render import Shown, named_channels, path_steps, reached_words, reason
from skill_retriever.responses import is_nothing_fits
from skill_retriever.retriever import Retriever, SearchResponse
from skill_retriever.snippet_display import readable_snippet
from skill_retriever.stores.index import Index
from skill_retriever.stores.snapshot import IndexSnapshot

# -- the agent tool ---------------------------------------------------------------------


def format_results(
    response: SearchResponse,
    *,
    snapshot: IndexSnapshot | None = None,
    snippet_chars: int = 160,
    view: CallerView | None = None,
) -> str:
    """A compact ranked list a model can read: one item per two or three lines.

    The list is best first; each item shows its rank, its tokens, the searches that found
    it with its rank in each, what the graph path adds (`render.reached_words`: "also
    reached via X", or "reached via X" for an item only the walk found), and, given the
    ``snapshot`` searched, a document's file (``at FILE:LINE``) to open: a component is
    used by its id, a document only where it lies; and an item that has dates, the CLI's
    ``dated:`` line (an incident is judged by when it happened). The head gives the answer's ``confidence`` when the index was calibrated.

    No item shows a score (they are in the tool's artifact): each is relative to this one
    answer, and the fused one is each search's list min-max normalised (a search's last
    item counts 0), so in a short list a relevant item shows 0.0000, and a model reads 0
    as "irrelevant" (found in a walkthrough: the second of two matching documents). A
    reranker's score is on its model's own scale (a cross-encoder's may be below 0 for
    a good match). Rank, the searches that agree, and the calibrated confidence (0-1,
    with "nothing fits" said below 0.5) read rightly without knowing the fusion.
    What the token budget dropped is said first when it dropped everything, so the model
    raises the budget instead of rephrasing; the response's warnings always follow.
    The searches an item names leave out a graph walk over no edges (`render.named_channels`),
    judged on ``view``, the caller's view of ``snapshot`` (default: all of it).
    """
    dropped, budget = _budget_drops(response)
    items = "item" if dropped == 1 else "items"
    # "Nothing fits" comes first, where a model reads before it acts on the list.
    verdict = [f"Note: {w}" for w in response.warnings if is_nothing_fits(w)]
    notes = [f"note: {w}" for w in response.warnings if not is_nothing_fits(w)]
    if not response.results:
        if dropped and verdict:  # said, not urged: a larger budget returns off-topic items
            head = (
                f"No items fit the token budget of {budget} tokens: it dropped the {dropped} closest "
                f"{items}, which do not fit the task well either; a larger token_budget (or none) "
                "returns them all the same."
            )
        elif dropped:
            head = (
                f"No items fit the token budget of {budget} tokens: it dropped the {dropped} "
                f"matching {items}. Call again with a larger token_budget (or none) to get them."
            )
        else:
            head = "No matching items. Try other words, fewer words, or fewer kinds."
        return "\n".join([*verdict, head, *notes])
    total = sum(r.token_count for r in response.results)
    count = f"{len(response.results)} {'item' if len(response.results) == 1 else 'items'}"
    sure = "" if response.confidence is None else f"; confidence {response.confidence:.2f}"
    lines = [*verdict, f"{count} (route {response.route}{sure}; {total} tokens in all):"]
    if view is None and snapshot is not None:
        view = CallerView(snapshot, [ALL_PRINCIPALS])
    for rank, r in enumerate(response.results, 1):
        named = named_channels(r, view) if view is not None else sorted(r.channels, key=r.channels.__getitem__)
        via = ", ".join(f"{c} #{r.channels[c]}" for c in named)
        lines.append(f"{rank}. [{r.kind}] {r.name} (id: {r.id}) {r.token_count} tokens, via {via}")
        node = snapshot.nodes.get(r.id) if snapshot is not None else None
        if node is not None and node.source and node.kind not in _USED_BY_ID:
            lines.append(f"   at {file_location(node)}")
        if node is not None and (dated := dated_line(node)):  # an incident is judged by when it happened
            lines.append(f"   {dated}")
        # The path as the CLI words it: "also reached via X" beside the searches above that
        # found it directly ("because: Teutberga -> Lothair II" read as the only reason for
        # a semantic #1), "reached via X" where only the walk did, never via its own name.
        steps = path_steps(r, view) if view is not None else list(r.path[:-1])
        if graph := reached_words(r.channels, steps, r.name):
            lines.append(f"   {graph}")
        # Read as a person would (no written-out \\n or <example> of a description): the
        # model pays tokens for the noise; the artifact keeps the snippet as searched.
        text = readable_snippet(r.snippet)
        snippet = text if len(text) <= snippet_chars else text[: snippet_chars - 1].rstrip() + "…"
        lines.append(f"   {snippet}")
    if dropped:
        lines.append(
            f"{dropped} more matching {items} did not fit the token budget of {budget} tokens; "
            "a larger token_budget would return them."
        )
    return "\n".join([*lines, *notes])


#: Kinds an agent uses by id (installs them); any other item read from a file is opened there.
_USED_BY_ID = COMPONENT_KINDS | {NodeKind.PLUGIN}


def _budget_drops(response: SearchResponse) -> tuple[int, int | None]:
    """How many results the token budget dropped, and the budget (``apply_token_budget``'s
    stats; none when that phase did not report)."""
    stats = response.stats.get("apply_token_budget")
    if not isinstance(stats, Mapping):
        return 0, None
    return int(stats.get("dropped") or 0), stats.get("budget")


TOOL_DESCRIPTION = (
    "Search the catalogue of skills, agents, commands, hooks, MCP servers and documents for "
    "the items that help with a task. Returns a list, best first: kind, name, id, which "
    "searches found it (and its rank in each), why it matched, and a short summary; the "
    "line that counts the items gives the confidence (0 to 1) that the best item fits, "
    "after a note when nothing fits well. Use the ids to load or install an item."
)


_TOOL_K: int = SearchSkillsInput.model_fields["k"].default  # the tool's own default k


def make_search_skills_tool(
    index_or_retriever: Index | Retriever,
    *,
    name: str = "search_skills",
    description: str = TOOL_DESCRIPTION,
    strict: bool = False,
    **overrides: Any,
) -> BaseTool:
    """The ``search_skills`` tool over an index or a :class:`Retriever`.

    The tool's content is :func:`format_results`' text; its artifact (for
    ``ToolMessage.artifact`` when called with a tool call) is the list of result dicts.
    Arguments the schema or the search rejects (``k=0``, an unknown kind, an empty query,
    a bad setting) come back as an error message (``ToolMessage(status="error")`` for a
    tool call), not an exception, so an agent can retry. A null argument means the tool's
    default, as leaving it out does (in strict function calling null is the only way to).

    Args:
        index_or_retriever: what to search.
        name: the tool's name as the model sees it.
        description: the tool's description as the model sees it.
        strict: a schema ready for strict function calling (``bind_tools(...,
            strict=True)``): every argument required and nullable, no ``default`` keys
            (strict mode is reported to refuse them); the descriptions name the defaults.
        **overrides: the tool's own arguments ``k``, ``kinds``, ``token_budget`` (or
            ``budget``) and ``budget_fill`` become its defaults, shown as such in its
            schema, which the model's arguments replace: they are the model's to choose
            per call, and a default is what a builder means by ``k=3`` (``k`` left out: the
            retriever's config's, where it sets one other than its default 10, else 5). Anything else is for
            every search: RetrievalConfig settings (e.g. ``rerank=False``), ``filters``
            (tags, principals, since, until) and ``principals``.

    Raises:
        ConfigError: An override the tool does not take (named, with what it takes), a
            default the schema refuses or a setting's value the search refuses
            (``rerank="no"``): here, not as an error at every call.
    """
    retriever = as_retriever(index_or_retriever)
    defaults, settings = tool_settings(overrides)
    if "k" not in defaults and (k := entry_k(retriever.config, _TOOL_K)) != _TOOL_K:
        defaults["k"] = k  # a k its retriever's config sets, none given here (`entry_k`)
    schema = schema_with_defaults(defaults, strict=strict)
    check_search_settings(retriever, settings, "make_search_skills_tool")
    visible = caller_visibility(retriever, settings)

    def search_skills(query: str, **args: Any) -> tuple[str, list[dict[str, Any]]]:
        with bad_input_to_model():
            return _answer(query, *search_with_snapshot(retriever, query, **settings, **_with_defaults(args)), visible)

    async def asearch_skills(query: str, **args: Any) -> tuple[str, list[dict[str, Any]]]:
        with bad_input_to_model():
            found = await asearch_with_snapshot(retriever, query, **settings, **_with_defaults(args))
            return _answer(query, *found, visible)

    def _with_defaults(args: dict[str, Any]) -> dict[str, Any]:
        # The schema's defaults, not the function's: the builder's, as the model reads them;
        # for null too (a strict model's only way to leave an argument out).
        given = {arg: args.get(arg) for arg in TOOL_ARGUMENTS}
        return {arg: schema.model_fields[arg].default if v is None else v for arg, v in given.items()}

    return (StrictReadyTool if strict else StructuredTool).from_function(
        func=search_skills,
        coroutine=asearch_skills,
        name=name,
        description=description,
        args_schema=schema,
        response_format="content_and_artifact",
        handle_tool_error=True,
        handle_validation_error=schema_violation_message,
    )


def _answer(
    query: str, response: SearchResponse, snapshot: IndexSnapshot, visible: Filters
) -> tuple[str, list[dict[str, Any]]]:
    """The tool's content and artifact, path names and sources read from the snapshot
    searched; an item read from a file carries its ``source`` (and a section its ``line``)
    in the artifact, as the retriever's documents and ``query --json`` do, and each its
    ``reason`` as ``query`` prints it (naming only what ``visible`` may see). A note that the
    index holds none of the kinds asked names the kinds it holds that ``visible`` may see,
    where the CLI's points at `stats`, which a model cannot run."""
    view = CallerView(snapshot, visible.principals)
    artifact = []
    for r in response.results:
        node = snapshot.nodes.get(r.id)
        said = {"reason": reason(query, Shown(r, ()), view)} if view.sees(r.id) else {}
        located = read_from(node) if node is not None and node.source else {}
        dated = dates_of(node) if node is not None else {}  # as query --json and MCP's search give them
        artifact.append({**r.fields_dict(), **located, **dated, **said})
    warnings = [kinds_named(w, visible, snapshot.nodes.values()) for w in response.warnings]
    return format_results(replace(response, warnings=warnings), snapshot=snapshot, view=view), artifact


__all__ = [
    "BAD_INPUT_ERRORS",
    "KindName",
    "SearchSkillsInput",
    "SkillRetriever",
    "arun_search",
    "as_retriever",
    "asearch_with_snapshot",
    "documents_of",
    "format_results",
    "make_search_skills_tool",
    "run_search",
    "schema_violation_message",
    "search_with_snapshot",
    "to_document",
]
