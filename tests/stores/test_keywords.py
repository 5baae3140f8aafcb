"""BM25Index: held against rank_bm25 score for score, plus incremental behaviour."""

from __future__ import annotations

import math

import numpy as np
import pytest

from skill_retriever.stores.keywords import BM25Index, rank_bm25_reference

CORPUS = [
    "Deploy checkout-api to production with a canary and automatic rollback.",
    "INC-1043: checkout-api latency spike after deploy; postgres lock contention.",
    "INC-1044: payments-worker queue backlog during the nightly batch.",
    "Write postgres schema migrations with alembic and roll back safely.",
    "Alembic revision scripts: autogenerate, upgrade head, downgrade one revision.",
    "Share test setup with pytest fixtures, scopes and factories.",
    "Run ruff format and ruff check in a pre-commit hook on staged python files.",
    "Format legacy Python code with Black and isort; keep diffs small.",
    "Structured logging with JSON lines, request ids and log levels for every service.",
    "OpenTelemetry tracing: spans, context propagation and sampling for the service mesh.",
    "SLO alerting on error budget burn rates with multi-window alerts.",
    "Load testing with k6: ramp up virtual users and watch p99 latency.",
    "Contract testing between consumer and provider services with pact files.",
    "Design REST APIs: resource names, pagination, idempotency keys and error bodies.",
    "Scaffold a FastAPI service with health checks, settings and a Dockerfile.",
    "Container image hardening: non-root user, pinned base image digest, no shell.",
    "Dependency audit: pip-audit and osv-scanner in CI, weekly update pull request.",
    "GitHub MCP server: read pull requests, issues and workflow runs.",
    "Kubernetes rollout: readiness probes, surge settings and rollback of a deployment.",
    "Feature flags let you deploy dark and release to a percentage of users.",
    "Database backups: nightly postgres base backups and WAL archiving to object storage.",
    "Redis cache invalidation after a flush returned stale search results (INC-0999).",
    "Accessibility audit of web pages against WCAG 2.2 AA with keyboard checks.",
    "Write an architecture decision record: context, options, decision, consequences.",
    "Rotate secrets in the vault and restart the service that reads them.",
    "Terraform plan and apply for the service infrastructure with remote state locking.",
    "On-call handover notes: open incidents, flaky alerts and pending deploys.",
    "Python packaging with pyproject.toml, wheels and a src layout.",
    "Review database changes: indexes, locking and long transactions in postgres.",
    "The the the service service deploy deploy deploy checkout checkout api api.",
]
IDS = [f"d{i:02d}" for i in range(len(CORPUS))]

QUERIES = [
    "postgres migration rollback",
    "checkout-api deploy",
    "INC-1043",
    "service",  # in many docs: exercises the okapi idf floor
    "the service deploy",
    "pytest fixtures pytest",  # a repeated query term counts twice, as in rank_bm25
    "kubernetes readiness probes",
    "nothing-matches-this zzzz",
    "Python python PYTHON",
]


@pytest.fixture(scope="module")
def okapi() -> BM25Index:
    index = BM25Index(idf="okapi")
    index.upsert(zip(IDS, CORPUS, strict=True))
    return index


@pytest.fixture(scope="module")
def lucene() -> BM25Index:
    index = BM25Index()
    index.upsert(zip(IDS, CORPUS, strict=True))
    return index


@pytest.mark.parametrize("query", QUERIES)
def test_okapi_equals_rank_bm25(okapi: BM25Index, query: str) -> None:
    ids, ours = okapi.scores(query)
    assert ids == IDS
    reference = rank_bm25_reference(CORPUS, query)
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-9)


def test_okapi_floor_matches_rank_bm25() -> None:
    # A term in more than half the documents has a negative raw okapi idf; both
    # implementations floor it to epsilon * mean idf.
    small = ["deploy a", "deploy b", "deploy c", "other d"]
    index = BM25Index(idf="okapi")
    index.upsert(zip(["a", "b", "c", "d"], small, strict=True))
    _, ours = index.scores("deploy")
    reference = rank_bm25_reference(small, "deploy")
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-12)
    assert ours[0] > 0  # floored to epsilon * mean idf, not negative


