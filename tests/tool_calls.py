"""What a LangGraph agent's ToolNode answers a model's tool call with: the tool tests'
one way to call a tool as an agent does."""

from __future__ import annotations

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode


def tool_node_answer(tool: BaseTool, args: dict[str, object]) -> ToolMessage:
    """The ToolMessage a ToolNode holding ``tool`` answers a call with ``args`` with."""
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([tool]))
    builder.add_edge(START, "tools")
    call = AIMessage("", tool_calls=[{"id": "call-1", "name": tool.name, "args": args}])
    answer = builder.compile().invoke({"messages": [call]})["messages"][-1]
    assert isinstance(answer, ToolMessage)
    return answer
