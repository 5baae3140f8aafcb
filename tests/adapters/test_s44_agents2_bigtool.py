"""`index_tool_registry` refuses a registry bigtool could not use before it writes
anything. Walkthrough: a list failed as a raw AttributeError; an entry that is no tool
(``{"x": lambda a: a}``) was indexed silently and, as the registry is mirrored, the tools
it held before were deleted as gone (bigtool's ``create_agent`` then failed on it too)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bigtool_support import convert_currency, mk, weather_forecast
from langgraph.prebuilt import ToolNode

from skill_retriever.adapters.bigtool import index_tool_registry
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def documented(amount: int) -> int:
    """Double an amount."""
    return amount * 2


def undocumented(amount: int) -> int:
    return amount * 2


@pytest.fixture
def index(tmp_path: Path) -> Index:
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(64), create=True)
    index_tool_registry(index, {"fx": convert_currency, "weather": weather_forecast}, calibrate=False)
    return index


@pytest.mark.parametrize(
    ("registry", "said"),
    [
        ([convert_currency], (r"^the tool registry must map registry ids to tools \(\{id: tool\}, bigtool's "
                             r"tool_registry\), got list$")),
        ({"fx": convert_currency, "x": lambda a: a},
         (r"^registry entry 'x' \(<lambda>\) is not a tool bigtool can bind \(Function must have a docstring "
         r"if description not provided\); give it a docstring, or make it a BaseTool with a description$")),
        ({"fx": convert_currency, "double": undocumented}, r"^registry entry 'double' \(undocumented\) is not a tool"),
        ({"fx": convert_currency, "n": 5}, r"^registry entry 'n' is neither a BaseTool nor a function, got int$"),
        ({1: convert_currency}, r"^registry id 1 is not a string"),
    ],
)
def test_a_registry_bigtool_cannot_use_is_refused_before_any_write(index: Index, registry: Any, said: str) -> None:
    before = dict(index.snapshot().nodes)
    with pytest.raises(ConfigError, match=said):
        index_tool_registry(index, registry, calibrate=False)
    assert dict(index.snapshot().nodes) == before  # the tools it held are all still there


def test_what_is_refused_is_what_bigtool_could_not_bind() -> None:
    """The rule is the one bigtool's ToolNode applies to a registry's values."""
    with pytest.raises(ValueError, match="docstring"):
        ToolNode([undocumented])
    ToolNode([documented, convert_currency, mk("t", "A tool.")])


def test_functions_and_tools_are_still_indexed(index: Index) -> None:
    report = index_tool_registry(index, {"fx": convert_currency, "double": documented, "t": mk("t", "A tool.")},
                                 calibrate=False)
    assert report.deleted == ("weather",)
    assert sorted(index.snapshot().nodes) == ["double", "fx", "t"]
