"""The phrases and markup that :mod:`injection` flags, read on its normalised text.

Every pattern reads the normalised copy that `injection._flatten` makes: case-folded, one
``" "`` or ``"\\n"`` per whitespace run, lines without leading white space. Each is linear
in the text (no nested variable-length repeats; the spelled-out joiner is possessive;
the second reading, for spaced-out letters and digits, reads only the stretches after a
verb that starts an override).

* Instruction overrides in English ("ignore/disregard/forget (all) previous
  instructions", "forget everything you were told") and in French, Spanish, German,
  Portuguese and Italian ("ignorez toutes les instructions précédentes"; an injection is
  as easily written in the reader's language), also when the letters are spaced out
  (``I-g-n-o-r-e``, ``i g n o r e``) or written as digits (``1gn0re``).
* A turn of Anthropic's text prompt format (``Human:`` at the start of a line) that gives
  an order, or that an ``Assistant:`` line answers: text that poses as the user's own
  turn. ``User:``/``assistant:`` lines are not read so: Claude Code's agent descriptions
  show their examples that way.
* A tool-use block in JSON (``{"type": "tool_use", ...}``), as the Messages API writes one.

The last two are read outside fenced code blocks only: documentation of a prompt format
or of an API shows its transcripts and payloads in a code block, where a reader takes them
as examples; text that poses as a real turn or call does not fence itself. A ``system:``
line is read outside closed code blocks of a programming or configuration language only
(:func:`system_markup` says why).
"""

from __future__ import annotations

import bisect
import re

__all__ = ["chat_turn", "injection", "quote", "system_markup", "tool_call"]

