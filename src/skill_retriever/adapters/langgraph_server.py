"""The retrieval graph as LangGraph Server / Studio (``langgraph dev``) can run it.

The server builds a graph's context from the JSON of a run request, so it cannot hand the
retrieval graph the :class:`~skill_retriever.stores.index.Index` object that
``RetrievalContext`` holds. The server graph therefore takes a small JSON context,
:class:`ServerContext`, and one node, ``retrieve``, opens the index it names (once per
process, cached), builds the ``RetrievalContext`` and runs the compiled retrieval graph
as a subgraph with it: every phase still shows as its own node and run, one level down.

Which index: the ``SKILL_RETRIEVER_INDEX`` environment variable, else the bundled sample
catalogue, indexed on first use into ``$SKILL_RETRIEVER_CACHE`` (default
``~/.cache/skill-retriever``). A run's ``context.index_dir`` may name that index or one of
``$SKILL_RETRIEVER_INDEX_DIRS``, and no other (`server_index_dirs`). An index is opened
with the embedder its manifest names.

Who is asking: the deployment says it, never the run. A run's input and its JSON context
come from the server's clients, so a principal named there would let any client read
private items. Every run searches as ``$SKILL_RETRIEVER_PRINCIPALS`` (comma-separated;
unset or empty: public items only; ``*``: everything), the server-side counterpart of
``skill-retriever mcp --principals``. A run's ``filters.principals`` may only narrow
that set; naming a principal the deployment did not grant is refused (`server_inputs`).
The settings of a run's ``config["configurable"]`` (an assistant's) pass the same limits as
its ``profile`` (`server_configurable`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Checkpointer

from skill_retriever.adapters.server_configurable import served_configurable, with_taken
from skill_retriever.adapters.server_index_dirs import INDEX_DIRS_ENV, INDEX_ENV, offered_index_dir
from skill_retriever.adapters.server_inputs import (
    COST_CAPS,
    PRINCIPALS_ENV,
    client_warnings,
    run_principals,
    run_profile,
    served_values_checked,
    server_principals,
)
from skill_retriever.advice import env_index_dir
from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.exceptions import (
    ConfigError,
    QueryError,
    QueryTooLongError,
    SkillRetrieverError,
)
from skill_retriever.graph_input import NO_QUERY, input_checked
from skill_retriever.rerank import DEFAULT_CROSS_ENCODER, default_reranker
from skill_retriever.retriever import Retriever
from skill_retriever.state import Answer, QueryInput
from skill_retriever.stores.embedder import (
    Embedder,
    SentenceTransformerEmbedder,
    embedder_for,
)
from skill_retriever.stores.index import Index

log = logging.getLogger("skill_retriever")

CACHE_ENV = "SKILL_RETRIEVER_CACHE"


@dataclass(frozen=True, init=False)
class ServerContext:
    """JSON context of the server graphs (Studio shows it as the assistant's settings).

    Attributes:
        index_dir: index directory; None = ``$SKILL_RETRIEVER_INDEX`` or the sample index.
        rerank: run the rerank phase.
        cross_encoder: cross-encoder model name (as the Hugging Face cache knows it) used
            when it loads offline; None (or a model that is not there) = no reranking. Not
            a path: a run's context comes from the server's clients, and loading a model
            from a path they chose is theirs to decide, not the deployment's.

    Raises:
        ConfigError: An unknown key (LangGraph builds the context from the run's JSON, and
            a mistyped key must not pass for the default), a value of the wrong type, or
            a path for cross_encoder.
    """

    index_dir: str | None = None
    rerank: bool = True
    cross_encoder: str | None = DEFAULT_CROSS_ENCODER

    def __init__(
        self,
        index_dir: str | None = None,
        rerank: bool = True,
        cross_encoder: str | None = DEFAULT_CROSS_ENCODER,
        **unknown: Any,
    ) -> None:
        if unknown:
            known = sorted(f.name for f in fields(ServerContext))
            raise ConfigError(f"unknown context key(s) {sorted(unknown)}; the server context takes {known}")
        # JSON may hold any type: a number for a folder was a bare TypeError from pathlib
        for key, value, what in (("index_dir", index_dir, "an index folder"), ("cross_encoder", cross_encoder, "a model's name")):
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"context.{key} must be a string ({what}) or null, got {value!r:.60}")
        if not isinstance(rerank, bool):
            raise ConfigError(f"context.rerank must be true or false, got {rerank!r:.60}")
        if _is_path(cross_encoder):
            raise ConfigError(
                "context.cross_encoder names a model (as the Hugging Face cache knows it), not a path: "
                "a model is loaded from a path the deployment chose, never a run"
            )
        object.__setattr__(self, "index_dir", index_dir)
        object.__setattr__(self, "rerank", rerank)
        object.__setattr__(self, "cross_encoder", cross_encoder)


def cache_dir() -> Path:
    """Where the sample index is built: ``$SKILL_RETRIEVER_CACHE`` or the user cache."""
    base = os.environ.get(CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "skill-retriever"
    )
    return Path(base)


def _sample_fingerprint() -> str:
    from skill_retriever.indexing import sample_catalogue_path

    root = sample_catalogue_path()
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def sample_index_dir(embedder: Embedder | None = None, root: Path | None = None) -> Path:
    """The sample catalogue's index under ``root`` (default :func:`cache_dir`), built on
    first use (atomically: built in a temporary folder, then renamed, so a crash or a
    second process never sees half)."""
    from skill_retriever.indexing import index_sources, sample_catalogue_path

    embedder = embedder or SentenceTransformerEmbedder()
    slug = "".join(c if c.isalnum() else "-" for c in embedder.name)
    target = (root or cache_dir()) / f"sample-{_sample_fingerprint()}-{slug}"
    if (target / "index.json").exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".building-", dir=target.parent))
    try:
        log.info("[skill_retriever][server] indexing the sample catalogue into %s", target)
        index = Index.open(tmp / "index", embedder=embedder, create=True)
        index_sources(index, [sample_catalogue_path()])
        index.close()
        try:
            (tmp / "index").rename(target)
        except OSError:
            if not (target / "index.json").exists():  # not a lost race: a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


_indexes: dict[str, Index] = {}
#: Retrievers by (index, rerank, cross-encoder asked for), the most recently used last: a
#: client naming ever new cross-encoders must not grow the process without bound.
_retrievers: OrderedDict[tuple[str, bool, str | None], Retriever] = OrderedDict()
MAX_RETRIEVERS = 16
_lock = threading.Lock()


def resolve_index_dir(index_dir: str | None = None) -> Path:
    """The index directory a server run uses (see the module doc); a run's ``index_dir``
    only when the deployment offers it (`offered_index_dir`, else ConfigError)."""
    if index_dir:
        return offered_index_dir(index_dir)
    chosen = env_index_dir()  # blank is unset
    return Path(chosen).expanduser() if chosen else sample_index_dir()


def server_index(index_dir: str | None = None) -> Index:
    """Open (once per process) the index for ``index_dir`` with the embedder it was built with."""
    path = resolve_index_dir(index_dir).resolve()
    with _lock:
        index = _indexes.get(str(path))
        if index is None:
            # the model its manifest names; no index there, or a damaged one, is said by the
            # open (IndexNotFoundError: build one; IndexCorruptError: repair it)
            index = Index.open(path)
            _indexes[str(path)] = index
        return index


def retrieval_context(
    context: ServerContext | None, config: RetrievalConfig | None = None
) -> RetrievalContext:
    """The ``RetrievalContext`` for a server run's JSON context (for graphs that add the
    retrieval graph as a subgraph, like ``graphs/coding_agent.py``)."""
    ctx = context or ServerContext()
    retriever = server_retriever(ctx)
    cfg = (config or RetrievalConfig()).override(rerank=ctx.rerank)
    # read_configurable=False: a client's config["configurable"] would set what a served run's
    # profile may only lower (COST_CAPS); the served node reads it, bounded (`server_configurable`)
    return RetrievalContext(index=retriever.index, config=cfg, reranker=retriever.reranker if ctx.rerank else None,
                            read_configurable=False)


def server_retriever(context: ServerContext | None, graph: Any = None) -> Retriever:
    """The :class:`Retriever` (once per process) for a server run's JSON context, running
    ``graph`` (default: the compiled retrieval graph)."""
    ctx = context or ServerContext()
    index = server_index(ctx.index_dir)
    key = (str(index.path), ctx.rerank, ctx.cross_encoder)
    with _lock:
        found = _retrievers.get(key)
        if found is None:
            reranker = default_reranker(model=ctx.cross_encoder) if ctx.rerank else None
            found = Retriever(index, RetrievalConfig(rerank=ctx.rerank), reranker, graph=graph)
            _retrievers[key] = found
            while len(_retrievers) > MAX_RETRIEVERS:
                _retrievers.popitem(last=False)
        _retrievers.move_to_end(key)
        return found


def warm_up_in_background(context: ServerContext | None = None) -> threading.Thread:
    """Open the default index and warm its :class:`Retriever` (model, views, one search)
    in a daemon thread, so the server's first run is as fast as later ones. A failure is
    logged, not raised: the first run reports it to its caller."""

    def work() -> None:
        try:
            spent = server_retriever(context or ServerContext()).warm_up()
        except SkillRetrieverError as exc:
            log.warning("[skill_retriever][server] warm-up failed: %s", exc)
            return
        log.info("[skill_retriever][server] ready: %s", spent)

    thread = threading.Thread(target=work, name="skill-retriever-warm-up", daemon=True)
    thread.start()
    return thread


def _context_of(runtime: Runtime[Any]) -> ServerContext:
    return _server_context(runtime.context)


def _server_context(ctx: Any) -> ServerContext:
    """A run's JSON context as a `ServerContext`: ``runtime.context`` in the run, or the
    ``context=`` of the call before it (which LangGraph makes the run's)."""
    if ctx is None or isinstance(ctx, dict):  # a dict: a caller outside the server passed plain JSON
        return ServerContext(**(ctx or {}))
    if not isinstance(ctx, ServerContext):  # refused in one line, not as an AttributeError of a field
        raise ConfigError('the server graph runs with a JSON context such as {"index_dir": ..., "rerank": true} '
                          f"(or ServerContext(...)), or none; it got {type(ctx).__name__}")
    return ctx


def _is_path(name: str | None) -> bool:
    """Whether a model name is a filesystem path (absolute, home, relative, or more than
    one ``owner/name`` level), which a run may not make the server load from."""
    return bool(name) and (
        Path(str(name)).expanduser().is_absolute()
        or str(name).startswith((".", "~"))
        or str(name).count("/") > 1
        or "\\" in str(name)
    )


class ServerState(QueryInput, Answer):
    """The server graph's state: the retrieval graph's input and output, without
    `RetrievalState`'s reducers. A thread keeps its state from run to run: with them,
    each run's warnings and stats were added to every earlier run's.

    No ``query_vector``: the one door (``Retriever``) takes none, and its answer cache
    knows queries by their text, so a vector could not be honoured; the input schema
    (what Studio shows) no longer offers one that was dropped unread."""


#: What a run that succeeded writes back, so the next run in its thread that leaves an
#: input out gets its default, not this run's value (`build_server_graph`).
PER_CALL_UNSET: dict[str, Any] = {"k": None, "token_budget": None, "route": None, "filters": None, "profile": None}


def server_settings(retriever: Retriever) -> RetrievalConfig:
    """What ``retriever`` runs a query with before a run's own input: its settings with
    what its index suggests for those left at their built-in values."""
    from skill_retriever.calibration.defaults import index_defaults

    return index_defaults(retriever.index.snapshot()).apply(retriever.config)


def build_server_graph(
    name: str = "retrieval", checkpointer: Checkpointer = None
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The retrieval graph wrapped for LangGraph Server: JSON context in, same input and
    output as the retrieval graph itself. (The server brings its own checkpointer.)"""

    from skill_retriever.graph import graph as retrieval_graph

    def retrieve(state: ServerState, runtime: Runtime[ServerContext]) -> dict[str, Any]:
        """Search through the one door (``Retriever``), which runs ``retrieval_graph`` inside
        this node: Studio draws its phases as this node's subgraph, one level down."""
        if not isinstance(state.get("query"), str):
            raise QueryError(NO_QUERY)
        retriever = server_retriever(_context_of(runtime), retrieval_graph)
        asked_filters = state.get("filters")
        asked_filters = {} if asked_filters is None else asked_filters  # [] or "" is refused, as the graph refuses it
        if not isinstance(asked_filters, dict):
            raise ConfigError(f"filters must be an object (kinds, tags, principals, since, until), got {asked_filters!r:.60}")
        filters = dict(asked_filters)
        principals = run_principals(filters.pop("principals", None), server_principals())
        own = server_settings(retriever)
        configured = served_configurable(own)  # an assistant's settings (or a client's), bounded as a profile's
        overrides = {**configured.settings, **run_profile(state.get("profile"), own)}
        given = {"k": state.get("k"), "budget": state.get("token_budget"), "route": state.get("route")}
        for key, value in given.items():  # the run's own k, budget and route come first
            if value is not None or key not in overrides:
                overrides[key] = value
        snapshot = retriever.index.snapshot()  # the one searched: its kinds are named in a warning
        try:
            response = retriever.search(state["query"], filters=filters, principals=principals, snapshot=snapshot,
                                        **overrides)
        except QueryTooLongError as exc:  # the limit is the deployment's: the client can only shorten
            raise exc.said_of("query", served=True) from None
        stats, warnings = with_taken(response.stats, response.warnings, configured)
        response = replace(response, stats=stats, warnings=client_warnings(warnings, principals, snapshot.nodes.values()))
        # Every output key (fit None too): each run replaces the last. And the inputs set
        # back to unset (None: "not given" here): a thread keeps every key from run to run,
        # and this node cannot tell an input of this run from one a run before gave, so a
        # budget of 50 once emptied every later answer. Written here, on success only: a
        # failed run keeps its inputs, so `invoke(None, config)` resumes it with them.
        return {**response.to_output(), **PER_CALL_UNSET}

    def values_checked(given: Mapping[str, Any], context: Any = None) -> None:
        """`served_values_checked`, and a profile's cost settings against the limits on the
        index this call would search (`run_profile`), which only the server knows: checked
        in the run, one over them stayed in a checkpointed thread and failed every later call."""
        served_values_checked(given, context)
        profile = given.get("profile")
        if isinstance(profile, dict) and any(key in COST_CAPS or key == "ppr_tol" for key in profile):
            run_profile(profile, server_settings(server_retriever(_server_context(context), retrieval_graph)))

    builder = StateGraph(
        ServerState,
        context_schema=ServerContext,
        input_schema=QueryInput,
        output_schema=Answer,
    )
    builder.add_node(retrieve)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", END)
    # input_checked: a key the input lacks (topk, query_vector) is refused, not dropped unread,
    # and a bad value before the run, which a Studio thread would keep (`input_values`)
    # per_call: a new input on a thread paused (or failed) before `retrieve` starts from unset too
    return input_checked(builder.compile(checkpointer=checkpointer, name=name), values=values_checked,
                         per_call=PER_CALL_UNSET)


__all__ = [
    "INDEX_DIRS_ENV",
    "INDEX_ENV",
    "PRINCIPALS_ENV",
    "ServerContext",
    "build_server_graph",
    "cache_dir",
    "embedder_for",
    "resolve_index_dir",
    "retrieval_context",
    "run_principals",
    "sample_index_dir",
    "server_index",
    "server_principals",
    "server_retriever",
    "warm_up_in_background",
]
