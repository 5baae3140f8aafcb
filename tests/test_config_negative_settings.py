"""A negative number in a setting that is a weight, a boost, a threshold on a score or a
span of time is refused with its name, as a negative channel weight or integer already
was: ``factor_semantic=-1.0`` used to invert the smart route's ranking without a word,
and ``relation_graph_boost=-1.0`` turned the graph channel against what a typed hop
found. A similarity threshold may be negative (a cosine is), so those stay accepted."""

from __future__ import annotations

import pytest

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError

REFUSED = [
    "factor_semantic", "factor_degree", "factor_edge_density", "factor_coverage",
    "relation_graph_boost", "temporal_window_boost", "coverage_threshold",
    "ppr_min_score", "ppr_tol", "flow_reliability_threshold", "named_seed_weight",
    "specificity", "ppr_dense_weight", "ppr_keyword_weight",
]


@pytest.mark.parametrize("name", REFUSED)
def test_a_negative_weight_or_threshold_is_refused(name: str) -> None:
    with pytest.raises(ConfigError, match=f"setting '{name}' must be >= 0, got -0.5"):
        RetrievalConfig(**{name: -0.5})
    with pytest.raises(ConfigError, match=f"setting '{name}' must be >= 0"):
        RetrievalConfig().override(**{name: -0.5})
    assert getattr(RetrievalConfig(**{name: 0.0}), name) == 0.0  # 0 stays: "off" for the weights


@pytest.mark.parametrize("name", ["seed_node_min_similarity", "seed_edge_min_similarity"])
def test_a_negative_similarity_threshold_is_kept(name: str) -> None:
    assert getattr(RetrievalConfig(**{name: -0.2}), name) == -0.2