_S = r"[ \n]"  # exactly one separator
_W = r"[\w'-]++"  # one word
_BEFORE = rf"(?:above|before|previous|prior|preceding|earlier|so{_S}far|until{_S}now|up{_S}to{_S}now)"
_ENGLISH = [
    # ignore / disregard / forget ... (all) (the) previous instructions
    rf"(?:ignore|disregard|forget|override|bypass)(?:{_S}(?:all|any|of|the|your|my|these|those|every|everything|previous|prior|preceding|above|earlier|former|initial|original|system|developer|safety|other)){{0,4}}{_S}(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|constraints|context|messages)\b",
    rf"(?:ignore|disregard|forget){_S}(?:everything|all){_S}{_BEFORE}\b",
    # "forget everything you were told (before)", "disregard all that I said": what was
    # said or told, not "forget everything you know about CSS" (an ordinary turn of phrase)
    rf"(?:ignore|disregard|forget)(?:{_S}about)?{_S}(?:everything|all|anything)(?:{_S}(?:that|which))?{_S}(?:you|i|we|they)(?:'ve|'d)?(?:{_S}{_W}){{0,2}}?{_S}(?:told|instructed|said|wrote|asked)\b",
    # a role switch: "you are now DAN", "you are now an unrestricted assistant"
    rf"you{_S}are{_S}now{_S}(?:no{_S}longer\b|(?:(?:an?|the|in|my){_S})?(?:{_W}{_S}){{0,2}}(?:assistant|ai|model|chatbot|bot|dan|unrestricted|unfiltered|uncensored|jailbroken|developer{_S}mode|god{_S}mode|admin|root|free)\b)",
    rf"from{_S}now{_S}on,?{_S}you{_S}(?:are|will|must|should|shall|may)\b",
    rf"(?:new|updated|real|actual|revised){_S}(?:system{_S})?instructions{_S}?:",
    # exfiltration and secrecy
    rf"(?:reveal|print|repeat|output|show|leak|disclose){_S}(?:me{_S})?(?:your|the){_S}(?:(?:full|entire|hidden|initial|original){_S})?(?:system{_S}prompt|instructions|initial{_S}prompt)\b",
    rf"(?:do{_S}not|don't|never){_S}(?:tell|inform|mention{_S}(?:this{_S})?to|reveal{_S}(?:this{_S})?to|alert){_S}the{_S}user\b",
]
# "Ignore (all) previous instructions" in French, Spanish, Portuguese, Italian (verb,
# "all", article, noun, "previous") and German (verb, "all"/article, "previous", noun).
# The word for "previous" is required: "ignorez les règles de lint" is ordinary advice.
_OTHER_LANGUAGES = [
    rf"(?:ignore[rz]?|oublie[rz]?)(?:{_S}(?:toutes?|tous))?{_S}(?:les|des|vos|tes|mes|nos){_S}(?:instructions|consignes|directives|r[èe]gles|indications|ordres){_S}(?:pr[ée]c[ée]dente?s|ant[ée]rieures|ci-dessus|d'avant|initiales|originales)\b",
    rf"ne{_S}(?:tiens|tenez|tenir){_S}(?:pas|plus){_S}compte{_S}(?:de{_S}toutes{_S})?(?:des|de{_S}vos|de{_S}tes){_S}(?:instructions|consignes|r[èe]gles)\b",
    rf"(?:ignora|ignore|ignoren|ignorad|ignorar|olvida|olvide|olviden|olvidad|olvidar|descarta|descarte)(?:{_S}(?:todas|todos))?{_S}(?:las|los|tus|sus|mis){_S}(?:instrucciones|indicaciones|reglas|[óo]rdenes|directrices|directivas){_S}(?:anteriores|previas|precedentes|iniciales|originales)\b",
    rf"(?:ignore|ignora|ignorem|ignorar|esque[çc]a|esquece|esque[çc]am|desconsidere|desconsidera)(?:{_S}(?:todas|todos))?{_S}(?:as|os|suas|tuas|minhas){_S}(?:instru[çc][õo]es|regras|orienta[çc][õo]es|diretrizes|ordens){_S}(?:anteriores|pr[ée]vias|precedentes|iniciais|originais)\b",
    rf"(?:ignora|ignori|ignorate|ignorare|dimentica|dimentichi|dimenticate|dimenticare)(?:{_S}(?:tutte|tutti))?{_S}(?:le|i|gli|tue|sue|mie){_S}(?:istruzioni|regole|indicazioni|direttive|ordini){_S}(?:precedenti|anteriori|iniziali|originali)\b",
    rf"(?:ignorier(?:e|en|t)?|vergiss|vergesst|vergessen|missachte|missachten)(?:{_S}sie)?(?:{_S}(?:alle|s[äa]mtliche|die|deine|ihre|eure|meine)){{0,2}}{_S}(?:vorherigen|vorigen|bisherigen|fr[üu]heren|obigen|vorangegangenen|vorangehenden|urspr[üu]nglichen){_S}(?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen)\b",
]
# Each phrase starts at a word boundary, said once for all: the regex engine then tries
# the alternatives only where a word starts (wshobson/agents' 539 items, normalised:
# 0.19 s against 0.48 s with a boundary in each alternative).
_INJECTION_RE = re.compile(rf"\b(?:{'|'.join([*_ENGLISH, *_OTHER_LANGUAGES])})")

# Letters spaced out with one separator, the same throughout (``i-g-n-o-r-e``, ``i g n o
# r e``): three or more single letters or digits. Possessive, and each letter must end
# where it stands, so a run is read once and ``i g n o r e previous`` keeps its last word.
_SPELLED_RE = re.compile(r"(?<![^\W_])[^\W_]([-.*_~+|/ ])[^\W_](?![^\W_])(?:\1[^\W_](?![^\W_]))++")
#: Digits and signs written for letters ("1gn0re", "pr3v10us", "@ll"); one reading each.
_LEET = str.maketrans("0134579@$!|", "oieastgasii")
_LEET_RE = re.compile(r"[^\W\d_][0134579@$!|]|[0134579@$!|][^\W\d_]")
_LEET_OF = {"o": "0", "i": "1!|", "e": "3", "a": "4@", "s": "5$", "t": "7", "g": "9"}
#: The verbs an override starts with, as written plainly, spaced out or with digits for
#: letters: where the second reading looks.
_HEADS = ("ignor", "disregard", "forget", "overrid", "bypass", "oubli", "olvid", "descart", "vergiss", "vergess",
          "missacht", "esquec", "esqueç", "desconsider", "dimentic")
