"""Character classes shared by the safety checks: invisible characters, variation
selectors, and the Cyrillic and Greek letters that look like Latin ones.

Everything here is data for regular-expression classes (``"[" + CLASS + "]"``) and
``str.translate`` tables, so the checks that use it run at C speed and stay linear in the
length of the text, however adversarial.
"""

from __future__ import annotations

import re

__all__ = [
    "BIDI",
    "CONFUSABLES",
    "CONTROLS",
    "CYRILLIC_GREEK_LOOKALIKES",
    "DIRECTION_MARKS",
    "INVISIBLE",
    "INVISIBLE_BUT_VS",
    "LATIN_LETTERS",
    "LATIN_LOOKALIKES",
    "LGC_LETTERS",
    "OTHER_INVISIBLE",
    "SCRIPT_FORMAT",
    "SOFT_HYPHEN",
    "SUSPICIOUS_VS_RE",
    "TAGS",
    "VARIATION_SELECTORS",
    "ZERO_WIDTH",
]

# Invisible characters, by what they are for. Together they cover every code point that is
# Default_Ignorable_Code_Point in Unicode's DerivedCoreProperties.txt and every format
# character (category Cf): a terminal or an editor draws none of them, so text can hide
# between or behind them (tests/safety/test_charsets.py checks the Cf half against
# ``unicodedata``). Each string is the inside of a regex character class.

#: Zero-width and invisible formatting characters (U+FEFF only matters past the start,
#: but a byte-order mark inside an item's text is just as invisible).
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e"
#: Bidi embeddings, overrides and isolates (not the plain LRM/RLM marks of RTL text).
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
#: Unicode tag characters: they render as nothing but spell ASCII (U+E0041 is "A").
TAGS = "\U000e0000-\U000e007f"
SOFT_HYPHEN = "\u00ad"
#: Variation selectors (standard, ideographic, Mongolian). Normal right after an emoji, a
#: symbol or a CJK ideograph (U+2764 U+FE0F is a red heart); nowhere else.
VARIATION_SELECTORS = "\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef"
#: Left-to-right, right-to-left and Arabic letter marks: normal in right-to-left text.
DIRECTION_MARKS = "\u200e\u200f\u061c"
#: Format characters that belong to one script's writing (Arabic number signs, Syriac
#: abbreviation mark, Kaithi number signs, Egyptian hieroglyph format controls).
SCRIPT_FORMAT = (
    "\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\U000110bd\U000110cd\U00013430-\U0001343f"
)
#: The rest: combining grapheme joiner, Hangul and Khmer fillers, deprecated format
#: characters, interlinear annotations, shorthand and musical format controls, and the
#: unassigned code points Unicode reserves as default-ignorable.
OTHER_INVISIBLE = (
    "\u034f\u115f\u1160\u17b4\u17b5\u2065\u206a-\u206f\u3164\uffa0\ufff0-\ufffb"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0080-\U000e00ff\U000e01f0-\U000e0fff"
)
#: All of them but the variation selectors (which are visible in the right place).
INVISIBLE_BUT_VS = (
    ZERO_WIDTH + BIDI + TAGS + SOFT_HYPHEN + DIRECTION_MARKS + SCRIPT_FORMAT + OTHER_INVISIBLE
)
INVISIBLE = INVISIBLE_BUT_VS + VARIATION_SELECTORS
#: C0 and C1 controls, DEL, line and paragraph separators, unpaired surrogates: what a
#: terminal may obey or fail to encode rather than draw (written as regex escapes, so this
#: file holds no raw control characters).
CONTROLS = "\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ud800-\\udfff"

#: Letters of the Latin script (basic, Latin-1, Extended-A/B, Extended Additional).
LATIN_LETTERS = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
#: Latin, Greek and Cyrillic: the scripts whose letters look alike, and in whose words a
#: variation selector has no use.
LGC_LETTERS = LATIN_LETTERS + "\u0370-\u03ff\u1f00-\u1fff\u0400-\u052f"

#: Cyrillic and Greek letters that are drawn like a Latin letter, and that letter. The idea
#: and the pairs come from the confusables data of Unicode Technical Standard #39
#: ("Unicode Security Mechanisms", confusables.txt), cut down to look-alikes of a-z and A-Z.
#: Fullwidth and mathematical Latin letters need no entry: NFKC, which runs first, already
#: turns them into ASCII.
CYRILLIC_GREEK_LOOKALIKES: dict[str, str] = {
    # Cyrillic lower case
    "\u0430": "a", "\u0441": "c", "\u0501": "d", "\u0435": "e", "\u04bb": "h",
    "\u0456": "i", "\u0458": "j", "\u04cf": "l", "\u043e": "o", "\u0440": "p",
    "\u051b": "q", "\u0455": "s", "\u051d": "w", "\u0445": "x", "\u0443": "y",
    "\u04af": "y",
    # Cyrillic upper case
    "\u0410": "A", "\u0412": "B", "\u0421": "C", "\u0415": "E", "\u041d": "H",
    "\u0406": "I", "\u04c0": "I", "\u0408": "J", "\u041a": "K", "\u041c": "M",
    "\u041e": "O", "\u0420": "P", "\u051a": "Q", "\u0405": "S", "\u0422": "T",
    "\u051c": "W", "\u0425": "X", "\u0423": "Y", "\u04ae": "Y",
    # Greek lower case
    "\u03b1": "a", "\u03f2": "c", "\u03b9": "i", "\u03f3": "j", "\u03ba": "k",
    "\u03bf": "o", "\u03c1": "p", "\u03c5": "u", "\u03bd": "v", "\u03c7": "x",
    "\u03b3": "y",
    # Greek upper case
    "\u0391": "A", "\u0392": "B", "\u03f9": "C", "\u0395": "E", "\u0397": "H",
    "\u0399": "I", "\u037f": "J", "\u039a": "K", "\u039c": "M", "\u039d": "N",
    "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
    "\u0396": "Z",
}  # fmt: skip
#: Latin letters outside a-z drawn like one of a-z (dotless i, script a, script g, and the
#: capital I with a dot, whose case-folding would add a combining dot).
LATIN_LOOKALIKES: dict[str, str] = {"\u0131": "i", "\u0130": "I", "\u0251": "a", "\u0261": "g"}
CONFUSABLES: dict[str, str] = {**CYRILLIC_GREEK_LOOKALIKES, **LATIN_LOOKALIKES}

#: A variation selector where it has no use: at the start, after a space, a control or
#: another invisible character, or after a Latin, Greek or Cyrillic letter (inside a word,
#: where it only hides or smuggles). One fixed-width look-behind per character: linear.
SUSPICIOUS_VS_RE = re.compile(
    f"(?<![^{LGC_LETTERS}{INVISIBLE}{CONTROLS}\\s])[{VARIATION_SELECTORS}]"
)
