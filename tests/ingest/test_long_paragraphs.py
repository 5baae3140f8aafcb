"""Where a paragraph too long for one part is cut (`ingest.long_paragraphs`): at sentence
ends, at a space when sentences are long, at the limit when there is no space; at line
ends between lines; never inside a fenced code block, never so that a piece begins a
heading or a fence. Plain strings: the rule itself, before `document_sections` uses it."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.long_paragraphs import line_pieces, with_paragraph_breaks


def _texts(line: str, limit: int) -> list[str]:
    return [line[a:b] for a, b in line_pieces(line, limit)]


def test_a_line_that_fits_is_one_piece() -> None:
    assert line_pieces("Short. Line.", 12) == [(0, 12)]


def test_a_long_line_is_cut_at_its_last_sentence_end_within_the_limit() -> None:
    line = " ".join(f"Sentence number {n} ends here." for n in range(40))  # 30-31 chars each
    pieces = _texts(line, 100)
    assert all(len(p) <= 100 for p in pieces) and all(p.endswith("ends here.") for p in pieces)
    assert " ".join(pieces) == line  # nothing lost but the space at each cut
    assert all(len(p) >= 50 for p in pieces[:-1])  # each cut as late as the limit allows


def test_closing_quotes_and_brackets_stay_with_their_sentence() -> None:
    pieces = _texts('He said "stop." (Then left.) ' + "More words follow here. " * 3, 40)
    assert pieces[0] == 'He said "stop." (Then left.)'


def test_a_sentence_end_too_early_gives_way_to_the_last_space() -> None:
    line = "Hi. " + "word " * 60  # the only sentence end leaves a 3-character piece
    pieces = _texts(line.strip(), 100)
    assert pieces[0].startswith("Hi. word") and 50 <= len(pieces[0]) <= 100
    assert all(not p.startswith(" ") and not p.endswith(" ") for p in pieces)


def test_a_line_without_spaces_is_cut_at_the_limit() -> None:
    assert line_pieces("x" * 250, 100) == [(0, 100), (100, 200), (200, 250)]


def test_no_piece_begins_a_heading_or_a_code_fence() -> None:
    line = " ".join(["# not a heading", "``` not a fence", "~~~ nor this", "plain words."] * 30)
    pieces = _texts(line, 60)
    assert len(pieces) > 5 and all(p[0] not in "#`~ " for p in pieces[1:])  # the first is the line's start
    assert "".join(pieces).replace(" ", "") == line.replace(" ", "")
    # Without a space, the cut at the limit moves back off the '#'s (by half the limit at most).
    assert _texts("x" * 95 + "#" * 10 + "y" * 50, 100)[:2] == ["x" * 94, "x" + "#" * 10 + "y" * 50]


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        line_pieces("text", 0)


def test_breaks_go_where_a_paragraph_would_pass_the_limit_and_never_into_code() -> None:
    rows = [f"| row {n:03d} | value |" for n in range(30)]  # 19 characters each, 20 with the newline
    code = ["```", *(f"line {n} of code that is long enough" for n in range(10)), "```"]
    sentences = "One sentence here. " * 7 + "One sentence here."
    body = "\n".join(["Intro.", "", *rows, "", *code, "", sentences])
    lines, origin = with_paragraph_breaks(body, 100)
    original = body.split("\n")
    assert all(out in original[o] for out, o in zip(lines, origin, strict=True))  # (a piece of) its line
    # The rows: the same rows in order, a blank line wherever the next would pass 100.
    table = lines[lines.index(rows[0]): lines.index(rows[-1]) + 1]
    assert [line for line in table if line] == rows
    runs = "\n".join(table).split("\n\n")
    assert len(runs) == 6 and all(len(run) + 1 <= 100 for run in runs)  # 5 rows of 20 each
    # The code block: untouched, no blank line put inside it.
    first = lines.index("```")
    assert lines[first:first + len(code)] == code
    # The long line: pieces at its sentence ends, each within the limit, each pointing at it.
    tail = [(line, o) for line, o in zip(lines, origin, strict=True) if o == len(original) - 1]
    pieces = [line for line, _ in tail if line]
    assert " ".join(pieces) == sentences and len(pieces) == 2 and all(len(p) <= 100 for p in pieces)


def test_a_two_megabyte_line_of_spaces_before_a_hash_is_read_in_one_pass() -> None:
    # The white-space pattern is anchored at a run's start and possessive: one attempt
    # per run. The first version, which backtracked, had not finished this after a minute.
    # No timing is asserted.
    line = "a" + " " * 2_000_000 + "#b"
    pieces = line_pieces(line, 40_000)
    assert all(b - a <= 40_000 for a, b in pieces) and pieces[-1][1] == len(line)
