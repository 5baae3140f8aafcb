"""What a catalogue of long items suggests: its items mostly run past what the embedding
model reads (at least `MIN_LONG_SHARE` of them longer than `LONG_ITEM_WORDS` words:
skills, agents, documents). all-MiniLM-L6-v2 reads the first 256 word pieces of a text,
so the model sees an item's name, description and opening, while BM25 reads all of it.
Two settings follow (`calibration.defaults` applies them, a caller's value wins):

* **feedback** (``feedback_docs`` = `FEEDBACK_DOCS`, ``algorithms.feedback``): the
  semantic channel searches again from the query moved toward the best items of a first
  keyword + semantic fusion: the items both channels rank first say more about the
  request than its words say to the model. Items longer than 200 words (the benchmark's
  notes give each set's share): the three judged skill folders 83 %, the same read as
  documents 85 %, the tool sets 0-14 %. Measured (``skill-retriever benchmark --only
  skills,toolret --max-queries 500``, commit 3aefdde; the rows "full", "full, no
  feedback" and "full, feedback forced"), nDCG@10: skills dev 75.8 -> 78.6,
  dev-as-documents 76.3 -> 79.0, the seven tool sets unchanged (it stays off); forced on
  them it lowers six of seven by 0.3 to 1.3 (ultratool unchanged), which is why the
  items' length decides.
* **no multifactor ranking in the fusion** (``multifactor_ranking=False``,
  ``phases.rank_multifactor``): the smart route ranks its graph neighbourhood mostly by
  each item's cosine to the query (factor 0.50 of 1.0), read from the same stored vector
  the semantic channel searched. Fused as the graph channel, it is a second vote for
  what the model read of each item's opening, and here that vote outweighs the keyword
  channel, which read the whole item. Where items are short the vector reads all of an
  item and the ranking earns its place: on the tool sets whose route is smart, the
  graph channel off moves nDCG@10 by -1.9 (metatool), -0.7 (stabletoolbench) and -0.1
  (seal-tools) (the README's row "full -graph", ``benchmark --only skills,toolret``).
  On long items it costs: skills dev nDCG@10 78.6 with it, 81.0 without (MRR 91.8 and
  93.7); dev-as-documents 79.0 and 79.9 (``skill-retriever benchmark --only skills`` at
  711f4fd, the rows "full, multifactor ranking forced" and "full"; "nothing fits" flags
  the same queries either way). A typed hop's walk (the ppr route) is not this ranking
  and keeps counting.

Tried and left out (December 2026, skills dev, a scratch patch of the semantic channel):
scoring a long item by its best window of 150-180 words (MaxP, Dai & Callan, SIGIR 2019:
each window embedded at index time, with or without the name and description before it),
alone or mixed with its opening's vector. The default fell every way, a paraphrased
request the most (the hybrid-search query lost its right skill from the top). The fallback
reranker, which rescores by the best window, lowered it too (the README's row "full +
embedding rerank"); the keyword channel is what reads past the opening. Nor did
embedding a long item's outline (its headings) after its name and description, before
its body or after its first 60 words, so the window sees the whole item's plan: the
dense search alone moved by under a point, the default fell by two or more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from skill_retriever.calibration.index_shape import long_item_share

if TYPE_CHECKING:
    from skill_retriever.model import Node
    from skill_retriever.stores.snapshot import IndexSnapshot

#: A catalogue where at least this share of the items run past `LONG_ITEM_WORDS` words
#: gets the settings of the module docstring.
MIN_LONG_SHARE = 0.5
#: About what the bundled all-MiniLM-L6-v2 reads of a text: 256 word pieces, some 190
#: English words (a word is 1.3 word pieces in English prose; more in code).
LONG_ITEM_WORDS = 200
#: How many of the first fusion's best items the query moves toward.
FEEDBACK_DOCS = 2


def long_item_settings(snapshot: IndexSnapshot, seen: Callable[[Node], bool] | None = None) -> tuple[dict[str, Any], str]:
    """A catalogue's settings for long items (none when its items are short) and why, over
    the items ``seen`` admits (every one when None); the evidence is said whichever way it
    decides, as the route's is."""
    long = long_item_share(snapshot, LONG_ITEM_WORDS, seen=seen)
    if long >= MIN_LONG_SHARE:
        return {"feedback_docs": FEEDBACK_DOCS, "multifactor_ranking": False}, (
            f"{long:.0%} of its items run past {LONG_ITEM_WORDS} words (>= {MIN_LONG_SHARE:.0%}), beyond what the "
            f"embedding reads: the semantic channel searches again from the query moved toward the {FEEDBACK_DOCS} "
            "best items of a keyword + semantic fusion, and the smart route's ranking, mostly that embedding's "
            "cosine, is left out of the fusion")
    return {}, (f"the semantic channel searches once and the smart route's ranking is fused: {long:.0%} of its items "
                f"run past {LONG_ITEM_WORDS} words (< {MIN_LONG_SHARE:.0%})")


__all__ = ["FEEDBACK_DOCS", "LONG_ITEM_WORDS", "MIN_LONG_SHARE", "long_item_settings"]