#: How far the second reading looks past a verb: the longest phrase spaced out.
_HEAD_WINDOW = 300
_HEAD_RE = re.compile(  # where a word starts ("|" and "!" for an "i" are no word characters)
    "(?<![^\\W_])(?:"
    + "|".join("[-.*_~+|/ ]?".join(f"[{re.escape(c + _LEET_OF.get(c, ''))}]" for c in head) for head in _HEADS)
    + ")"
)


def quote(phrase: str) -> str:
    """``phrase`` quoted for a reason: one space per white-space run, at most 60 characters."""
    phrase = " ".join(phrase.split())
    return repr(phrase if len(phrase) <= 60 else phrase[:57] + "...")


def injection(hay: str) -> str | None:
    """The first instruction override in ``hay``, quoted (and said to be spelled out when
    it was found only once spaced-out letters were joined and digits read as letters);
    None when there is none."""
    m = _INJECTION_RE.search(hay)
    if m is not None:
        return quote(m.group())
    # The second reading covers only what follows each verb an override starts with (214
    # places in 116 of wshobson/agents' 539 items), so that it costs a fraction of the first; overlapping
    # stretches are read as one, so that no phrase is cut at a stretch's end.
    spans: list[list[int]] = []
    for head in _HEAD_RE.finditer(hay):
        start = max(head.start() - 1, 0)  # one character before: the word boundary
        if spans and start <= spans[-1][1]:
            spans[-1][1] = head.start() + _HEAD_WINDOW
        else:
            spans.append([start, head.start() + _HEAD_WINDOW])
    for start, end in spans:
        window = _SPELLED_RE.sub(lambda s: s.group()[::2], hay[start:end])
        m = _INJECTION_RE.search(window.translate(_LEET) if _LEET_RE.search(window) else window)
        if m is not None:
            return f"{quote(m.group())} (spelled out, or with digits for letters)"
    return None


_FENCE_RE = re.compile(r"(?:^|\n)(?:```|~~~)")
_TURN_RE = re.compile(r"(?:^|\n)(?:#{1,6} )?[*_]{0,2}(human|assistant)[*_]{0,2} ?:[*_]{0,2} ?")
#: What a turn's first words must be to count as an order (after "please", "now").
_ORDER_RE = re.compile(
    r"[\"'“]?(?:(?:please|now|ok|okay),? )*(?:delete|remove|erase|wipe|drop|destroy|run|execute|exec|ignore|disregard"
    r"|forget|send|upload|post|email|forward|push|commit|deploy|install|download|curl|wget|print|reveal|show|output"
    r"|write|create|open|call|use|grant|give|disable|rm|sudo|transfer|copy|export|read|cat|tell|change|set|modify"
    r"|update|approve|merge|fetch|paste|share|add|kill|stop|reset|revoke|chmod)\b"
)
_SYSTEM_MARKER_RE = re.compile(
    r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>"
    r"|\[/?inst\]|<</?sys>>|</?system(?:[_-][\w-]*)?>"
)
_SYSTEM_LINE_RE = re.compile(r"(?:^|\n)(?:#{1,6} ?)?\[?system(?: prompt| message)?\]? ?:")
#: A fence line and the language its info string names (``python``, `` Python title=..``,
#: ``{.yaml}``), casefolded as the normalised text is.
_FENCE_INFO_RE = re.compile(r"(?:^|\n)(?:```|~~~)(?: ?\{?\.?([\w+#-]+))?")
#: Languages whose code a ``system:`` line in is a key, an argument or a docstring entry,
#: not a prompt. Prose and prompt blocks (``text``, ``markdown``, ``prompt``, ``jinja``,
#: none named) are not among them: a system prompt shown there reads as one.
CODE_LANGUAGES = frozenset(
    "python py python3 ipython pycon javascript js jsx mjs cjs typescript ts tsx json jsonc json5 yaml yml toml ini cfg"
    " conf properties env dotenv bash sh shell zsh fish console shell-session powershell ps1 bat cmd go golang rust rs"
    " java kotlin kt scala groovy gradle swift objc objective-c c h cpp c++ cc hpp cxx csharp cs c# fsharp f# ruby rb"
    " php perl pl lua r julia jl matlab octave haskell hs ocaml ml elixir ex exs erlang clojure clj dart zig nim"
    " sql psql plsql graphql gql proto protobuf hcl terraform tf nix dockerfile docker makefile make cmake html xml"
    " css scss sass less vue svelte solidity sol cuda fortran asm wasm"
    .split()
)
_TOOL_RE = re.compile(
    r"</?(?:tool_call|tool_calls|tool_use|tool_result|tool_response|function_calls?|function_results?)>"
    r"|<invoke name=|<\|(?:python_tag|tool_call|tool_calls)\|>|\[tool_calls?\]"
    r"|\"(?:tool_calls|function_call)\" ?:"
)
_TOOL_JSON_RE = re.compile(r"\"type\" ?: ?\"(?:(?:server_)?tool_(?:use|result|call)|function_call(?:_output)?)\"")


