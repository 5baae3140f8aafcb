"""Which words of a query an item holds, as the keyword search reads words.

The keyword channel (BM25) matches stems (`algorithms.tokenize.bm25_terms`): "bake" finds
an agent that says "baked", "wedding" finds a command that says "Wed". A reason line that
looked for the query's words only as written named no word for such an item and called
it "close in meaning (keyword, graph)" (six real skill catalogues: "bake sourdough
bread" put unity-game-developer at keyword #4 through "baked"; "plan a wedding" put
sync-status at keyword #1 through "Wed"): a keyword hit said as a meaning, hiding the
word that drew it. Here a query word counts as held when the item holds it as written or
holds a word of the same stem, and the item's own word is kept, so the line can show it.
"""

from __future__ import annotations

from dataclasses import dataclass

from skill_retriever.algorithms.query_terms import STOP_WORDS
from skill_retriever.algorithms.stack_traces import condense_stack_traces
from skill_retriever.algorithms.tokenize import bm25_tokens, stem, tokenize_words
from skill_retriever.model import Node

__all__ = ["MIN_TERM_LENGTH", "WordMatch", "word_matches"]

#: Query words shorter than this are never named (a letter alone matches almost
#: anything). Two letters are named: the keyword search reads "db" and "ci", and an item
#: it found through "db" alone read "close in meaning (semantic, keyword)".
MIN_TERM_LENGTH = 2


@dataclass(frozen=True)
class WordMatch:
    """One query word an item holds.

    Attributes:
        word: The query's word, lower-cased.
        as_written: The item's word it matched: ``word`` itself, or the first word of the
            item with the same stem ("baked" for "bake").
    """

    word: str
    as_written: str

    def text(self) -> str:
        """``bake``, or ``bake (as baked)`` where the item holds another form of it."""
        return self.word if self.as_written == self.word else f"{self.word} (as {self.as_written})"


def word_matches(query: str, node: Node) -> tuple[WordMatch, ...]:
    """Words of the query (no stop words, >= 2 characters) that ``node``'s text holds as
    written or by their stem, in query order, each once; of a stack trace, the words the
    search read (`condense_stack_traces`), not its boilerplate."""
    tokens = bm25_tokens(node.embedding_text())
    have = set(tokens)
    words = [w for w in tokenize_words(condense_stack_traces(query)) if len(w) >= MIN_TERM_LENGTH and w not in STOP_WORDS]
    by_stem: dict[str, str] | None = None  # built only when a word is not there as written
    out: list[WordMatch] = []
    for w in dict.fromkeys(words):
        if w in have:
            out.append(WordMatch(w, w))
            continue
        if not w.isalpha():  # BM25 keeps identifiers and words with digits unstemmed
            continue
        if by_stem is None:
            by_stem = {}
            for t in tokens:
                if t.isalpha() and t not in STOP_WORDS:
                    by_stem.setdefault(stem(t), t)
        if (written := by_stem.get(stem(w))) is not None:
            out.append(WordMatch(w, written))
    return tuple(out)
