"""Splitting a request into its asks (algorithms.clauses)."""

from __future__ import annotations

from skill_retriever.algorithms.clauses import query_clauses


def test_sentences_and_chaining_words_separate_asks() -> None:
    text = ("Please check the current altitude of aircraft ABC1234. Then, retrieve the data of healthcare "
            "robot RBT5678 for this month. Finally, execute task TASK987 on the same robot.")
    assert query_clauses(text) == [
        "Please check the current altitude of aircraft ABC1234.",
        "Then, retrieve the data of healthcare robot RBT5678 for this month.",
        "Finally, execute task TASK987 on the same robot.",
    ]
    assert query_clauses("list the countries ASOS ships to, then list the categories in the UAE store") == [
        "list the countries ASOS ships to", "then list the categories in the UAE store"]
    assert query_clauses("a one-liner about 42; what 'kitap' means in Turkish; a kanji with 16 strokes") == [
        "a one-liner about 42;", "what 'kitap' means in Turkish;", "a kanji with 16 strokes"]


def test_one_ask_stays_whole_and_short_pieces_join_a_neighbour() -> None:
    assert query_clauses("find a PDF tool") == ["find a PDF tool"]
    assert query_clauses("set up structured logging for a Python service") == [
        "set up structured logging for a Python service"]
    # "Thanks!" and "Hi." are no asks: they join the clause beside them.
    assert query_clauses("Hi. Translate this page into French for me. Thanks!") == [
        "Hi. Translate this page into French for me. Thanks!"]
    # A chaining word inside a word, or a sentence without a following ask, splits nothing.
    assert query_clauses("the nextjs app router docs") == ["the nextjs app router docs"]


def test_a_text_with_too_many_pieces_is_kept_whole() -> None:
    text = " ".join(f"Sentence number {i} says one more thing." for i in range(24))
    assert query_clauses(text) == [text]
    assert query_clauses(text, max_clauses=30) == [f"Sentence number {i} says one more thing." for i in range(24)]
    # A request that lists a dozen asks (traject-bench's agent tasks list up to 18) is split.
    asks = "; ".join(f"ask number {i} for one more tool" for i in range(12))
    assert len(query_clauses(asks)) == 12
    assert query_clauses("") == [] and query_clauses(" \n\t ") == []


def test_whitespace_runs_and_line_breaks() -> None:
    # Words end one space apart; a line break ends an ask; a long run of blanks costs
    # nothing (a split that let a quantifier backtrack over it took 28 s on 20,000).
    assert query_clauses("book a table for two\n\n  then   order the wine list ") == [
        "book a table for two", "then order the wine list"]
    assert query_clauses("a" + " " * 50_000 + "b" + "\t \n" * 20_000 + "c") == ["a b c"]
