"""The k an entry point with a default of its own searches with when its caller passes none.

Each entry point has its own default ``k`` (4 for ``SkillRetriever``, 5 for the
``search_skills`` tool; README, "Each entry point has its own default `k`"), and
``RetrievalConfig.k`` is the default of ``Retriever.search`` and the graph. A config that
sets ``k`` (``SkillRetriever(index=ix, config=RetrievalConfig(k=7))``) was dropped without a
word for the entry's default: the caller got 4 documents. A k the config sets wins now; one
passed to the entry itself wins over the config's. A config cannot say whether its k was
given or left at 10 (a frozen dataclass records no such thing), so a config whose k is the
default leaves the entry's own: ``RetrievalConfig(rerank=False)`` does not turn a
retriever of 4 into one of 10.
"""

from __future__ import annotations

from skill_retriever.config import RetrievalConfig

__all__ = ["entry_k"]

_CONFIG_DEFAULT_K = RetrievalConfig.__dataclass_fields__["k"].default


def entry_k(config: RetrievalConfig | None, default: int) -> int:
    """The k of an entry point whose own default is ``default``, its caller having passed
    none: ``config``'s, when it sets one other than RetrievalConfig's default, else ``default``."""
    if config is None or config.k == _CONFIG_DEFAULT_K:
        return default
    return config.k
