"""Flag items whose text looks like an instruction to the model rather than content.

Retrieved items go straight into an LLM's context, so an item can try to steer the
model that reads it (Greshake et al. 2023, "Not what you've signed up for: compromising
real-world LLM-integrated applications with indirect prompt injection"). Nothing here
blocks anything: :func:`scan_text` returns reasons, results carry them as ``flags``, and
``RetrievalConfig.drop_flagged`` drops flagged items before the token budget.

What is flagged, one reason per kind (``"<kind>: <detail>"``):

* ``prompt_injection``: "ignore/disregard/forget (all) previous instructions", "forget
  everything you were told", the same override in French, Spanish, German, Portuguese and
  Italian, "you are now <a role>", "from now on you ...", "reveal your system prompt", "do
  not tell the user"; an override is found too with its letters spaced out
  (``I-g-n-o-r-e``) or written as digits (``1gn0re``), and its reason says so.
* ``system_prompt_mimicry``: chat-template markers (``<|im_start|>``, ``[INST]``,
  ``<<SYS>>``, ``<|eot_id|>``, ``<system>``...), and a line starting ``system:`` outside a
  closed fenced code block of a programming or configuration language (there it is a
  config key or a docstring entry: ``system: OpenMM System``).
* ``chat_turn_mimicry``: a ``Human:`` line (Anthropic's text prompt format) that gives an
  order or that an ``Assistant:`` line answers, outside fenced code blocks.
* ``tool_call_mimicry``: tool-call and tool-result markup (``<tool_call>``,
  ``<function_calls>``, ``<invoke name=``, ``"tool_calls":``, ``<|python_tag|>``...), and
  a tool-use block in JSON (``"type": "tool_use"``) outside fenced code blocks.
* ``hidden_unicode``: zero-width characters, bidi overrides and isolates ("Trojan
  Source", Boucher & Anderson 2023), Unicode tag characters (U+E0000-U+E007F, which
  render as nothing but spell ASCII; the hidden text is scanned for injection too), soft
  hyphens, other invisible fillers and joiners, a variation selector inside a word (after
  an emoji or an ideograph it is normal and not flagged), and a direction mark inside a
  Latin, Greek or Cyrillic word (in right-to-left text it is normal and not flagged).
* ``mixed_script``: a word that mixes Latin letters with Cyrillic or Greek look-alikes
  (``Іgnоrе`` with a Cyrillic І, о and е): it reads as English to a person and a model,
  but no English phrase or keyword matches it.
* ``keyword_stuffing``: one word is at least a quarter of a text of 40+ words (it games
  BM25 term frequency and pulls the embedding towards that word; read in the first
  100,000 characters).
* ``repeated_identifier``: a 64+ character identifier that is one short unit repeated
  (``deploydeploydeploy...``, ``pg-pg-pg-...``).

The agent-style text of skills and agents ("You are a senior reviewer...") is what they
are for, so it is not flagged; only attempts to override what came before are. Nor are
the ``user:``/``assistant:`` examples of Claude Code's agent descriptions, or transcripts
and API payloads a skill documents in a code block (`phrases` says why).

A node is read whole (:func:`scan_node`): its name, description and text, and also its
tags and the strings in its attrs (its frontmatter among them), which reach a model
through an MCP ``detail="full"`` answer; a reason found there says where.

Obfuscation does not hide a phrase: phrases are matched on a normalised copy (NFKC, which
also folds fullwidth and mathematical letters; every invisible and format character
removed; Cyrillic and Greek look-alikes mapped to the Latin letter they imitate, after the
confusables of Unicode TR39; case-folded; whitespace runs collapsed), and the obfuscation
itself is flagged as ``hidden_unicode`` or ``mixed_script``.

Cost: every check is linear in the text, because items are anyone's data and a scan runs
for the results of a query (once per item text); a pattern that backtracks
super-linearly would let one crafted item stall it. The normalised copy never holds two
adjacent variable-length whitespace runs, the character classes are matched by the regex
engine in C, and the mixed-script pattern starts only at a word's first letter and uses
possessive repeats. A query reads an item's flags through ``IndexSnapshot.flags``, which
scans each item text once while the index is open (``stores.text_verdicts``).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from skill_retriever.algorithms.tokenize import bm25_tokens
from skill_retriever.model import Node
from skill_retriever.safety import charsets, phrases
from skill_retriever.safety.charsets import BIDI, TAGS, ZERO_WIDTH

__all__ = ["scan_inputs", "scan_node", "scan_read", "scan_text", "stuffing_words", "visible_text"]

TAG_FIRST, TAG_LAST = 0xE0000, 0xE007F

_TAG_TO_ASCII = {cp: (cp - TAG_FIRST if 0x20 <= cp - TAG_FIRST < 0x7F else None) for cp in range(TAG_FIRST, TAG_LAST + 1)}
_TAG_RE = re.compile(f"[{TAGS}]")
_NEWLINES_RE = re.compile(r"\n+")
_INVISIBLE_RE = re.compile(f"[{charsets.INVISIBLE}]")
_SKELETON = str.maketrans(charsets.CONFUSABLES)
#: What :func:`_hidden` counts, each with the words of its reason. Direction marks and
#: script-specific format characters count only inside a Latin, Greek or Cyrillic word
#: (possessive run, so a long run of them is read once).
_LGC = charsets.LGC_LETTERS
_HIDDEN_KINDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(f"[{ZERO_WIDTH}]"), "zero-width character(s)"),
    (re.compile(f"[{BIDI}]"), "bidi override/isolate character(s)"),
    (_TAG_RE, "Unicode tag character(s) (invisible text)"),
    (re.compile(f"[{charsets.SOFT_HYPHEN}]"), "soft hyphen(s)"),
    (charsets.SUSPICIOUS_VS_RE, "variation selector(s) inside words"),
    (
        re.compile(f"(?<=[{_LGC}])[{charsets.DIRECTION_MARKS}{charsets.SCRIPT_FORMAT}]++(?=[{_LGC}])"),
        "place(s) with direction or format marks inside a word",
    ),
    (re.compile(f"[{charsets.OTHER_INVISIBLE}]"), "other invisible character(s)"),
)
#: What :func:`visible_text` removes: the characters :func:`_hidden` flags wherever they
#: stand, and variation selectors where they have no use.
_NOT_SHOWN_RE = re.compile(
    f"[{ZERO_WIDTH}{BIDI}{TAGS}{charsets.SOFT_HYPHEN}{charsets.OTHER_INVISIBLE}]|{charsets.SUSPICIOUS_VS_RE.pattern}"
)
# A word (a run of letters) holding a Latin letter and a Cyrillic/Greek look-alike, in
# either order. It starts only where a word starts and every repeat is possessive, so each
# letter is read a bounded number of times.
_LAT = f"[{charsets.LATIN_LETTERS}]"
_CG = "[" + "".join(charsets.CYRILLIC_GREEK_LOOKALIKES) + "]"
_MIXED_RE = re.compile(
    rf"(?<![^\W\d_])(?:(?!{_LAT}|{_CG})[^\W\d_])*+"
    rf"(?:{_LAT}(?:(?!{_CG})[^\W\d_])*+{_CG}|{_CG}(?:(?!{_LAT})[^\W\d_])*+{_LAT})"
)
_WORD_TAIL_RE = re.compile(r"[^\W\d_]*")

#: Each phrase kind and what finds it in the normalised text (`phrases`), in reason order.
_PHRASES: tuple[tuple[str, Callable[[str], str | None]], ...] = (
    ("prompt_injection", phrases.injection),
    ("system_prompt_mimicry", phrases.system_markup),
    ("chat_turn_mimicry", phrases.chat_turn),
    ("tool_call_mimicry", phrases.tool_call),
)
STUFFING_MIN_WORDS = 40
STUFFING_MIN_COUNT = 20
STUFFING_SHARE = 0.25
LONG_IDENTIFIER = 64
PERIOD_WINDOW = 4096
#: Stuffing is read in the first 100,000 characters: it games BM25 and the embedding in
#: short texts (BM25 saturates term frequency and normalises by length), and tokenizing
#: megabytes in Python would make a first scan slow.
STUFFING_WINDOW = 100_000
_STUFFING_IGNORED = frozenset(["a", "an", "and", "the", "of", "to", "in", "is", "it", "for", "on", "or", "be", "as", "at", "by", "with", "this", "that"])


def _unhidden(text: str) -> str:
    """NFKC of ``text`` without invisible and format characters: what a reader sees."""
    text = unicodedata.normalize("NFKC", text)
    return text if text.isascii() else _INVISIBLE_RE.sub("", text)


def _flatten(seen: str) -> str:
    """The Latin skeleton of ``seen`` (an :func:`_unhidden` text), case-folded, one
    ``" "`` or ``"\n"`` per whitespace run: what the phrase patterns read."""
    text = (seen if seen.isascii() else seen.translate(_SKELETON)).casefold()
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return _NEWLINES_RE.sub("\n", "\n".join(lines))


def _normalise(text: str) -> str:
    return _flatten(_unhidden(text))


def _hidden(text: str) -> tuple[str | None, str]:
    """A reason for hidden characters (or None), and the ASCII that tag characters spell."""
    if text.isascii():
        return None, ""
    parts: list[str] = []
    for pattern, what in _HIDDEN_KINDS:
        n = pattern.subn("", text)[1]  # counted by the regex engine, not a Python loop
        if n:
            parts.append(f"{n} {what}")
    spelled = "".join(_TAG_RE.findall(text)).translate(_TAG_TO_ASCII)
    return ("hidden_unicode: " + ", ".join(parts)) if parts else None, spelled


def _mixed_script(seen: str) -> str | None:
    """A reason when a word of ``seen`` (an :func:`_unhidden` text) mixes Latin letters
    with Cyrillic or Greek look-alikes, else None."""
    if seen.isascii():
        return None
    first = _MIXED_RE.search(seen)
    if first is None:
        return None
    n = _MIXED_RE.subn("", seen)[1]
    tail = _WORD_TAIL_RE.match(seen, first.end())
    word = seen[first.start() : tail.end() if tail else first.end()]
    shown = word if len(word) <= 40 else word[:37] + "..."
    return f"mixed_script: {n} word(s) mix Latin letters with Cyrillic/Greek look-alikes, e.g. {shown!r}"


def _smallest_period(s: str) -> int:
    """Length of the shortest unit whose repetition ``s`` is a prefix of (the
    Knuth-Morris-Pratt prefix function; linear)."""
    fail = [0] * len(s)
    k = 0
    for i in range(1, len(s)):
        while k and s[i] != s[k]:
            k = fail[k - 1]
        if s[i] == s[k]:
            k += 1
        fail[i] = k
    return len(s) - fail[-1] if s else 0


def stuffing_words(text: str) -> list[str]:
    """The words the keyword-stuffing check reads of ``text``: :func:`bm25_tokens` of its
    first :data:`STUFFING_WINDOW` characters (`scan_read` takes them ready made)."""
    return bm25_tokens(text[:STUFFING_WINDOW])


def _stuffing(text: str, words: Sequence[str] | None = None) -> list[str]:
    reasons: list[str] = []
    tokens = stuffing_words(text) if words is None else words
    for word in tokens:
        if len(word) >= LONG_IDENTIFIER:
            head = word[:PERIOD_WINDOW]  # a repetition shows in its first few KB
            unit = _smallest_period(head)
            if unit * 3 <= len(head):
                shown = word[:unit] if unit <= 30 else word[:27] + "..."
                reasons.append(f"repeated_identifier: a {len(word)}-character token repeats {shown!r}")
                break
    if len(tokens) >= STUFFING_MIN_WORDS:
        counts = Counter(t for t in tokens if t not in _STUFFING_IGNORED)
        if counts:
            word, n = counts.most_common(1)[0]
            share = n / len(tokens)
            if n >= STUFFING_MIN_COUNT and share >= STUFFING_SHARE:
                shown = word if len(word) <= 40 else word[:37] + "..."
                reasons.append(f"keyword_stuffing: {shown!r} is {share:.0%} of {len(tokens)} words")
    return reasons


def visible_text(text: str) -> str:
    """``text`` without the invisible characters that ``hidden_unicode`` flags wherever
    they stand (zero-width, bidi control, tag, soft hyphen, fillers) and without variation
    selectors where they have no use (for snippets)."""
    if text.isascii():
        return text
    return _NOT_SHOWN_RE.sub("", text)


def scan_text(text: str, words: Sequence[str] | None = None) -> tuple[str, ...]:
    """Reasons why ``text`` looks like an instruction to the model; empty when it does not.

    Args:
        text: Any text (any Unicode, any length; the cost is linear in its length).
        words: ``stuffing_words(text)``, where the caller has them already (None: read here).

    Returns:
        One ``"<kind>: <detail>"`` string per kind of finding, in a fixed order.
    """
    return _scan(text, stuffing=True, words=words)


def _scan(text: str, *, stuffing: bool, words: Sequence[str] | None = None) -> tuple[str, ...]:
    if not isinstance(text, str) or not text:
        return ()
    reasons: list[str] = []
    hidden, spelled = _hidden(text)
    seen = _unhidden(text)
    flat = _flatten(seen)
    hay = flat if not spelled else f"{flat}\n{_normalise(spelled)}"
    for kind, find in _PHRASES:
        found = find(hay)
        if found is not None:
            reasons.append(f"{kind}: {found}")
    if hidden:
        reasons.append(hidden)
    mixed = _mixed_script(seen)
    if mixed:
        reasons.append(mixed)
    if stuffing:
        reasons.extend(_stuffing(text, words))
    return tuple(reasons)


def scan_node(node: Node) -> tuple[str, ...]:
    """:func:`scan_text` of everything a model would read of ``node``: its name,
    description and text, then its tags and the text in its attrs (the frontmatter,
    which an MCP ``detail="full"`` answer returns whole), each reason there saying where.
    Those are read for every kind but keyword stuffing: a list of file names repeats
    "md" by nature, and stuffing games the search, which reads the text.
    A query reads it through ``IndexSnapshot.flags``, which keeps it per item text
    (``stores.text_verdicts``)."""
    return scan_read(*scan_inputs(node))


def scan_inputs(node: Node) -> tuple[str, dict[str, str]]:
    """Everything :func:`scan_node` reads of ``node``: its embedding text, and the text of
    its tags and of each attr by where it stands (``"tags"``, ``"attrs.<key>"``), in order.
    The verdict is a function of these alone (:func:`scan_read`), so they are its cache key."""
    fields = {"tags": list(node.tags), **{f"attrs.{k}": v for k, v in node.attrs.items()}}
    return node.embedding_text(), {where: "\n".join(_strings(value)) for where, value in fields.items()}


def scan_read(text: str, texts: Mapping[str, str], words: Sequence[str] | None = None) -> tuple[str, ...]:
    """:func:`scan_node` of what :func:`scan_inputs` read of a node; ``words``:
    ``stuffing_words(text)`` where the caller has them (`stores.text_verdicts`)."""
    reasons = list(scan_text(text, words))
    # One scan of them all; each key alone only when it finds something (rarely).
    found = _scan("\n".join(texts.values()), stuffing=False)
    kinds = {r.split(":", 1)[0] for r in reasons}
    for reason in found:
        kind = reason.split(":", 1)[0]
        if kind in kinds:
            continue
        where = next((w for w, t in texts.items() if any(r.startswith(f"{kind}:") for r in _scan(t, stuffing=False))), None)
        reasons.append(f"{reason} (in {where or 'its tags and attrs'})")
    return tuple(reasons)


def _strings(value: object) -> list[str]:
    """Every string in ``value`` (a JSON-like value: mapping keys too), depth first;
    iterative, as attrs may nest as deep as ingest allows."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, Mapping):
            for k, v in reversed(list(item.items())):
                stack += [v, k]
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
    return out
