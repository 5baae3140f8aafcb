"""A query that is the name of an item the caller may get is not flagged "nothing fits":
the catalogue holds what was asked for by name. Found in a walkthrough: on the index of
wshobson__agents (539 items, line 0.2585), the queries "status" and "finetune", the exact
names of two of its commands, were flagged "nothing fits" (top cosines 0.2645 and 0.2744):
a one-word name is a small part of a long item's embedded text, and a large catalogue's
line sits high; the command was in the answer. Here a small catalogue gets a line drawn that high (the calibrated one,
raised above what the name query scores), so the case is the same. Real embedder."""

from __future__ import annotations

import dataclasses

import pytest
from calibrated_graph import calibrated_graph_index

from skill_retriever.calibration import calibration_of
from skill_retriever.named_query import names_an_answer
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

NODES = [
    {"id": "cmd:status", "kind": "command", "name": "status",
     "text": "Display project progress, active tracks and next actions. " + "Read the plan file first. " * 60},
    {"id": "cmd:team-status", "kind": "command", "name": "team-status",
     "text": "Display team members, their tasks and the progress of an agent team."},
    {"id": "skill:helm", "kind": "skill", "name": "helm-charts", "text": "Write Helm charts for Kubernetes."},
]  # fmt: skip


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, real_embedder):  # type: ignore[no-untyped-def]
    idx = calibrated_graph_index(tmp_path_factory.mktemp("named"), NODES, real_embedder)
    # the line of a large catalogue: above what "status" scores here, with keywords agreeing or not
    top = Retriever(idx, cache_size=0).search("status", k=3, rerank=False).fit
    assert top is not None
    calibration = calibration_of(idx.snapshot())
    assert calibration is not None and calibration.fit is not None
    fit = calibration.fit
    high = dataclasses.replace(fit, threshold=top["top_similarity"] + fit.agreement_bonus + 0.05)
    idx.store_meta("calibration", dataclasses.replace(calibration, fit=high).to_json())
    yield idx
    idx.close()


@pytest.mark.parametrize("text", ["status", "Status", "  status ", "STATUS"])
def test_an_item_name_is_not_flagged(index: Index, text: str) -> None:
    response = Retriever(index, cache_size=0).search(text, k=3, rerank=False)
    assert "cmd:status" in response.ids
    assert response.fit is not None and not response.nothing_fits, response.fit
    assert not any("fits this well" in w for w in response.warnings), response.warnings


def test_words_beside_the_name_are_judged_by_the_line(index: Index) -> None:
    response = Retriever(index, cache_size=0).search("status of my sourdough starter", k=3, rerank=False)
    assert response.nothing_fits, response.fit


def test_a_name_the_filters_leave_out_is_judged_by_the_line(index: Index) -> None:
    response = Retriever(index, cache_size=0).search("status", k=3, rerank=False, kinds=["skill"])
    assert response.nothing_fits, response.fit


def test_names_an_answer(index: Index) -> None:
    nodes = index.snapshot().nodes
    assert names_an_answer("team-status", ["cmd:team-status"], nodes)
    assert names_an_answer(" Team-Status ", ["skill:helm", "cmd:team-status"], nodes)
    assert names_an_answer("team status", ["cmd:team-status"], nodes)  # its hyphens typed as spaces (whole_query_names)
    assert not names_an_answer("the team status", ["cmd:team-status"], nodes)  # words around it: the line judges
    assert not names_an_answer("team-status", ["cmd:status"], nodes)  # named, but not in the answer
    assert not names_an_answer("", ["cmd:status"], nodes)
