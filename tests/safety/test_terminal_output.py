r"""`printable` and `printable_json`: every control and invisible character comes out as a
visible escape, the escapes read back to exactly the input, and JSON stays valid JSON."""

from __future__ import annotations

import json
import re
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skill_retriever.safety.charsets import CONTROLS, INVISIBLE, INVISIBLE_BUT_VS
from skill_retriever.safety.terminal import printable, printable_json

#: Any character a terminal may obey or not draw, except variation selectors (kept raw
#: after an emoji; tested on their own).
RAW_DANGER = re.compile(f"[{CONTROLS}{INVISIBLE_BUT_VS}]")
_READ_BACK = re.compile(r"\\(?:\\|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))")


def read_back(shown: str) -> str:
    """The reference decoder of the escapes the module docstring describes."""

    def one(m: re.Match[str]) -> str:
        hexdigits = m.group(1) or m.group(2) or m.group(3)
        return chr(int(hexdigits, 16)) if hexdigits else "\\"

    return _READ_BACK.sub(one, shown)


HOSTILE = {
    "osc52 clipboard write": ("\x1b]52;c;ZXZpbA==\x07", r"\x1b]52;c;ZXZpbA==\x07"),
    "clear screen": ("\x1b[2J\x1b[H", r"\x1b[2J\x1b[H"),
    "cursor up and carriage return": (
        "ok\x1b[1A\rFAKE",
        r"ok\x1b[1A\rFAKE".replace(r"\r", r"\x0d"),
    ),
    "c1 csi and nel": ("a\x9b31mb\x85c", r"a\x9b31mb\x85c"),
    "newline and tab in a field": ("a\nb\tc", r"a\x0ab\x09c"),
    "del": ("a\x7fb", r"a\x7fb"),
    "bidi override": ("safe\u202eexe.txt", r"safe\u202eexe.txt"),
    "bidi isolate": ("a\u2066b\u2069", r"a\u2066b\u2069"),
    "zero width and soft hyphen": ("de\u200bp\u00adloy", r"de\u200bp\xadloy"),
    "tag characters": ("x\U000e0041\U000e007f", r"x\U000e0041\U000e007f"),
    "line separator": ("a\u2028b", r"a\u2028b"),
    "lone surrogate": ("a\ud800b", r"a\ud800b"),
    "hangul filler": ("a\u3164b", r"a\u3164b"),
}


@pytest.mark.parametrize("raw, shown", HOSTILE.values(), ids=list(HOSTILE))
def test_controls_and_invisibles_print_as_escapes(raw: str, shown: str) -> None:
    out = printable(raw)
    assert out == shown
    assert RAW_DANGER.search(out) is None
    assert read_back(out) == raw


@pytest.mark.parametrize(
    "text",
    [
        "plain ascii",
        "C:\\Users\\me\\docs",
        r"match \d+ and \w*",
        "Grüße, Привет, 日本語",
        "❤\ufe0f 1\ufe0f\u20e3 葛\U000e0100",
    ],
)
def test_ordinary_text_prints_unchanged(text: str) -> None:
    assert printable(text) == text


def test_backslash_is_doubled_only_where_it_would_read_as_an_escape() -> None:
    assert printable(r"\x1b") == r"\\x1b"  # four characters, not ESC
    assert printable("\\\x1b") == r"\\\x1b"  # a backslash, then ESC
    assert printable(r"a\\b") == r"a\\\b"  # the first backslash stands before a backslash
    assert printable(r"\d \Users \ubuntu") == r"\d \Users \ubuntu"
    assert printable(r"\u00e9 \U0001f600 \xAB") == r"\\u00e9 \\U0001f600 \\xAB"
    for text in (r"\x1b", "\\\x1b", r"a\\b", r"\u00e9 \U0001f600 \xAB"):
        assert read_back(printable(text)) == text


def test_variation_selectors_stay_after_emoji_and_are_escaped_inside_words() -> None:
    assert printable("I \u2764\ufe0f it") == "I \u2764\ufe0f it"
    assert printable("ig\ufe0fnore") == r"ig\ufe0fnore"
    assert printable("\ufe0fstart") == r"\ufe0fstart"
    assert printable("\u2764\ufe0f\ufe0f") == "\u2764\ufe0f" + r"\ufe0f"  # a run smuggles data
    assert printable("\x1b\ufe0f") == r"\x1b\ufe0f"


any_text = st.text(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(
            [
                "\\",
                "x",
                "u",
                "U",
                "0",
                "b",
                "F",
                "\x1b",
                "\ufe0f",
                "\u2764",
                "a",
                "\U000e0041",
                "\ud800",
            ]
        ),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(text=any_text)
def test_printable_reads_back_and_leaves_nothing_raw(text: str) -> None:
    out = printable(text)
    assert read_back(out) == text
    assert RAW_DANGER.search(out) is None
    out.encode("utf-8")  # no unpaired surrogate left to crash print()


@settings(max_examples=300, deadline=None)
@given(
    value=st.recursive(
        st.one_of(st.none(), st.integers(), any_text),
        lambda inner: st.dictionaries(any_text, inner, max_size=3) | st.lists(inner, max_size=3),
        max_leaves=8,
    )
)
def test_printable_json_is_the_same_json_with_nothing_raw(value: object) -> None:
    serialised = json.dumps(value, ensure_ascii=False, indent=2)
    out = printable_json(serialised)
    assert json.loads(out) == value
    assert re.search(f"[\\x7f-\\x9f\\u2028\\u2029\\ud800-\\udfff{INVISIBLE}]", out) is None
    assert re.search("[\\x00-\\x09\\x0b-\\x1f]", out) is None  # only the indent's newlines


def test_printable_json_spells_astral_characters_as_surrogate_pairs() -> None:
    out = printable_json(json.dumps({"tag": "\U000e0041"}, ensure_ascii=False))
    assert out == '{"tag": "\\udb40\\udc41"}'
    assert json.loads(out) == {"tag": "\U000e0041"}


def test_every_format_character_is_in_the_invisible_class() -> None:
    """The hand-written ranges cover category Cf of the running Python's Unicode data."""
    invisible = re.compile(f"[{INVISIBLE}]")
    missing = [
        f"U+{cp:04X}"
        for cp in range(sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) == "Cf" and not invisible.match(chr(cp))
    ]
    assert missing == []
