"""What `bm25_terms` gives is pinned to `BM25_ANALYSER_VERSION`: an index stores each
item's BM25 term counts under that version (`stores.stored_terms`) and reuses them while it
is the same, so a change of the analyser that keeps the version would leave every index
searching counts the new analyser would not make (queries analysed one way, items the other)."""

from __future__ import annotations

import hashlib
import json

from skill_retriever.algorithms.tokenize import (
    BM25_ANALYSER_VERSION,
    bm25_analyser,
    bm25_term_counts,
)

SAMPLE = [
    "Deploying the checkout-api services to prod; deploy deploys DEPLOYED deployment",
    "snake_case and CamelCase, v3.5.0, INC-1043, deploy-v3.5.0/next, ___ __init__ _x_",
    "Akinoshū café naïve ＦＵＬＬＷＩＤＴＨ ﬁle İstanbul straße ΣΊΣΥΦΟΣ",
    "a the and of to in is it you your please find show give tell need want using use via e.g",
    "line\x00with\tcontrol\rchars -- . / .. -x- x. .x a/b/c a.b.c 3d 2024-01-01",
    "Generously running happily through organizational relationships, studies and flies",
    "Write and run postgres schema migrations with alembic; roll back a failed migration safely.",
]
#: sha256 of the sample's counts under version 1 (update both together).
PINNED = {1: "69421dd507a84a868ae1d63a3cd2b8a59e1817f06564fb1eadf9bd106a0ef144"}


def digest() -> str:
    counts = [sorted(bm25_term_counts(text).items()) for text in SAMPLE]
    return hashlib.sha256(json.dumps(counts, ensure_ascii=False).encode("utf-8")).hexdigest()


def test_the_analyser_version_pins_its_output() -> None:
    assert PINNED.get(BM25_ANALYSER_VERSION) == digest(), (
        "bm25_terms gives other terms than BM25_ANALYSER_VERSION "
        f"{BM25_ANALYSER_VERSION} did: bump it in algorithms/tokenize.py (indexes then count their "
        "items again) and pin the new digest here; if only the stemmer package changed, its "
        "version is already in bm25_analyser(): pin the new digest"
    )


def test_the_analyser_names_its_version_and_stemmer() -> None:
    name = bm25_analyser()
    assert name.startswith(f"bm25 {BM25_ANALYSER_VERSION}; snowballstemmer ")
    assert "PyStemmer " in name and "unicode " in name
