"""An unknown kind is echoed in the error, but not without limit: an agent that sent
20,000 made-up kinds, or one of 200,000 characters, got the whole of it back in one
error over MCP (found in a walkthrough), filling its own context."""

from __future__ import annotations

import pytest

from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters


def _said(kinds: list[str]) -> str:
    with pytest.raises(ConfigError) as caught:
        Filters(kinds=frozenset(kinds))
    return str(caught.value)


def test_a_few_unknown_kinds_are_named_whole() -> None:
    said = _said(["runbook", "skils"])
    assert said.startswith("filters.kinds: unknown kind(s) ['runbook', 'skils']; use any of ['agent', ")


def test_many_or_long_unknown_kinds_are_cut_to_a_line() -> None:
    many = _said([f"k{i:05d}" for i in range(20_000)])
    assert "unknown kind(s) ['k00000', 'k00001', 'k00002', 'k00003', 'k00004'] and 19,995 more; use any of" in many
    long = _said(["x" * 200_000])
    assert f"unknown kind(s) ['{'x' * 60}...']; use any of" in long
    joined = _said(["skill," + "agent," * 50_000])
    assert 'e.g. kinds=["skill", "agent", "agent", "agent", "agent"] and 49,996 more, not one' in joined
    assert max(len(many), len(long), len(joined)) < 500
