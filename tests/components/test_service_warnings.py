"""What a component search's warnings say matches what it returns: the "nothing fits" line
names the closest of its own results (the retriever, asked for more than ``k``, named its
own longer list), and a budget that holds none of the matches says so in a warning, not
only in ``dropped``."""

from __future__ import annotations

import pytest

from skill_retriever.components.service import ComponentService
from skill_retriever.responses import is_nothing_fits
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


@pytest.fixture
def service(sample_index: Index) -> ComponentService:
    return ComponentService(sample_index, Retriever(sample_index, reranker=None))


def test_the_nothing_fits_line_names_only_what_the_answer_holds(service: ComponentService) -> None:
    answer = service.search("bake sourdough bread with a rye starter", k=1)
    assert answer.nothing_fits, "the sample catalogue has nothing on baking"
    (line,) = [w for w in answer.warnings if is_nothing_fits(w)]
    assert line.endswith(f"; the closest: {answer.results[0].name}")


def test_a_budget_that_holds_no_match_says_so(service: ComponentService) -> None:
    answer = service.search("scaffold a FastAPI service", k=3, budget=5)
    assert not answer.results and answer.dropped
    said = [w for w in answer.warnings if w.startswith("the budget holds none of the matches")]
    assert said and answer.dropped[0].name in said[0] and "raise it" in said[0]
