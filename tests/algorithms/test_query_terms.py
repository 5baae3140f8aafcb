"""Query components, coverage, named entities and the complexity rule, on worked examples."""

from __future__ import annotations

import pytest

from skill_retriever.algorithms.query_terms import (
    STOP_WORDS,
    Coverage,
    NameMatcher,
    classify_complexity,
    coverage,
    named_entities,
    query_components,
    tokenize_words,
)


def test_tokenize_words_is_the_identifier_preserving_tokenizer() -> None:
    assert tokenize_words("Fix INC-1043 in checkout-api") == [
        "fix",
        "inc-1043",
        "in",
        "checkout-api",
    ]


def test_stop_words() -> None:
    assert isinstance(STOP_WORDS, frozenset)
    assert {"the", "and", "of", "which", "how", "find", "show"} <= STOP_WORDS
    assert not {"deploy", "postgres", "migration", "api"} & STOP_WORDS
    assert all(w == w.lower() for w in STOP_WORDS)


def test_query_components_worked_example() -> None:
    assert query_components("Deploy the checkout-api to k8s") == [
        "deploy", "checkout-api", "k8s",
        "deploy checkout-api", "checkout-api k8s",
        "deploy checkout-api k8s",
    ]  # fmt: skip


def test_query_components_min_length_applies_to_keywords_only() -> None:
    # "ci" is too short to be a keyword but still joins the n-grams.
    assert query_components("run CI on main") == ["run", "main", "run ci", "ci main", "run ci main"]
    assert query_components("run CI on main", min_length=2)[:3] == ["run", "ci", "main"]


def test_query_components_deduplicates_in_order() -> None:
    assert query_components("deploy deploy deploy") == [
        "deploy",
        "deploy deploy",
        "deploy deploy deploy",
    ]
    assert query_components("the of and") == []
    assert query_components("") == []


def test_coverage_words_anywhere_in_one_text() -> None:
    comps = ["postgres", "migration", "postgres migration", "rollback", "postgres rollback"]
    texts = ["A Postgres schema migration runner.", "Rollback strategies for deploys."]
    cov = coverage(comps, texts)
    # "postgres rollback": both words occur, but never in the same text -> missing.
    assert cov == Coverage(
        ratio=4 / 5,
        covered=("postgres", "migration", "postgres migration", "rollback"),
        missing=("postgres rollback",),
    )


def test_coverage_is_whole_word_and_sees_identifier_parts() -> None:
    cov = coverage(
        ["api", "checkout", "checkout-api", "deploy"], ["the checkout-api apis", "deployment"]
    )
    assert cov.covered == ("api", "checkout", "checkout-api")
    assert cov.missing == ("deploy",)  # "deployment" is not the word "deploy"
    # an identifier component needs the identifier, not its parts apart
    assert coverage(["checkout-api"], ["checkout and api"]).missing == ("checkout-api",)


def test_coverage_edge_cases() -> None:
    assert coverage([], ["anything"]) == Coverage(1.0, (), ())
    assert coverage(["x1"], []) == Coverage(0.0, (), ("x1",))
    # repeats count once, punctuation-only components are ignored
    assert coverage(["deploy", "deploy", "!!"], ["Deploy."]) == Coverage(1.0, ("deploy",), ())
    # texts are read once, even from a generator
    assert coverage(["a1", "b2"], (t for t in ["A1", "B2"])).ratio == 1.0


def test_named_entities_regex_skips_sentence_starters() -> None:
    query = "How does Kubernetes relate to GitHub Actions? Find the Helm chart. The end"
    assert named_entities(query) == ["Kubernetes", "GitHub", "Actions", "Helm"]
    # mid-sentence a starter word is kept; all-caps words do not match the regex
    assert named_entities("deploy with Show and API") == ["Show"]


def test_named_entities_known_names_are_whole_tokens() -> None:
    names = ["checkout-api", "checkout", "deploy-v3.5.0", "Helm chart", "api"]
    query = "Which service broke after deploy-v3.5.0 of checkout-api? see the helm  chart"
    # "checkout" and "api" are parts of checkout-api, not words of the query.
    assert named_entities(query, names) == ["deploy-v3.5.0", "checkout-api", "Helm chart"]
    assert named_entities(query, NameMatcher(names)) == named_entities(query, names)


def test_named_entities_known_name_and_regex_dedupe_ignoring_case() -> None:
    # "postgres" is already listed as "Postgres"; the starter "Use" is skipped by the
    # regex but found as a known name.
    assert named_entities("Use Postgres", ["postgres", "Use"]) == ["Postgres", "Use"]
    assert named_entities("Use Postgres", ["postgres"]) == ["Postgres"]


def test_name_matcher_with_100k_names() -> None:
    names = [f"service-{i}" for i in range(100_000)] + ["payments gateway", "Service-99999"]
    matcher = NameMatcher(names)
    assert len(matcher) == 100_002
    found = matcher.find("is service-42 behind the Payments Gateway or service-99999?")
    assert found == ["service-42", "payments gateway", "service-99999", "Service-99999"]
    assert matcher.find("no names here") == []
    assert NameMatcher([]).find("anything") == []


@pytest.mark.parametrize(
    ("query", "entities", "expected"),
    [
        ("postgres migration", [], "simple"),
        ("Which skill deploys to AWS?", [], "simple"),  # question word, not a relative clause
        ("roll back the failed deploy of checkout service now please", [], "medium"),
        ("Docker and Kubernetes", [], "complex"),
        ("build then deploy", [], "complex"),
        ("the skill which deploys", [], "complex"),
        ("owner of the checkout service", [], "complex"),
        ("a hook that depends on git", [], "complex"),
        ("postgres versus mysql", [], "complex"),
        ("incidents before the release", [], "complex"),
        ("Postgres depends Redis", ["Postgres", "Redis"], "complex"),
        ("Postgres depends", ["Postgres"], "simple"),  # a relation needs two entities
        ("Postgres Redis", ["Postgres", "Redis"], "simple"),  # ... and a relation word
        (" ".join(f"word{i}" for i in range(11)), [], "medium"),
        (" ".join(f"word{i}" for i in range(12)), [], "complex"),
        ("one two three four", [], "simple"),
        ("one two three four five", [], "medium"),
    ],
)
def test_classify_complexity(query: str, entities: list[str], expected: str) -> None:
    assert classify_complexity(query, entities) == expected
