"""A setting whose value can never work is refused when the `RetrievalConfig` is made,
with its name and what to give, so every entry point (Python, the CLI, the MCP server,
a LangGraph Server profile) refuses it the same way and before any search work."""

from __future__ import annotations

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError


@pytest.mark.parametrize("days", [0, 0.0, -1.5])
def test_recent_days_zero_or_less_is_refused_by_the_config(days: float) -> None:
    # It was accepted here and refused only inside plan_query, by the time parser, so a
    # config (or a server profile) passed its check and then failed at the first query.
    with pytest.raises(ConfigError, match=r"recent_days must be > 0"):
        RetrievalConfig(recent_days=days)
    with pytest.raises(ConfigError, match=r"recent_days must be > 0"):
        RetrievalConfig().override(recent_days=days)
    assert RetrievalConfig(recent_days=0.5).recent_days == 0.5