def test_lucene_idf_never_negative(lucene: BM25Index) -> None:
    for query in QUERIES:
        _, scores = lucene.scores(query)
        assert (scores >= 0).all(), query
    # A term in 3 of 4 documents still counts positively (okapi's raw idf is negative).
    index = BM25Index()
    index.upsert([("a", "deploy a"), ("b", "deploy b"), ("c", "deploy c"), ("d", "other")])
    hits = index.search("deploy", 10)
    assert {h.id for h in hits} == {"a", "b", "c"}
    assert all(h.score > 0 and math.isfinite(h.score) for h in hits)


def test_search_is_sorted_and_positive(lucene: BM25Index) -> None:
    hits = lucene.search("postgres schema migrations", 10)
    # exactly the docs holding a query term, the one with all three first
    assert {h.id for h in hits} == {"d01", "d03", "d20", "d28"}
    assert hits[0].id == "d03"
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True) and min(scores) > 0
    assert lucene.search("nothing-matches-this zzzz", 5) == []
    assert lucene.search("postgres", 0) == []


def test_upsert_replaces() -> None:
    index = BM25Index()
    index.upsert([("x", "alpha bravo"), ("y", "charlie delta")])
    index.upsert([("x", "echo foxtrot")])
    assert len(index) == 2
    assert index.search("alpha", 5) == []
    assert [h.id for h in index.search("foxtrot", 5)] == ["x"]
    assert [h.id for h in index.search("charlie", 5)] == ["y"]


def test_delete_removes() -> None:
    index = BM25Index()
    index.upsert([("x", "alpha bravo"), ("y", "alpha delta")])
    assert {h.id for h in index.search("alpha", 5)} == {"x", "y"}
    index.delete(["x", "not-there"])
    assert len(index) == 1
    assert [h.id for h in index.search("alpha", 5)] == ["y"]
    assert index.search("bravo", 5) == []


def test_allowed_filters_before_the_cut(lucene: BM25Index) -> None:
    query = "postgres"
    unfiltered = lucene.search(query, 100)
    assert len(unfiltered) >= 4
    best = unfiltered[0].id
    k = 3
    filtered = lucene.search(query, k, allowed=lambda i: i != best)
    assert len(filtered) == k  # the filtered-out best doc does not cost a slot
    assert best not in {h.id for h in filtered}
    assert [h.id for h in filtered] == [h.id for h in unfiltered if h.id != best][:k]


def test_identifiers_match_whole() -> None:
    index = BM25Index()
    index.upsert(
        [
            ("whole", "Deploy checkout-api behind the gateway."),
            ("apart", "The checkout page calls the payments api."),
            ("inc", "Postmortem of INC-1043: connection pool exhaustion."),
            ("other-inc", "Postmortem of INC-1044 and the 1043 runbook page."),
            ("filler", "Unrelated text about formatting and linting."),
        ]
    )
    hits = index.search("checkout-api", 5)
    assert hits[0].id == "whole"
    assert hits[0].score > hits[1].score
    hits = index.search("INC-1043", 5)
    assert hits[0].id == "inc"
    assert hits[0].score > hits[1].score
    # the parts still match: a query for the part finds the identifier
    assert "whole" in {h.id for h in index.search("checkout", 5)}
    # case does not matter
    assert index.search("inc-1043", 1)[0].id == "inc"


def test_bad_idf_variant() -> None:
    with pytest.raises(ValueError, match="idf"):
        BM25Index(idf="bm25+")


def test_word_forms_meet_and_function_words_match_nothing() -> None:
    index = BM25Index()
    index.upsert([("pl", "Add tracks to a playlist"), ("dep", "Roll back the deployment"), ("x", "of the and to")])
    assert [h.id for h in index.search("playlists with the new track", 5)] == ["pl"]
    assert [h.id for h in index.search("deploying", 5)] == ["dep"]
    assert index.search("the of and", 5) == []  # before stop words, "x" matched all three
    raw = BM25Index(tokenizer=str.split)  # the analyser is a parameter: exact words only
    raw.upsert([("pl", "Add tracks to a playlist")])
    assert raw.search("playlists", 5) == []
