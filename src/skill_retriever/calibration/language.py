"""Whether a catalogue, or a query, reads as English: the "nothing fits" line's reach.

The line is drawn from English probe requests (``data/probes.txt``) searched with the
bundled all-MiniLM-L6-v2, an English model. On a catalogue in another language both miss:
the probes land far from every item, so the line sits low, and the catalogue's own
language lands no closer to the model's idea of meaning. So a German query nothing in a
German catalogue answers scores as a fit (on a 7-skill German catalogue, 0 of 8 off-topic
German requests were flagged; "Wie backe ich Sauerteigbrot" had a confidence of 0.97).
Nothing is learned about other languages here (no new probes): the index only learns,
without labels, whether its catalogue reads as English, and says plainly when it does
not that flags are weak on it. A query that reads as another language on an English
catalogue is told so too.

- `english_share`: the share of the items' words that are common English function words
  ("the", "of", "with": words every English text uses, whatever its topic), worked out
  when the calibration is drawn and stored with it; below `ENGLISH_SHARE_MIN` the
  catalogue does not read as English.
- `foreign_query`: whether one query reads as another language: most of its letters in
  another script (Chinese, Cyrillic, Arabic...), or two or more common function words of
  German, French, Spanish, Italian, Portuguese or Dutch and fewer English ones. A short
  English query holds few function words, so the check looks for signs of another
  language rather than for English.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from skill_retriever.model import ANSWER_KINDS

if TYPE_CHECKING:
    from skill_retriever.filters import Filters
    from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = [
    "ENGLISH_SHARE_MIN", "SAMPLE_CHARS", "SAMPLE_ITEMS", "catalogue_note", "catalogue_share", "english_share",
    "foreign_query",
    "language_note", "query_note", "reads_as_english", "sample", "without_function_words",
]

#: Common English function words that are not common words of German, French, Spanish,
#: Italian, Portuguese or Dutch ("in", "an", "so", "was", "die", "a", "on", "as" are, so
#: they are left out: a German text would count them).
_ENGLISH = frozenset("""
the of and to is for that with this be are by or from you your it its not can if when
which what how all any each their they we our has have were should must may does than
then there these those about after before between through without within only also more
such other who where why but been being would could into using use used out up new
""".split())
#: Common function words of German, French, Spanish, Italian, Portuguese and Dutch that are
#: no English word (nor a common abbreviation in a developer's query: "es", "di", "des",
#: "con", "il", "el" are left out).
_OTHER = frozenset("""
der das und ist nicht ich wie ein eine einen einem einer mit für auf den dem sich von auch
oder aber wenn kann werden wird sind bei nach über mein meine wir dass noch nur welche
warum wo zum zur ihr ihre
les une pour avec dans qui est sont nous vous comment quel quelle cette mais pas sur aux
je ne du au
los las del para una por está cómo qué cuál pero muy más hay tiene yo
gli della delle sono questo questa nel nella perché
não uma você são das dos em
het een niet zijn ik hoe wat voor
""".split())
#: Below this share of English words among its items' words that tell a language, a
#: catalogue does not read as English: more of them are of another language.
ENGLISH_SHARE_MIN = 0.5
#: How many items, and how much of each, the share reads: enough for a stable share,
#: little enough to cost nothing next to the probes' search.
SAMPLE_ITEMS = 2000
SAMPLE_CHARS = 2000
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
#: A word of `_OTHER` standing alone (not part of a longer word or of an identifier).
_OTHER_WORD = re.compile(r"(?<![\w'’-])(?:" + "|".join(sorted(_OTHER, key=len, reverse=True)) + r")(?![\w'’-])",
                         re.IGNORECASE)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def sample(ids: Sequence[str], items: int = SAMPLE_ITEMS) -> Sequence[str]:
    """At most about ``items`` of ``ids``, spread evenly over them."""
    return ids[:: max(1, len(ids) // items)]


def without_function_words(text: str) -> str:
    """``text`` without the function words of German, French, Spanish, Italian, Portuguese
    and Dutch (`_OTHER`) when it reads as one of them (`foreign_query`), else ``text``
    itself. The keyword channel's backing of a match must come from the query's own
    subject: "Wo kann ich einen Hund adoptieren" and a German catalogue share "einen", not
    a topic. English function words are no BM25 term already
    (`algorithms.tokenize.STOP_WORDS`); English text keeps its words, since a few of
    `_OTHER` are names in it ("Los Angeles", "Las Vegas", "Yo")."""
    if not foreign_query(text):
        return text
    stripped, found = _OTHER_WORD.subn(" ", text)
    return " ".join(stripped.split()) if found else text


def _latin(word: str) -> bool:
    return word.isascii() or unicodedata.name(word[0], "").startswith("LATIN")


def english_share(texts: Iterable[str]) -> float | None:
    """Of the words of ``texts`` that tell a language (`_ENGLISH`, `_OTHER`, and words of
    another script than Latin), the share that are English; None when none does (terse
    English, "Edit PDF files, variant 12", holds no function word: no sign of another
    language either, so it is taken as English). The first `SAMPLE_CHARS` characters of
    each text are read (`sample` picks the texts of a large catalogue)."""
    english = other = 0
    for text in texts:
        for word in _words(text[:SAMPLE_CHARS]):
            if word in _ENGLISH:
                english += 1
            elif word in _OTHER or not _latin(word):
                other += 1
    return round(english / (english + other), 4) if english + other else None


def catalogue_share(
    snapshot: IndexSnapshot, visible: Filters | None = None, items: int = SAMPLE_ITEMS
) -> float | None:
    """`english_share` of the items that can be an answer (a `sample` of about ``items`` of
    them, in id order, in a large catalogue): what a calibration stores, and what one
    stored before it held the share is given when read (`calibration.stored`). With
    ``visible``, of those its caller may see (`calibration.access_fit`)."""
    nodes = snapshot.nodes
    answers = sorted(i for i, n in nodes.items()
                     if n.kind.value in ANSWER_KINDS and (visible is None or visible.can_see(n)))
    return english_share(f"{nodes[i].name}\n{nodes[i].description}\n{nodes[i].text}" for i in sample(answers, items))


def _other_script(words: list[str]) -> bool:
    """Whether most of ``words`` are of another script than Latin (a run of Chinese
    characters counts as one word: "如何为 Python 项目配置 CI 流水线" has three against two)."""
    return sum(1 for w in words if not _latin(w)) * 2 > len(words)


def foreign_query(query: str) -> bool:
    """Whether ``query`` reads as another language than English (see the module doc)."""
    words = _words(query)
    if _other_script(words):
        return True
    other = {w for w in words if w in _OTHER}
    return len(other) >= 2 and len(other) > sum(1 for w in words if w in _ENGLISH)


def reads_as_english(share: float | None) -> bool:
    """Whether a catalogue whose `english_share` is ``share`` reads as English (one never
    measured, or of no words, is taken to)."""
    return share is None or share >= ENGLISH_SHARE_MIN


def _tuned(bundled: bool) -> str:
    return ("'nothing fits' (drawn from English probe requests) and the bundled model are tuned for English text"
            if bundled else "'nothing fits' is drawn from English probe requests")


def catalogue_note(share: float | None, bundled: bool = True) -> str | None:
    """What ``stats`` and each judged answer say of a catalogue that does not read as
    English (``bundled``: the index embeds with the bundled MiniLM)."""
    if reads_as_english(share):
        return None
    return (f"the catalogue does not read as English (of its words that tell a language, {share:.0%} are "
            f"English): {_tuned(bundled)}, so nothing_fits flags are weak on this catalogue (a request it "
            "cannot answer may be judged to fit)")


def query_note(query: str, share: float | None, bundled: bool = True) -> str | None:
    """What an answer says of a query that reads as another language, on a catalogue that
    reads as English (on one that does not, `catalogue_note` says it for every query)."""
    if not reads_as_english(share) or not foreign_query(query):
        return None
    return f"the query does not read as English: {_tuned(bundled)}, so its nothing_fits flag is unreliable"


def language_note(query: str, share: float | None, bundled: bool = True) -> str | None:
    """An answer's warning on language, if any (`catalogue_note`, else `query_note`)."""
    return catalogue_note(share, bundled) or query_note(query, share, bundled)
