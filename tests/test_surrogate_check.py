"""`item_checks.has_surrogate`, the check every item's name, text, description, tags and
access labels pass on construction (and so on each index open, once per stored item):
it must find exactly the code points the regular expression ``[\\ud800-\\udfff]`` finds,
by UTF-8 encoding instead of a scan in the regular-expression engine."""

from __future__ import annotations

import re

import pytest

from skill_retriever.item_checks import has_surrogate
from skill_retriever.model import Node

SURROGATE = re.compile("[\ud800-\udfff]")
VALUES = [
    "", "plain ascii", "caf\u00e9 \u2014 na\u00efve", "\U0001f600 astral, no surrogate in a Python str",
    "\ud800", "\udfff", "a\ud800", "\udc00b", "\ud83d\ude00", "end \ud7ff", "start \ue000", "\ud7ff\ue000",
    "\uffff", "x" * 5000 + "\udbff", "\u00e9" * 5000 + "\ud800" + "\u00e9", "\x00\x7f\x80\x9f",
]


@pytest.mark.parametrize("value", VALUES)
def test_has_surrogate_finds_what_the_regex_finds(value: str) -> None:
    assert has_surrogate(value) == bool(SURROGATE.search(value))


def test_a_node_still_replaces_surrogates_and_refuses_them_in_access() -> None:
    node = Node(id="s", kind="skill", name="\u00e9\ud800", text="\U0001f600\udfff", description="d\udbff",
                tags=["t\ud801", "ok"])
    assert (node.name, node.text, node.description, node.tags) == (
        "\u00e9\ufffd", "\U0001f600\ufffd", "d\ufffd", ("t\ufffd", "ok"))
    clean = Node(id="c", kind="skill", name="caf\u00e9", text="\U0001f600 \u2014 text", access=["team-\u00e9"])
    assert (clean.name, clean.text, clean.access) == ("caf\u00e9", "\U0001f600 \u2014 text", ("team-\u00e9",))
    with pytest.raises(ValueError, match="access labels"):
        Node(id="a", kind="skill", name="n", text="t", access=["team\udc00"])
