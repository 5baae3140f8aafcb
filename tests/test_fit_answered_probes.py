"""The "nothing fits" line leaves out the probes the catalogue answers (`fit.probe_tops`).

The probes are everyday requests, off-topic for a catalogue of coding skills; a catalogue
that holds a recipe finder answers "what is a good recipe for sourdough bread", and
counted as off-topic that probe raised the line over the catalogue's own answers. Real
bundled MiniLM and real BM25: whether both channels rank one item first is what decides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from skill_retriever.calibration import calibrate_index, calibration_of
from skill_retriever.calibration.fit import (
    MIN_NULL_PROBES,
    best_cosines,
    null_model,
    probe_tops,
    probe_vectors,
    probes,
)
from skill_retriever.calibration.model import FitModel
from skill_retriever.filters import Filters
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

MakeIndex = Callable[[list[Node]], Index]  # the `make_index` fixture (conftest.py)

CODING = [
    ("postgres-migrations", "Write, review and check Postgres schema migrations before a deploy."),
    ("structured-logging", "Set up structured JSON logging with request ids in a Python service."),
    ("flaky-test-hunt", "Find and fix flaky tests in a CI pipeline by rerunning and bisecting."),
    ("openapi-client", "Generate a typed API client from an OpenAPI specification."),
    ("docker-slim", "Make Docker images smaller with multi-stage builds and distroless bases."),
    ("k8s-rollout", "Roll out a Kubernetes deployment with readiness probes and a canary."),
    ("react-forms", "Build accessible React forms with validation and error messages."),
    ("git-hooks", "Install pre-commit git hooks that lint and format staged files."),
    ("sql-tuning", "Read an EXPLAIN plan and add the index a slow SQL query needs."),
    ("terraform-modules", "Split Terraform code into reusable modules with typed variables."),
    ("secret-scan", "Scan a repository and its history for leaked API keys and tokens."),
    ("release-notes", "Draft release notes from merged pull requests since the last tag."),
]
EVERYDAY = [
    ("recipe-finder", ("Find cooking recipes: a good sourdough bread, a vegetarian lasagna, soups and cakes, "
                       "with ingredients and steps.")),
    ("trip-planner", ("Plan a trip: a three day city itinerary for Lisbon or Rome, the best season to visit, "
                      "what to pack.")),
    ("puppy-trainer", "Tips for training a puppy or a dog: to sit, to stay, to walk on a leash."),
]


def _nodes(pairs: list[tuple[str, str]]) -> list[Node]:
    return [Node(id=f"tool:{name}", kind=NodeKind.TOOL, name=name, text=desc, description=desc)
            for name, desc in pairs]


@pytest.fixture(scope="module")
def embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


@pytest.fixture(scope="module")
def everyday(tmp_path_factory: pytest.TempPathFactory, embedder: SentenceTransformerEmbedder) -> Iterator[Index]:
    index = Index.open(tmp_path_factory.mktemp("everyday") / "ix", embedder=embedder, create=True)
    index.add(_nodes(CODING + EVERYDAY), [])
    calibrate_index(index)
    yield index
    index.close()


@pytest.fixture(scope="module")
def coding(tmp_path_factory: pytest.TempPathFactory, embedder: SentenceTransformerEmbedder) -> Iterator[Index]:
    index = Index.open(tmp_path_factory.mktemp("coding") / "ix", embedder=embedder, create=True)
    index.add(_nodes(CODING), [])
    calibrate_index(index)
    yield index
    index.close()


def _fit(index: Index) -> FitModel:
    calibration = calibration_of(index.snapshot())
    assert calibration is not None and calibration.fit is not None
    return calibration.fit


def _line_over_every_probe(index: Index) -> float:
    snap = index.snapshot()
    return null_model(best_cosines(snap, probe_vectors(snap.embedder), Filters.everything())).threshold


def test_probes_the_catalogue_answers_leave_the_line(everyday: Index) -> None:
    fit = _fit(everyday)
    assert fit.probes_answered >= 4  # the sourdough and lasagna recipes, Lisbon, the puppy
    assert len(fit.null_top) + fit.probes_answered == len(probes())
    assert fit.threshold < _line_over_every_probe(everyday) - 0.03  # they no longer raise it


@pytest.mark.parametrize(("request_", "tool"), [
    ("somewhere warm to travel in February", "tool:trip-planner"),
    ("a chocolate cake for a birthday", "tool:recipe-finder"),
])
def test_a_request_the_catalogue_answers_is_not_flagged(everyday: Index, request_: str, tool: str) -> None:
    answer = Retriever(everyday, cache_size=0).search(request_, k=3, rerank=False)
    assert answer.ids[0] == tool and answer.fit is not None
    assert answer.nothing_fits is False
    snap = everyday.snapshot()  # the line drawn over every probe flagged it
    every = null_model(best_cosines(snap, probe_vectors(snap.embedder), Filters.everything()))
    assert every.assess(answer.fit["top_similarity"], answer.fit["agree"]).nothing_fits


def test_an_off_topic_request_is_still_flagged(everyday: Index, coding: Index) -> None:
    for index in (everyday, coding):
        answer = Retriever(index, cache_size=0).search("what is the tallest mountain in Africa", k=3, rerank=False)
        assert answer.nothing_fits is True


def test_a_catalogue_that_answers_no_probe_keeps_its_line(coding: Index) -> None:
    # In 12 items the keyword channel's first item is the semantic one's by chance now and
    # then ("how to tune a guitar by ear" and sql-tuning's "tune"): those probes go too,
    # but they score low, and the line barely moves.
    assert _fit(coding).threshold == pytest.approx(_line_over_every_probe(coding), abs=0.01)


def test_a_catalogue_that_answers_nearly_every_probe_draws_from_all(make_index: MakeIndex) -> None:
    # Items that are the probes themselves: each probe's best match is its own item in
    # both channels, so fewer than MIN_NULL_PROBES would be left; a quantile of so few
    # says nothing, so the line is drawn from every probe, as before.
    texts = probes()
    index = make_index([Node(id=f"doc:{n}", kind=NodeKind.DOCUMENT, name=f"note {n}", text=t, description=t)
                        for n, t in enumerate(texts)])
    snap = index.snapshot()
    tops, answered = probe_tops(snap, Filters.everything())
    assert answered == 0 and len(tops) == len(texts) > MIN_NULL_PROBES
    assert tops == best_cosines(snap, probe_vectors(snap.embedder), Filters.everything())
