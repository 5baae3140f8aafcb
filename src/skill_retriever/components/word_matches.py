"""Which words of a query an item holds, as the keyword search reads words.

The keyword channel (BM25) matches stems (`algorithms.tokenize.bm25_terms`): "bake" finds
an agent that says "baked", "wedding" finds a command that says "Wed". A reason line that
looked for the query's words only as written named no word for such an item and called
it "close in meaning (keyword, graph)" (six real skill catalogues: "bake sourdough
bread" put unity-game-developer at keyword #4 through "baked"; "plan a wedding" put
sync-status at keyword #1 through "Wed"): a keyword hit said as a meaning, hiding the
word that drew it. Here a query word counts as held when the item holds it as written or
holds a word of the same stem, and the item's own word is kept, so the line can show it.

Which query words an item holds is read from the terms the keyword search stored for it
(`KeywordSnapshot.holds`), so it costs the same for a 2 KB or a 2 MB item; the item's own
form of a word ("baked") is looked for in the part of its text that coverage reads
(:data:`~skill_retriever.stores.snapshot.COVERAGE_CHARS`, name and description first).
Tokenizing the whole text of every result shown took about a second for a 1.7 MB
SKILL.md, twice per query (the reason line and the rationale). A word held only past
that part is named as the query writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from skill_retriever.algorithms.query_terms import STOP_WORDS
from skill_retriever.algorithms.stack_traces import condense_stack_traces
from skill_retriever.algorithms.tokenize import bm25_terms, stem, tokenize_words
from skill_retriever.model import Node
from skill_retriever.stores.snapshot import COVERAGE_CHARS
from skill_retriever.stores.word_forms import WordForms

if TYPE_CHECKING:
    from skill_retriever.stores.snapshot import IndexSnapshot

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


def word_matches(query: str, node: Node, snapshot: IndexSnapshot | None = None) -> tuple[WordMatch, ...]:
    """Words of the query (no stop words, >= 2 characters) that ``node``'s text holds as
    written or by their stem, in query order, each once; of a stack trace, the words the
    search read (`condense_stack_traces`), not its boilerplate.

    With ``snapshot``, whether a word is held is read from the terms its keyword search
    stored for ``node`` (the whole text, as scored), and the item's forms are kept with the
    snapshot; without it, or for an item the keyword search does not read, from the first
    :data:`COVERAGE_CHARS` characters."""
    words = list(dict.fromkeys(
        w for w in tokenize_words(condense_stack_traces(query)) if len(w) >= MIN_TERM_LENGTH and w not in STOP_WORDS
    ))
    if not words:
        return ()
    forms = snapshot.word_forms(node) if snapshot is not None else WordForms.of(node.embedding_text(), COVERAGE_CHARS)
    held = _held(words, node, snapshot)
    out: list[WordMatch] = []
    for w in words:
        seen = _match(forms, w)
        if held is None:
            if seen is not None:
                out.append(seen)
        elif w in held:
            out.append(seen or WordMatch(w, w))
    return tuple(out)


def _term(word: str) -> str:
    # what `bm25_terms` makes of a query word that is no stop word
    return stem(word) if word.isalpha() else word


def _held(words: list[str], node: Node, snapshot: IndexSnapshot | None) -> frozenset[str] | None:
    """The words ``node``'s stored keyword terms hold; None when it has none to read."""
    if snapshot is None or snapshot.keywords.tokenizer is not bm25_terms:
        return None
    terms = snapshot.keywords.holds(node.id, {_term(w) for w in words})
    return None if terms is None else frozenset(w for w in words if _term(w) in terms)


def _match(forms: WordForms, word: str) -> WordMatch | None:
    """``word`` as the item writes it in the part `WordForms` read; None when it is not there."""
    if word in forms.tokens:
        return WordMatch(word, word)
    if not word.isalpha():  # BM25 keeps identifiers and words with digits unstemmed
        return None
    written = forms.by_stem.get(stem(word))
    return None if written is None else WordMatch(word, written)
