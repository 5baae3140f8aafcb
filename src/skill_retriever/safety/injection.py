"""Flag items whose text looks like an instruction to the model rather than content.

Retrieved items go straight into an LLM's context, so an item can try to steer the
model that reads it (Greshake et al. 2023, "Not what you've signed up for: compromising
real-world LLM-integrated applications with indirect prompt injection"). Nothing here
blocks anything: :func:`scan_text` returns reasons, results carry them as ``flags``, and
``RetrievalConfig.drop_flagged`` drops flagged items before the token budget.

What is flagged, one reason per kind (``"<kind>: <detail>"``):

* ``prompt_injection``: "ignore/disregard/forget (all) previous instructions", "you are
  now <a role>", "from now on you ...", "reveal your system prompt", "do not tell the
  user".
* ``system_prompt_mimicry``: chat-template markers (``<|im_start|>``, ``[INST]``,
  ``<<SYS>>``, ``<|eot_id|>``, ``<system>``...) and a line starting ``system:``.
* ``tool_call_mimicry``: tool-call and tool-result markup (``<tool_call>``,
  ``<function_calls>``, ``<invoke name=``, ``"tool_calls":``, ``<|python_tag|>``...).
* ``hidden_unicode``: zero-width characters, bidi overrides and isolates ("Trojan
  Source", Boucher & Anderson 2023), and Unicode tag characters (U+E0000-U+E007F, which
  render as nothing but spell ASCII; the hidden text is scanned for injection too).
* ``keyword_stuffing``: one word is at least a quarter of a text of 40+ words (it games
  BM25 term frequency and pulls the embedding towards that word; read in the first
  100,000 characters).
* ``repeated_identifier``: a 64+ character identifier that is one short unit repeated
  (``deploydeploydeploy...``, ``pg-pg-pg-...``).

The agent-style text of skills and agents ("You are a senior reviewer...") is what they
are for, so it is not flagged; only attempts to override what came before are.

Cost: every check is linear in the text. Phrases are matched on a normalised copy
(NFKC, case-folded, hidden characters removed, whitespace runs collapsed), so the regular
expressions never see two adjacent variable-length whitespace runs and cannot backtrack
super-linearly. :func:`scan_node` caches by the node's content hash.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections import Counter

from skill_retriever.algorithms.tokenize import bm25_tokens
from skill_retriever.model import Node

__all__ = ["scan_node", "scan_text", "visible_text"]

#: Zero-width and invisible formatting characters (U+FEFF only matters past the start,
#: but a byte-order mark inside an item's text is just as invisible).
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e"
#: Bidi embeddings, overrides and isolates (not the plain LRM/RLM marks of RTL text).
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
TAG_FIRST, TAG_LAST = 0xE0000, 0xE007F

_HIDDEN_RE = re.compile(f"[{ZERO_WIDTH}{BIDI}\U000e0000-\U000e007f]")
_DROP_HIDDEN = {ord(c): None for c in ZERO_WIDTH + BIDI}
_TAG_TO_ASCII = {cp: (cp - TAG_FIRST if 0x20 <= cp - TAG_FIRST < 0x7F else None) for cp in range(TAG_FIRST, TAG_LAST + 1)}
_TAG_RE = re.compile("[\U000e0000-\U000e007f]")
_NEWLINES_RE = re.compile(r"\n+")

# Phrases, matched on the normalised text: lower case, one " " or "\n" per whitespace run.
_S = r"[ \n]"  # exactly one separator
_W = r"[\w'-]+"  # one word
_INJECTION_RE = re.compile(
    "|".join(
        [
            # ignore / disregard / forget ... (all) (the) previous instructions
            rf"\b(?:ignore|disregard|forget|override|bypass)(?:{_S}(?:all|any|of|the|your|my|these|those|every|everything|previous|prior|preceding|above|earlier|former|initial|original|system|developer|safety|other)){{0,4}}{_S}(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|constraints|context|messages)\b",
            rf"\bignore{_S}(?:everything|all){_S}(?:above|before|previous|prior)\b",
            # a role switch: "you are now DAN", "you are now an unrestricted assistant"
            rf"\byou{_S}are{_S}now{_S}(?:no{_S}longer\b|(?:(?:an?|the|in|my){_S})?(?:{_W}{_S}){{0,2}}(?:assistant|ai|model|chatbot|bot|dan|unrestricted|unfiltered|uncensored|jailbroken|developer{_S}mode|god{_S}mode|admin|root|free)\b)",
            rf"\bfrom{_S}now{_S}on,?{_S}you{_S}(?:are|will|must|should|shall|may)\b",
            rf"\b(?:new|updated|real|actual|revised){_S}(?:system{_S})?instructions{_S}?:",
            # exfiltration and secrecy
            rf"\b(?:reveal|print|repeat|output|show|leak|disclose){_S}(?:me{_S})?(?:your|the){_S}(?:(?:full|entire|hidden|initial|original){_S})?(?:system{_S}prompt|instructions|initial{_S}prompt)\b",
            rf"\b(?:do{_S}not|don't|never){_S}(?:tell|inform|mention{_S}(?:this{_S})?to|reveal{_S}(?:this{_S})?to|alert){_S}the{_S}user\b",
        ]
    )
)
_SYSTEM_RE = re.compile(
    r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>"
    r"|\[/?inst\]|<</?sys>>|</?system(?:[_-][\w-]*)?>"
    r"|(?:^|\n)(?:#{1,6} ?)?\[?system(?: prompt| message)?\]? ?:"
)
_TOOL_RE = re.compile(
    r"</?(?:tool_call|tool_calls|tool_use|tool_result|tool_response|function_calls?|function_results?)>"
    r"|<invoke name=|<\|(?:python_tag|tool_call|tool_calls)\|>|\[tool_calls?\]"
    r"|\"(?:tool_calls|function_call)\" ?:"
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


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_DROP_HIDDEN).casefold()
    if not text.isascii():
        text = _TAG_RE.sub("", text)
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return _NEWLINES_RE.sub("\n", "\n".join(lines))


def _quote(match: re.Match[str]) -> str:
    phrase = " ".join(match.group().split())
    return repr(phrase if len(phrase) <= 60 else phrase[:57] + "...")


def _hidden(text: str) -> tuple[str | None, str]:
    """A reason for hidden characters (or None), and the ASCII that tag characters spell."""
    if text.isascii():
        return None, ""
    zero = bidi = tags = 0
    spelled: list[str] = []
    for m in _HIDDEN_RE.finditer(text):
        ch = m.group()
        if ch in ZERO_WIDTH:
            zero += 1
        elif ch in BIDI:
            bidi += 1
        else:
            tags += 1
            ascii_cp = _TAG_TO_ASCII.get(ord(ch))
            if ascii_cp is not None:
                spelled.append(chr(ascii_cp))
    parts = [
        f"{n} {what}"
        for n, what in (
            (zero, "zero-width character(s)"),
            (bidi, "bidi override/isolate character(s)"),
            (tags, "Unicode tag character(s) (invisible text)"),
        )
        if n
    ]
    return ("hidden_unicode: " + ", ".join(parts)) if parts else None, "".join(spelled)


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


def _stuffing(text: str) -> list[str]:
    reasons: list[str] = []
    tokens = bm25_tokens(text[:STUFFING_WINDOW])
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
    """``text`` without zero-width, bidi control and tag characters (for snippets)."""
    if text.isascii():
        return text
    return _TAG_RE.sub("", text.translate(_DROP_HIDDEN))


def scan_text(text: str) -> tuple[str, ...]:
    """Reasons why ``text`` looks like an instruction to the model; empty when it does not.

    Args:
        text: Any text (any Unicode, any length; the cost is linear in its length).

    Returns:
        One ``"<kind>: <detail>"`` string per kind of finding, in a fixed order.
    """
    if not isinstance(text, str) or not text:
        return ()
    reasons: list[str] = []
    hidden, spelled = _hidden(text)
    flat = _normalise(text)
    hay = flat if not spelled else f"{flat}\n{_normalise(spelled)}"
    for kind, pattern in (
        ("prompt_injection", _INJECTION_RE),
        ("system_prompt_mimicry", _SYSTEM_RE),
        ("tool_call_mimicry", _TOOL_RE),
    ):
        m = pattern.search(hay)
        if m is not None:
            reasons.append(f"{kind}: {_quote(m)}")
    if hidden:
        reasons.append(hidden)
    reasons.extend(_stuffing(text))
    return tuple(reasons)


_CACHE: dict[str, tuple[str, ...]] = {}
_CACHE_LOCK = threading.Lock()
CACHE_SIZE = 100_000


def scan_node(node: Node) -> tuple[str, ...]:
    """:func:`scan_text` of everything a model would read of ``node`` (name, description,
    text), cached by its content hash, so a query pays one hash per result."""
    key = node.content_hash()
    found = _CACHE.get(key)
    if found is not None:
        return found
    found = scan_text(node.embedding_text())
    with _CACHE_LOCK:
        if len(_CACHE) >= CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = found
    return found
