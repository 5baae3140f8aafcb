"""The BM25 tokenizer: identifiers whole and in parts, any Unicode, linear on large input;
and the terms BM25 indexes: stop words out, plain words stemmed, identifiers kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skill_retriever.algorithms.tokenize import (
    STOP_WORDS,
    bm25_terms,
    bm25_tokens,
    is_identifier,
    split_identifier,
    stem,
    tokenize_words,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Deploy the API", ["deploy", "the", "api"]),
        ("checkout-api", ["checkout-api", "checkout", "api"]),
        ("deploy-v3.5.0", ["deploy-v3.5.0", "deploy", "v3", "5", "0"]),
        ("INC-1043", ["inc-1043", "inc", "1043"]),
        ("snake_case", ["snake_case", "snake", "case"]),
        ("v3.5.0", ["v3.5.0", "v3", "5", "0"]),
        ("plugins/x/skills", ["plugins/x/skills", "plugins", "x", "skills"]),
        ("__init__", ["__init__", "init"]),
        # letter-digit runs stay together
        ("sha256 k8s", ["sha256", "k8s"]),
        # a separator needs word characters on both sides
        ("end. --flag a - b", ["end", "flag", "a", "b"]),
        ("https://github.com/x", ["https", "github.com/x", "github", "com", "x"]),
    ],
)
def test_bm25_tokens(text: str, expected: list[str]) -> None:
    assert bm25_tokens(text) == expected


def test_tokenize_words_keeps_identifiers_whole() -> None:
    words = tokenize_words("Roll back deploy-v3.5.0 of checkout-api (INC-1043).")
    assert words == ["roll", "back", "deploy-v3.5.0", "of", "checkout-api", "inc-1043"]
    assert split_identifier("deploy-v3.5.0") == ["deploy", "v3", "5", "0"]
    assert split_identifier("plain") == ["plain"]


def test_unicode_is_normalised_and_lower_cased() -> None:
    # NFKC: ligature and full-width forms become plain letters; decomposed é composes.
    assert bm25_tokens("\ufb01le \uff23\uff48\uff45\uff43\uff4b e\u0301cole ÉCOLE") == [
        "file", "check", "école", "école",
    ]  # fmt: skip
    assert bm25_tokens("Straße Привет 東京") == ["straße", "привет", "東京"]


def test_control_characters_symbols_and_surrogates_separate_words() -> None:
    assert bm25_tokens("a\x00b\x1fc\x7fd\ud800e \u200b f") == ["a", "b", "c", "d", "e", "f"]
    assert bm25_tokens("___ --- ... /// !!!") == []
    assert bm25_tokens("") == []


def test_one_megabyte_tokenizes() -> None:
    # Worst cases for a backtracking pattern: one huge identifier ending in a separator,
    # one huge run of separators, and a megabyte of mixed text.
    huge_identifier = "a-" * 500_000
    tokens = bm25_tokens(huge_identifier)
    assert tokens[0] == huge_identifier[:-1] and len(tokens) == 1 + 500_000
    assert bm25_tokens("-" * 1_000_000 + "x") == ["x"]
    mixed = "deploy-v3.5.0 fails on INC-1043; " * 31_000
    assert len(mixed) > 1_000_000
    assert bm25_tokens(mixed)[:7] == ["deploy-v3.5.0", "deploy", "v3", "5", "0", "fails", "on"]


def test_underscore_words_and_long_words_split_as_short_ones() -> None:
    # A word of underscores alone is dropped, one with a letter kept; a word past the
    # length whose split is kept for reuse splits the same way, again and again.
    assert bm25_tokens("__init__ _ __ a__ _1") == ["__init__", "init", "a__", "a", "_1", "1"]
    long = "-".join(["part"] * 40)
    for _ in range(2):
        assert bm25_tokens(f"{long} {long.upper()}") == [long, *["part"] * 40] * 2


@given(st.text())
def test_any_text_gives_non_empty_lower_case_tokens(text: str) -> None:
    for token in bm25_tokens(text):
        assert token
        assert token == token.lower()
        assert any(ch.isalnum() for ch in token)
    assert all(w in bm25_tokens(text) for w in tokenize_words(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("INC-1043", True), ("deploy-v3.5.0", True), ("checkout-api", True), ("snake_case", True),
     ("gpt4", True), ("deploy", False), ("python testing", False), ("Payments DB", False)],
)
def test_is_identifier(text: str, expected: bool) -> None:
    assert is_identifier(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Add the song to my playlists", ["add", "song", "playlist"]),
        ("deploying deployments", ["deploy", "deploy"]),
        # identifiers and tokens with a digit stay whole; their parts are words
        ("checkout-api INC-1043 k8s", ["checkout-api", "checkout", "api", "inc-1043", "inc", "1043", "k8s"]),
        ("GET /users/{user_id}/playlists", ["get", "user", "user_id", "user", "id", "playlist"]),
        ("the of and", []),
    ],
)
def test_bm25_terms(text: str, expected: list[str]) -> None:
    assert bm25_terms(text) == expected


def test_query_and_document_forms_meet() -> None:
    assert set(bm25_terms("recommended tracks")) == set(bm25_terms("recommend a track"))
    assert stem("running") == "run" and stem("naïve") == "naïv"  # letters of any script
    assert set(bm25_terms(" ".join(sorted(STOP_WORDS)))) <= {"e", "g"}  # the parts of "e.g" and "i.e"


@given(st.text())
def test_bm25_terms_never_empty_nor_stop_words(text: str) -> None:
    for term in bm25_terms(text):
        assert term and term not in STOP_WORDS


def test_the_c_stemmer_gives_the_pure_python_stems() -> None:
    # snowballstemmer hands out PyStemmer's C stemmer when it is installed (the `fast`
    # extra): the index must not depend on which one ran.
    c = pytest.importorskip("Stemmer").Stemmer("english")
    from snowballstemmer.english_stemmer import EnglishStemmer

    pure = EnglishStemmer()
    words = ["playlists", "deployments", "running", "generously", "kubernetes", "naïve", "fixtures",
             "authentication", "analysed", "analyzing", "hopeful", "skies", "dying", "agreed", "news"]
    assert [c.stemWord(w) for w in words] == [pure.stemWord(w) for w in words] == [stem(w) for w in words]
