"""A query as text: validated and trimmed, its time phrase found, its parts bounded.

Used by ``plan_query`` (every query) and by ``Retriever.search_many`` (which embeds the
search texts of a batch in one call before the graph runs).

Long input: a query may be up to ``max_query_chars`` characters (100,000 by default: a
real agent task in a public tool benchmark runs to 18,686). The embedding reads what the
model reads (MiniLM: the first 256 word pieces), the keyword channel the first
``keyword_query_chars``, and entities, typed hops and query components the first
``plan_query_chars``: those are phrase-level signals, and their cost grows with length.

A pasted stack trace is searched for the code and the error it names, not for the words
every frame repeats (`algorithms.stack_traces`).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

from skill_retriever.algorithms.stack_traces import condense_stack_traces
from skill_retriever.algorithms.temporal import TimeWindow, parse_time_window, strip_time_phrase
from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import QueryError, QueryTooLongError

__all__ = ["clean_query", "long_query_note", "script_note", "search_text_of"]


#: A whole ANSI/VT escape sequence, as a terminal reads it: a string (OSC ``ESC ] ... BEL``
#: or ``ESC \``, and DCS, SOS, PM, APC alike), a CSI (``ESC [``, parameters, intermediates
#: and one final byte: colours, cursor moves) or ESC and one character after any
#: intermediates (``ESC 7``, ``ESC ( B``; not a space, so a stray ESC before a word takes
#: no letter of it). A colour code pasted from a terminal is no part of the query, and
#: removing only the ESC would leave "[31m" to be searched. No class takes an ESC, so the
#: scan is linear in the query's length.
_ESCAPE_SEQUENCE_RE = re.compile(
    r"\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)"  # a string: OSC, DCS, SOS, PM, APC
    r"|\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b[!-/]*[0-~]"  # ESC and one character
)
#: Format characters (zero-width space, direction marks, a BOM) and combining marks: text
#: made of these alone shows nothing, so it asks for nothing.
_INVISIBLE = frozenset({"Cf", "Mn", "Me"})


def clean_query(query: Any, max_chars: int) -> str:
    """The query trimmed, or a QueryError that says what is wrong with it.

    ANSI escape sequences are removed whole and other control characters become spaces; a
    query with no visible character left (blank, control, format or combining characters
    only) is empty. Other invisible characters among visible ones are kept: a zero-width
    joiner is part of an emoji, a combining accent part of its letter."""
    if isinstance(query, bytes):
        raise QueryError("the query is bytes; decode it to text (UTF-8) first")
    if not isinstance(query, str):
        raise QueryError(f"the query must be text, got {'None' if query is None else type(query).__name__}")
    if len(query) > max_chars and len(query.strip()) > max_chars:  # before any per-character work
        raise QueryTooLongError(len(query.strip()), max_chars)
    if "\x1b" in query:
        query = _ESCAPE_SEQUENCE_RE.sub("", query)
    # Control characters carry no meaning for retrieval; surrogates cannot be encoded.
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cs") else c for c in query).strip()
    if not any(not c.isspace() and unicodedata.category(c) not in _INVISIBLE for c in text):
        raise QueryError("the query is empty; ask for something, e.g. 'deploy a postgres migration'")
    return text


def search_text_of(query: str, config: RetrievalConfig, dated: bool = False) -> tuple[str, TimeWindow | None]:
    """The text the channels search and the window: the query with any stack trace in it
    condensed to the code it names (`condense_stack_traces`: a traceback's header is no
    time phrase, its frames' "File", "line" and "in" no topic), less its time phrase.
    ``dated``: the index's items carry dates (`dated_items.carries_dates`), so a day of a
    month ("since Nov 3", "on 2026-11-03") is a window too; elsewhere it is words of the
    query (a tool request's argument)."""
    now = config.now or datetime.now(UTC)
    query = condense_stack_traces(query)
    head = query[: config.plan_query_chars]
    window = parse_time_window(head, now, recent_days=config.recent_days, days=dated)
    if window is None:
        return query, None
    text = strip_time_phrase(head, window) + query[config.plan_query_chars :]
    return (text if text.strip() else query), window


def without_names(text: str, names: list[str]) -> str:
    """``text`` without each of ``names`` (any case), or ``text`` itself when nothing else
    would be left.

    A typed hop ("which deploy touched a service that checkout-api depends on") names the
    item its answers hang from, not what they say: searched with that name, the keyword
    and semantic channels ranked checkout-api's own deploys first, the items the question
    rules out. On the benchmark's incident world, its "connected" queries, MRR 73.4 ->
    89.3 (`skill-retriever benchmark --only incidents`; the other shapes unchanged)."""
    out = text
    for name in sorted(names, key=len, reverse=True):  # a longer name first: it may hold a shorter
        out = re.sub(re.escape(name), " ", out, flags=re.IGNORECASE)
    out = re.sub(r"\s+", " ", out).strip()
    return out if re.search(r"\w", out) else text


def keyword_text(search_text: str, config: RetrievalConfig) -> str:
    """What the keyword channel, and each ask's keyword search, read of the search text:
    its first ``keyword_query_chars`` characters."""
    return search_text[: config.keyword_query_chars]


def long_query_note(query: str, config: RetrievalConfig) -> str | None:
    """A warning for a query longer than the planning window, saying what reads what."""
    if len(query) <= config.plan_query_chars:
        return None
    return (
        f"long query ({len(query):,} characters): the embedding reads about its first 256 word "
        f"pieces, keywords its first {config.keyword_query_chars:,} characters, entities and "
        f"query components its first {config.plan_query_chars:,}"
    )


def script_note(query: str, model: str, judged: bool = False) -> str | None:
    """A warning for a query written mostly in another script than Latin when the index's
    model is the bundled MiniLM, which was trained on English text: a question in Russian
    or Chinese is embedded poorly (a user's Russian request for a fuzzer got "nothing
    fits" where the English one found three fuzzing skills), and the keyword channel
    matches only words the items themselves contain. Latin-script languages are not
    flagged: German read well enough in the same walkthrough. ``judged``: the answer has a
    "nothing fits" judgement, which the note then says is unreliable for the query too (it
    is drawn from English probe requests: `calibration.language`), in the same sentence
    rather than a second warning for the same cause."""
    from skill_retriever.stores.embedder import DEFAULT_MODEL

    if model != DEFAULT_MODEL:
        return None  # another model may well read the language
    scripts = _script_units(query)
    units = sum(scripts.values())
    if units < 2 or 2 * scripts.get("LATIN", 0) >= units:
        return None
    most = max((n for n in scripts if n != "LATIN"), key=lambda n: scripts[n])
    script = _SCRIPT_NAMES.get(most, most.title())
    flag = (", so its nothing_fits flag is unreliable ('nothing fits' is drawn from English probe requests)"
            if judged else "")
    return (
        f"the query is written mostly in {script} script; the bundled embedding model (all-MiniLM-L6-v2) "
        f"was trained on English and reads it poorly, and keywords match only words the items contain{flag}: "
        "ask in English, or index with a multilingual model (skill-retriever index --embedder NAME)"
    )


#: How a script is named to a person, where its Unicode name does not do.
_SCRIPT_NAMES = {"CJK": "Chinese or Japanese (CJK)", "HANGUL": "Korean (Hangul)"}
#: Scripts written without spaces between words: each character counts as a word.
_CHARACTER_SCRIPTS = frozenset({"CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI"})


def _script_units(text: str) -> dict[str, int]:
    """Words per script (``LATIN``, ``CYRILLIC``, ``CJK``, ...): a run of letters of one
    script is a word, and so is each character of a script written without spaces, so
    that "如何配置 CI" counts four Chinese words against one Latin, not by letters."""
    counts: dict[str, int] = {}
    last = ""
    for c in text:
        script = unicodedata.name(c, "?").split(" ", 1)[0] if c.isalpha() else ""
        if script and (script != last or script in _CHARACTER_SCRIPTS):
            counts[script] = counts.get(script, 0) + 1
        last = script
    return counts
