"""skill-retriever: hybrid graph retrieval for coding agents and LangGraph agents.

``from skill_retriever import graph`` gives the compiled retrieval graph (the module of the
same name holds its wiring: ``from skill_retriever.graph import build_graph``).

The names below load on first use (PEP 562), so a command that never searches (``--help``,
``stats``) never imports LangGraph, torch or sentence-transformers.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

if TYPE_CHECKING:
    from skill_retriever.config import RetrievalConfig, config_for
    from skill_retriever.context import RetrievalContext
    from skill_retriever.filters import Filters
    from skill_retriever.graph import build_graph, graph
    from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
    from skill_retriever.responses import SearchResponse, SearchResult
    from skill_retriever.retriever import Retriever
    from skill_retriever.stores.index import Index

_WHERE = {
    "Edge": "model",
    "EdgeKind": "model",
    "Filters": "filters",
    "Index": "stores.index",
    "Node": "model",
    "NodeKind": "model",
    "RetrievalConfig": "config",
    "RetrievalContext": "context",
    "Retriever": "retriever",
    "SearchResponse": "responses",
    "SearchResult": "responses",
    "build_graph": "graph",
    "config_for": "config",
    "graph": "graph",
}

__all__ = [
    "Edge",
    "EdgeKind",
    "Filters",
    "Index",
    "Node",
    "NodeKind",
    "RetrievalConfig",
    "RetrievalContext",
    "Retriever",
    "SearchResponse",
    "SearchResult",
    "build_graph",
    "config_for",
    "graph",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'skill_retriever' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"skill_retriever.{_WHERE[name]}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    # The names above load on first use, so without this dir() and a notebook's tab
    # completion (which reads it) offered none of them: only Any, importlib, sys, ...
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The package's ``graph`` is the compiled graph, whoever imported the module first.

    Importing the submodule ``skill_retriever.graph`` makes the import system bind the
    module to the package's ``graph`` attribute, which would shadow the name this package
    exports (and ``__getattr__`` is then never asked). This property keeps the name bound
    to the compiled graph; the module stays where imports find it (``sys.modules``).
    """

    _graph_override: Any = None

    @property
    def graph(self) -> Any:
        if self._graph_override is not None:
            return self._graph_override
        return importlib.import_module("skill_retriever.graph").graph

    @graph.setter
    def graph(self, value: Any) -> None:
        if value is sys.modules.get("skill_retriever.graph"):
            return  # the import system binding the submodule: the name means the graph
        self._graph_override = value


sys.modules[__name__].__class__ = _Package
