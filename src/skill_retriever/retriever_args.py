"""The arguments of a `Retriever`, checked before any work: the index, the config, the
reranker, the queries of a batch, whole numbers and lists of names. Each refusal is one
line that says what is accepted."""

from __future__ import annotations

import enum
import numbers
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError, IndexClosedError, QueryError
from skill_retriever.filters import Filters, names_of
from skill_retriever.kind_names import check_kinds
from skill_retriever.querytext import clean_query, search_text_of
from skill_retriever.stores.index import Index

__all__ = [
    "DEFAULT_RERANKER", "Default", "cache_size_of", "check_config", "check_graph", "check_index", "check_reranker", "check_run_config",
    "in_order", "names", "no_search_only",
    "search_texts", "text_query", "whole",
]


class Default(enum.Enum):
    """The type of `DEFAULT_RERANKER` (an enum member: one value, typed, picklable)."""

    RERANKER = "default reranker"

    def __repr__(self) -> str:  # what help(Retriever) shows as the default
        return "DEFAULT_RERANKER"


#: ``Retriever(reranker=...)`` left out: `rerank.default_reranker`, a cross-encoder when
#: one loads offline, else none (loaded at the first search, not at construction).
DEFAULT_RERANKER = Default.RERANKER


def check_index(index: Any) -> None:
    """Refuse, at construction, anything but an `Index` (a path is the usual slip).

    Raises:
        ConfigError: ``index`` is a path or not an `Index`.
        IndexClosedError: ``index`` was closed (a retriever made over it failed only at its
            first search, wherever that ran).
    """
    if isinstance(index, (str, os.PathLike)):
        raise ConfigError(f"index must be an Index, got the path {os.fspath(index)!r:.80}: Retriever(Index.open(path))")
    if not isinstance(index, Index):
        raise ConfigError(f"index must be an Index (Retriever(Index.open(path))), got {type(index).__name__}")
    if index.closed:
        raise IndexClosedError(f"the index at {index.path} was closed; open it again with Index.open, then Retriever(index)")


def check_config(config: Any) -> None:
    """Refuse, at construction, a config that is not None nor a `RetrievalConfig`.

    Raises:
        ConfigError: ``config`` is of another type (a dict of settings is the usual slip).
    """
    if config is not None and not isinstance(config, RetrievalConfig):
        hint = "RetrievalConfig(**settings), or pass the settings to search()" if isinstance(config, Mapping) else (
            "RetrievalConfig(...) or config_for(profile)")
        raise ConfigError(f"config must be a RetrievalConfig ({hint}), got {type(config).__name__}")


def check_reranker(reranker: Any) -> None:
    """Refuse, at construction, a reranker no search could run (each search would log a
    traceback and rank without it).

    Raises:
        ConfigError: ``reranker`` is not None, `DEFAULT_RERANKER` nor a `Reranker`.
    """
    if reranker is None or isinstance(reranker, Default):
        return
    accepted = ("a Reranker (an object with a name and score(query, texts)), None for no reranking, "
                "or leave it out for the default")
    if isinstance(reranker, str):
        raise ConfigError(
            f"reranker takes {accepted}, not the model name {reranker!r:.80}: "
            f"pass reranker=CrossEncoderReranker({reranker!r:.80}) (from skill_retriever.rerank)"
        )
    if isinstance(reranker, type):
        raise ConfigError(f"reranker takes {accepted}; got the class {reranker.__name__}: pass an instance of it")
    if not (isinstance(getattr(reranker, "name", None), str) and callable(getattr(reranker, "score", None))):
        raise ConfigError(f"reranker takes {accepted}; got {type(reranker).__name__} {reranker!r:.60}")


def cache_size_of(size: Any) -> int:
    """``cache_size`` as an int: a whole number of answers, 0 or more (numpy integers too).

    Raises:
        ConfigError: Anything else. ``nan`` kept every answer (no length is ever above it),
            a float a fraction of one, ``True`` one, and text or None failed on ``<``.
    """
    size = whole(size)
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ConfigError(f"cache_size must be a whole number of answers, 0 or more (0 turns the answer cache off), "
                          f"got {type(size).__name__} {size!r:.40}")
    return size


def check_graph(graph: Any) -> None:
    """Refuse, at construction, a ``graph`` no search could run (one without ``invoke``):
    ``graph="x"`` was taken, and every search failed with an ``AttributeError``.

    Raises:
        ConfigError: ``graph`` is not None and has no ``invoke`` to call.
    """
    if graph is None or callable(getattr(graph, "invoke", None)):
        return
    hint = f"; {graph.__name__} builds one: call it" if callable(graph) and hasattr(graph, "__name__") else ""
    raise ConfigError("graph must be a compiled retrieval graph (skill_retriever.graph.graph, or build_graph(name)), "
                      f"got {type(graph).__name__} {graph!r:.40}{hint}")


