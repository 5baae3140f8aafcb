"""The named settings (profiles) for kinds of corpora, which ``config.config_for`` and
``config.unknown_profile`` read. Plain data, in a module of its own so that ``config.py``
keeps room for its settings."""

from __future__ import annotations

from typing import Any

__all__ = ["PROFILES"]

#: Named settings for kinds of corpora. "design" is the defaults table (docs/architecture.md).
#: "multihop" was chosen on the two HippoRAG *train* sets only (hotpotqa_hipporag_train100,
#: musique_hipporag_train100, the sets HippoRAG itself tuned on) and is judged on the
#: others (the README, Results, has the benchmark's tables). A passage corpus indexed with
#: facts gets it without asking (``calibration.defaults``).
PROFILES: dict[str, dict[str, Any]] = {
    "design": {},
    # A passage corpus with facts (``ingest.facts``): what ``calibration.defaults`` suggests
    # for one, so ``config_for("multihop")`` states it explicitly. The ppr route for every
    # question; the two best facts and the proper names of the query seed the walk; every
    # passage restarts it too by its cosine and BM25 score; alpha 0.5 (HippoRAG 2's
    # damping); the graph channel carries the fusion (the others, at 0.001, only break its
    # exact ties and fill past it: at 0.02 a semantic rank 1 already overtook the next
    # graph rank, and R@2 fell on both train sets); no score floor, so the walk's list
    # reaches the channel depth. Chosen on the two HippoRAG *train* sets (README, multi-hop).
    "multihop": {
        "route": "ppr",
        "fact_seeds": 2,
        "named_seed_weight": 3.0,
        "specificity": 0.0,
        "ppr_dense_weight": 0.2,
        "ppr_keyword_weight": 0.1,
        "alpha_specific": 0.5,
        "alpha_default": 0.5,
        "alpha_broad": 0.5,
        "channel_weights": {"graph": 1.0, "semantic": 0.001, "keyword": 0.001, "temporal": 1.0, "named": 0.001},
        "ppr_min_score": 0.0,
        "flow_max_endpoints": 50,
        "flow_max_paths": 50,
        "flow_reliability_threshold": 0.0,
    },
}
