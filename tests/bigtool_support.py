"""What the bigtool tests share: a registry tool that does nothing, two registry tools with
docstrings to search (`convert_currency`, `weather_forecast`), and a chat model that
replies from a script and records which tools each call had bound."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.tools import BaseTool, StructuredTool, tool


def mk(name: str, description: str) -> BaseTool:
    """A registry tool named ``name`` whose description is all there is to search."""
    return StructuredTool.from_function(
        func=lambda **kw: "ok",
        name=name,
        description=description,
        args_schema={"type": "object", "properties": {}},
    )


class ScriptedChatModel(FakeMessagesListChatModel):
    """Replies from a script and records which tools each call had bound."""

    bound: list[list[str]] = []  # noqa: RUF012  (a pydantic field: copied per instance)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        self.bound.append([t.name if isinstance(t, BaseTool) else t.__name__ for t in tools])
        return self


@tool
def convert_currency(amount: float, source: str, target: str) -> str:
    """Convert an amount of money from one currency to another at today's exchange rate."""
    return f"{amount} {source} in {target}"


@tool
def weather_forecast(city: str) -> str:
    """Get the weather forecast (temperature, rain) for a city."""
    return f"sunny in {city}"
