"""Typed hops read from the query: which edge kind, which way, from which named item."""

from __future__ import annotations

import pytest

from skill_retriever.algorithms.relations import relation_hops
from skill_retriever.model import EdgeKind

OUT, IN = "out", "in"


@pytest.mark.parametrize(
    ("query", "names", "expected"),
    [
        ("which deploy touched a service that checkout-api depends on?", ["checkout-api"], [("checkout-api", EdgeKind.DEPENDS_ON, OUT)]),
        ("deploys shipped to the dependencies of checkout-api", ["checkout-api"], [("checkout-api", EdgeKind.DEPENDS_ON, OUT)]),
        ("payments-db's dependencies", ["payments-db"], [("payments-db", EdgeKind.DEPENDS_ON, OUT)]),
        ("services that depend on Payments-DB", ["payments-db"], [("payments-db", EdgeKind.DEPENDS_ON, IN)]),
        ("the dependents of the auth service", ["auth"], [("auth", EdgeKind.DEPENDS_ON, IN)]),
        ("agents that use the python testing skill", ["python testing"], [("python testing", EdgeKind.USES, IN)]),
        ("skills used by db-reviewer", ["db-reviewer"], [("db-reviewer", EdgeKind.USES, OUT)]),
        ("everything part of the devops plugin", ["devops"], [("devops", EdgeKind.PART_OF, IN)]),
        ("what conflicts with black-formatter", ["black-formatter"], [("black-formatter", EdgeKind.CONFLICTS_WITH, "both")]),
    ],
)
def test_cues_give_kind_and_direction(query: str, names: list[str], expected: list[tuple[str, EdgeKind, str]]) -> None:
    assert [(h.name, h.kind, h.direction) for h in relation_hops(query, names)] == expected


def test_no_cue_no_relation() -> None:
    assert relation_hops("checkout-api latency after a deploy", ["checkout-api"]) == []
    assert relation_hops("what does it depend on", []) == []


def test_a_name_must_stand_as_whole_words() -> None:
    # "checkout" is a name too, but here it is only part of "checkout-api"
    hops = relation_hops("services that checkout-api depends on", ["checkout", "checkout-api"])
    assert [(h.name, h.direction) for h in hops] == [("checkout-api", OUT)]
    assert relation_hops("apis depend on things", ["api"]) == []


def test_phrase_is_the_words_that_asked() -> None:
    (hop,) = relation_hops("Find the deploys of services that checkout-api depends on", ["checkout-api"])
    assert hop.phrase.lower() == "checkout-api depends on"


def test_question_form_what_does_x_depend_on() -> None:
    (hop,) = relation_hops("what does checkout-api depend on", ["checkout-api"])
    assert (hop.kind, hop.direction) == (EdgeKind.DEPENDS_ON, OUT)
