"""`term_counts`, the per-distinct-word path BM25 indexing takes, counts exactly what
`bm25_terms` does: writing an index counts every item's terms this way, and so does opening
one whose counts are not stored (about 2x faster on six real skill repositories)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from skill_retriever.algorithms.tokenize import bm25_terms
from skill_retriever.stores.keywords import BM25Index, term_counts

TEXTS = [
    "",
    "Deploying the checkout-api services to prod; deploy deploys DEPLOYED deployment",
    "snake_case and CamelCase, v3.5.0, INC-1043, deploy-v3.5.0/next, ___ __init__ _x_",
    "Akinoshū café naïve ＦＵＬＬＷＩＤＴＨ ﬁle İstanbul straße ΣΊΣΥΦΟΣ",
    "a the and of to in is it you your please find show give tell need want using use via e.g",
    "line\x00with\tcontrol\rchars -- . / .. -x- x. .x a/b/c a.b.c 3d 2024-01-01",
    "```python\nimport os\nos.path.join('a', 'b')  # comment\n```\n" * 20,
]


def test_term_counts_equal_bm25_terms() -> None:
    for text in TEXTS:
        assert term_counts(text) == Counter(bm25_terms(text)), text


def test_custom_tokenizer_used_as_given() -> None:
    assert term_counts("a b a", str.split) == Counter({"a": 2, "b": 1})


def test_bm25_scores_unchanged_by_fast_path() -> None:
    docs = [(f"d{i}", t) for i, t in enumerate(TEXTS)]
    fast = BM25Index()
    fast.upsert(docs)
    slow = BM25Index(tokenizer=lambda text: bm25_terms(text))  # not bm25_terms itself: the plain path
    slow.upsert(docs)
    for query in ("deploy checkout-api", "café", "os path", "v3.5.0", "straße"):
        ids_f, s_f = fast.scores(query)
        ids_s, s_s = slow.scores(query)
        assert dict(zip(ids_f, s_f, strict=True)) == dict(zip(ids_s, s_s, strict=True))
        assert np.any(s_f > 0) or query == "straße"
