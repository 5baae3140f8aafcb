"""The BM25 tokenizer: identifiers whole and in parts, any Unicode, linear on large input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skill_retriever.algorithms.tokenize import (
    bm25_tokens,
    is_identifier,
    split_identifier,
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