def check_run_config(run_config: Any) -> None:
    """Refuse a ``run_config`` that is not None nor a mapping (LangChain's RunnableConfig is a
    dict), before the search: LangChain read a string as one and failed with an
    ``AttributeError`` that named neither the argument nor what it takes.

    Raises:
        ConfigError: ``run_config`` is of another type.
    """
    if run_config is not None and not isinstance(run_config, Mapping):
        raise ConfigError("run_config must be a RunnableConfig (a dict such as {'tags': [...], 'callbacks': [...]}) "
                          f"or None, got {type(run_config).__name__} {run_config!r:.40}")


def no_search_only(overrides: Mapping[str, Any]) -> None:
    """Refuse ``search``'s own arguments that ``search_many`` does not take, named as such:
    they fell to the settings' check, "unknown setting(s) ['snapshot']; see RetrievalConfig".

    Raises:
        ConfigError: ``snapshot`` or ``run_config`` among ``overrides``.
    """
    for name in ("snapshot", "run_config"):
        if name in overrides:
            raise ConfigError(f"search_many takes no {name}= (search() does): call search(query, {name}=...) "
                              "for each query, or leave it out")


def in_order(queries: Any) -> list[str]:
    """``queries`` as a list, refused when it has no order to match answers to queries by.

    Raises:
        ConfigError: One string (never one search per character), a set or a mapping
            (its order is not the caller's), or no collection at all.
    """
    if isinstance(queries, (str, bytes)):
        raise ConfigError("search_many takes a list of queries, got one string; use search(query) for one")
    if isinstance(queries, (AbstractSet, Mapping)):
        raise ConfigError(
            f"search_many takes queries in order (a list or tuple), got a {type(queries).__name__}, whose "
            "answers could not be matched to its queries by position; pass a list (e.g. sorted(queries))"
        )
    if not isinstance(queries, (Sequence, Iterator)):
        raise ConfigError(f"search_many takes a list of queries, got {type(queries).__name__}")
    return list(queries)


def whole(value: Any) -> Any:
    """A whole number of any integer type (``numpy.int64`` from a data frame) as an int;
    anything else as given, for the settings' own check to word."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return value


def names(value: Iterable[str] | str, what: str, beside: Mapping[str, Any] | None = None) -> list[str]:
    """A sorted list of names (`filters.names_of`: one string is one name, never its
    characters; ``principals="alice"`` must not become the principals a, c, e, i, l).

    ``beside``: the same call's ``filters``, when ``value`` is its ``kinds=`` or
    ``principals=`` shortcut (``what``); the two must not differ: which was meant cannot
    be told, and one quietly winning searched other items than the caller asked for
    (``filters={"kinds": ["agent"]}, kinds=["skill"]`` gave skills).

    Raises:
        ConfigError: Not names, kinds no item could match (`kind_names.check_kinds`, named
            ``what``), or ``beside`` names that filter otherwise (compared as
            the filters read them: a `NodeKind` is its value).
    """
    given = sorted(str(getattr(n, "value", n)) for n in names_of(value, what) or ())
    if what == "kinds":  # refused as kinds=, not as the filters.kinds it becomes
        check_kinds(given, what)
    if beside is not None and beside.get(what) is not None:
        held = sorted(str(getattr(n, "value", n)) for n in names_of(beside[what], f"filters.{what}") or ())
        if Filters.from_spec({what: held}) != Filters.from_spec({what: given}):
            raise ConfigError(
                f"{what}={given} and filters[{what!r}]={held} say different things; give {what} once, "
                f"as {what}= or inside filters"
            )
    return given


def text_query(query: Any, config: RetrievalConfig) -> None:
    """Refuse one search's query that is no text, in `clean_query`'s words, before the graph:
    its input check reads a None query as an input without ``query`` and asks for the dict
    (``{"query": ...}``) that a caller of ``search`` or a retriever never writes.

    Raises:
        QueryError: The query is not text (None, bytes, a number, ...).
    """
    if not isinstance(query, str):
        clean_query(query, config.max_query_chars)


def search_texts(queries: Sequence[tuple[str, RetrievalConfig]], *, dated: bool) -> list[str]:
    """The search text of each query under its call's settings (what the graph's plan will
    embed), checked as the graph checks it, so that a batch with a bad query fails before
    any search runs rather than after the ones before it, whose answers the caller would
    never see. ``dated``: the index's items carry dates (`dated_items.carries_dates`), as
    the plan reads it: "since Nov 3" is then a window, not words to embed.

    Raises:
        QueryError: Of the first bad query, its message led by its position in the batch
            (the same exception, so a ``QueryTooLongError`` keeps its length and limit).
    """
    texts: list[str] = []
    for position, (query, config) in enumerate(queries, 1):
        try:
            texts.append(search_text_of(clean_query(query, config.max_query_chars), config, dated)[0])
        except QueryError as exc:
            exc.args = (f"query {position} of {len(queries)}: {exc}",)
            raise
    return texts