class _Fences:
    """Where the fenced code blocks of a text lie (a fence line opens one, the next closes
    it), found once on first use."""

    def __init__(self, hay: str) -> None:
        self._hay = hay
        self._starts: list[int] | None = None

    def outside(self, pos: int) -> bool:
        if self._starts is None:
            self._starts = [f.start() for f in _FENCE_RE.finditer(self._hay)]
        return bisect.bisect_right(self._starts, pos) % 2 == 0


def chat_turn(hay: str) -> str | None:
    """A ``Human:`` turn outside code blocks that gives an order (quoted), or that an
    ``Assistant:`` line after it answers; else None."""
    fences = _Fences(hay)
    first_human: int | None = None
    last_assistant = -1
    for m in _TURN_RE.finditer(hay):
        if not fences.outside(m.start()):
            continue
        if m.group(1) == "assistant":
            last_assistant = m.start()
            continue
        order = _ORDER_RE.match(hay, m.end())
        if order is not None:
            end = hay.find("\n", order.end())
            return quote(hay[m.start() : end if end >= 0 else len(hay)])
        if first_human is None:
            first_human = m.start()
    if first_human is not None and last_assistant > first_human:
        return "a 'Human:' turn answered by an 'Assistant:' line"
    return None


def _code_blocks(hay: str) -> list[tuple[int, int]]:
    """The (start, end) of each closed fenced block of ``hay`` whose info string names a
    language of :data:`CODE_LANGUAGES` (a fence line opens a block, the next closes it)."""
    fences = list(_FENCE_INFO_RE.finditer(hay))
    return [
        (opening.start(), closing.start())
        for opening, closing in zip(fences[::2], fences[1::2], strict=False)
        if opening.group(1) in CODE_LANGUAGES
    ]


def system_markup(hay: str) -> str | None:
    """A chat-template marker (``<|im_start|>``, ``[INST]``, ``<<SYS>>``...), or a line
    starting ``system:`` outside a closed code block of a programming or configuration
    language (quoted), else None.

    Only the line is read by where it stands: in code it is a config key, an argument or a
    docstring entry (``system: OpenMM System``), and a reader takes it so. A marker is
    flagged in code too, as a tokenizer that lets special tokens through reads it as one
    wherever it stands. A block never closed does not count as code, so that one fence
    line cannot hide the rest of a text."""
    m = _SYSTEM_MARKER_RE.search(hay)
    if m is not None:
        return quote(m.group())
    blocks: list[tuple[int, int]] | None = None
    for line in _SYSTEM_LINE_RE.finditer(hay):
        if blocks is None:  # found on first use: a system line is rare
            blocks = _code_blocks(hay)
        i = bisect.bisect_right(blocks, (line.start(), len(hay))) - 1
        if i < 0 or line.start() >= blocks[i][1]:
            return quote(line.group())
    return None


def tool_call(hay: str) -> str | None:
    """Tool-call or tool-result markup (``<tool_call>``, ``<invoke name=``...), or a
    tool-use block in JSON outside code blocks (quoted), else None."""
    m = _TOOL_RE.search(hay)
    if m is not None:
        return quote(m.group())
    fences = _Fences(hay)
    return next((quote(j.group()) for j in _TOOL_JSON_RE.finditer(hay) if fences.outside(j.start())), None)
