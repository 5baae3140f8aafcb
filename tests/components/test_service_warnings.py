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


def test_a_budget_that_holds_nothing_still_names_the_closest(
    sample_index: Index, service: ComponentService, capsys: pytest.CaptureFixture[str]
) -> None:
    """The closest are the best ranked before the budget; named after it, a budget of 0
    read "the closest: nothing" (search, component search and the CLI alike)."""
    from skill_retriever.cli import main

    query = "bake sourdough bread with a rye starter"
    retriever = Retriever(sample_index, reranker=None)
    answer = retriever.search(query, k=3, budget=0)
    (line,) = [w for w in answer.warnings if is_nothing_fits(w)]
    full = retriever.search(query, k=3)
    assert not answer.results and line.endswith("; the closest: " + ", ".join(r.name for r in full.results))
    components = service.search(query, k=3, budget=0)
    (said,) = [w for w in components.warnings if is_nothing_fits(w)]
    assert not components.results and not said.endswith("; the closest: nothing")
    index_dir = str(sample_index.path)
    sample_index.close()
    assert main(["query", query, "-k", "3", "--budget", "0", "--no-rerank", "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert "the closest: nothing" not in out and f"the closest: {full.results[0].name}" in out


def test_the_budget_note_offers_filling_only_when_a_dropped_result_would_fit(sample_index: Index) -> None:
    retriever = Retriever(sample_index, reranker=None)
    answer = retriever.search("scaffold a FastAPI service", k=5, budget=0)
    (note,) = [w for w in answer.warnings if w.startswith("the token budget of 0")]
    assert "none of the others fits in the 0 tokens left" in note and "budget_fill" not in note
    sizes = sorted(r.token_count for r in retriever.search("scaffold a FastAPI service", k=5).results)
    roomy = retriever.search("scaffold a FastAPI service", k=5, budget=sizes[0])
    notes = [w for w in roomy.warnings if w.startswith("the token budget of")]
    assert all(("budget_fill=True" in n) != ("none of the others fits" in n) for n in notes)


def test_every_channel_off_is_refused_and_semantic_off_says_there_is_no_fit(sample_index: Index) -> None:
    """All channels off answered nothing, always, without a word; the semantic channel off
    took the "nothing fits" judgement away silently."""
    from skill_retriever.config import CHANNELS
    from skill_retriever.exceptions import ConfigError

    retriever = Retriever(sample_index, reranker=None)
    with pytest.raises(ConfigError, match="every channel is off; switch at least one of"):
        retriever.search("bake sourdough bread", channels={c: False for c in CHANNELS})
    answer = retriever.search("bake sourdough bread", channels={"semantic": False})
    assert answer.fit is None
    assert "no 'nothing fits' judgement: it reads the semantic channel, which is off" in answer.warnings
    assert retriever.search("bake sourdough bread").fit is not None  # calibrated: judged when on
