"""The quote spans of a text (`secret_values.single_quoted`, `quoted`) are read once per
text object: a redaction pass asks about each value it meets. They were cached by the
text's equality, and a pass that changed nothing may hand the next one an equal copy, so
each lookup compared the whole text: ``redact_command`` over ``https://x/?`` and
``&token=$abc`` 40 000 times took several times as long as over half of it (seen timing
it at 10 000, 20 000 and 40 000 repeats).
"""

from __future__ import annotations

from skill_retriever.ingest import secret_values
from skill_retriever.ingest.secrets import redact_command


def test_many_positions_of_one_text_read_its_spans_once() -> None:
    text = "a 'b' \"c\" " * 2000
    copy = "".join(list(text))  # equal, another object
    assert copy == text and copy is not text
    secret_values.single_quoted(text, 3)
    before = secret_values._read_quoted_spans.cache_info()
    answers = [secret_values.quoted(copy, pos) for pos in range(len(copy))]
    after = secret_values._read_quoted_spans.cache_info()
    assert (after.hits + after.misses) - (before.hits + before.misses) == 1
    assert answers[:10] == [False, False, True, True, True, False, True, True, True, False]  # a 'b' "c"


def test_a_crafted_command_of_many_references_finishes() -> None:
    text = "https://x/?" + "&token=$abc    " * 50_000
    assert redact_command(text) == text
