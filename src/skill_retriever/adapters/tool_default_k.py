"""The default ``k`` of the MCP search tools: the one written in their signatures (5, the
schema's documented default), or the k the server's `Retriever` is configured with when it
sets one (`entry_k`, the rule of every entry point with a default of its own).
``build_server(index, retriever=Retriever(ix, RetrievalConfig(k=7)))`` answered 5 when the
agent gave no k. A configured k past what a tool gives (`MAX_K`) defaults to that most: a
default the tool would refuse fails every call that leaves k out."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from skill_retriever.adapters.mcp_arguments import MAX_K
from skill_retriever.config import RetrievalConfig
from skill_retriever.entry_k import entry_k

__all__ = ["configured_k"]

F = TypeVar("F", bound=Callable[..., Any])


def configured_k(config: RetrievalConfig) -> Callable[[F], F]:
    """A decorator, applied before the tool is registered (the SDK reads the signature
    then, for the schema and for a call's defaults): the function's ``k`` defaults to
    ``config``'s k when it sets one."""

    def apply(fn: F) -> F:
        params = inspect.signature(fn).parameters
        own = params["k"].default
        k = min(entry_k(config, own), MAX_K)
        if k == own:
            return fn
        if params["k"].kind is inspect.Parameter.KEYWORD_ONLY:
            fn.__kwdefaults__ = {**(fn.__kwdefaults__ or {}), "k": k}
        else:  # __defaults__ holds the last positional parameters' defaults, in order
            positional = [n for n, p in params.items() if p.default is not p.empty and p.kind is not p.KEYWORD_ONLY]
            defaults = list(fn.__defaults__ or ())
            defaults[positional.index("k")] = k
            fn.__defaults__ = tuple(defaults)
        return fn

    return apply
