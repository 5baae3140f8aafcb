"""skill-retriever: hybrid graph retrieval for coding agents and LangGraph agents."""

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind

__all__ = ["Edge", "EdgeKind", "Node", "NodeKind"]
