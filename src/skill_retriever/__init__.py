"""skill-retriever: hybrid graph retrieval for coding agents and LangGraph agents.

``from skill_retriever import graph`` gives the compiled retrieval graph (the module of the
same name holds its wiring: ``from skill_retriever.graph import build_graph``).
"""

from skill_retriever.config import RetrievalConfig, config_for
from skill_retriever.context import RetrievalContext
from skill_retriever.filters import Filters
from skill_retriever.graph import build_graph, graph
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.retriever import Retriever, SearchResponse, SearchResult
from skill_retriever.stores.index import Index

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
