"""A larger ``k`` appends results; it never reorders the top.

Found in a CLI walkthrough: ``skill-retriever query "audit a smart contract" -k 10`` put
audit-context-building third and audit fourth, ``-k 40`` the other way round, and even
the first result's score moved. Each channel's list is made at least ``k`` long (the CLI
asks for twice ``k``, to fold copies), and fusion read whole lists: min-max normalisation
took its lower bound from a list's last entry, RRF added a share for every rank. Now only
each list's first ``channel_depth`` entries are fused (``algorithms.fixed_depth``), and
the first ``n`` results of any ``k`` are the first ``n`` of every larger ``k``, scores
included, on every route and with either fusion.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from skill_retriever.algorithms.fixed_depth import (
    DEEPER_SCORE,
    head_of,
    searched_past_depth,
    with_deeper,
)
from skill_retriever.algorithms.rrf import reciprocal_rank_fusion
from skill_retriever.algorithms.score_fusion import score_fusion
from skill_retriever.cli import main
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.keywords import KeywordHit

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "skills"  # ../shared beside the clone
FOLDERS = ("anthropics__skills", "trailofbits__skills")
QUERIES = ("audit a smart contract", "fuzz a rust library", "make a powerpoint presentation",
           # several asks: cover_clauses rebuilds the list over them (xQuAD, greedy to k)
           "Fuzz a rust library with cargo fuzz. Then write semgrep rules; finally audit the smart contract")
KS = (3, 10, 40, 100)
Answer = list[tuple[str, float]]


def _assert_prefixes(answers: dict[int, Answer], what: str) -> None:
    for small, large in pairwise(KS):  # a prefix of a prefix is a prefix
        head = answers[large][: len(answers[small])]
        assert answers[small] == head, f"{what}: k={small} is not the start of k={large}"


def _answers(retriever: Retriever, query: str, **settings: object) -> dict[int, Answer]:
    return {k: [(r.id, r.score) for r in retriever.search(query, k=k, principals=["*"], **settings).results]
            for k in KS}


@pytest.fixture(scope="module")
def skills_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    if not all((DATA / f).is_dir() for f in FOLDERS):
        pytest.skip("real skills data not present")
    ix = str(tmp_path_factory.mktemp("kst") / "ix")
    assert main(["index", *(str(DATA / f) for f in FOLDERS), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    return ix


@pytest.fixture(scope="module")
def skills(skills_dir: str) -> Iterator[Retriever]:
    index = Index.open(skills_dir)
    yield Retriever(index, reranker=None, cache_size=0)
    index.close()


@pytest.mark.parametrize("fusion", ["scores", "rrf"])
@pytest.mark.parametrize("route", [None, "quick", "smart", "ppr"])
def test_a_larger_k_only_appends_on_every_route(skills: Retriever, route: str | None, fusion: str) -> None:
    for query in QUERIES:
        answers = _answers(skills, query, route=route, fusion=fusion)
        assert len(answers[100]) == 100  # the lists did run past the depth of 50
        _assert_prefixes(answers, f"{query!r} route={route} fusion={fusion}")


def test_the_cli_answer_of_a_larger_k_starts_with_the_smaller(skills_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    answers: dict[int, Answer] = {}
    for k in KS:
        capsys.readouterr()
        assert main(["query", QUERIES[0], "--index-dir", skills_dir, "-k", str(k), "--json"]) == 0
        answers[k] = [(r["id"], r["score"]) for r in json.loads(capsys.readouterr().out)["results"]]
    _assert_prefixes(answers, "query --json")


def test_a_synthetic_catalogue_past_the_depth(tmp_path: Path) -> None:
    """The same without the shared data: 150 skills, most of them matching the query."""
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    topics = ("fuzz", "audit", "lint", "deploy", "parse")
    index.upsert([Node(f"s{i}", NodeKind.SKILL, f"{topics[i % 5]} skill {i}",
                       f"{topics[i % 5]} the target {i} with a harness" + " and a report" * (i % 7))
                  for i in range(150)])
    retriever = Retriever(index, reranker=None, cache_size=0)
    for fusion in ("scores", "rrf"):
        answers = _answers(retriever, "fuzz the target with a harness and audit the report", fusion=fusion)
        assert len(answers[100]) == 100
        _assert_prefixes(answers, f"synthetic fusion={fusion}")
    index.close()


def test_the_head_is_fused_as_before_and_deeper_items_follow_by_best_rank() -> None:
    """RRF over whole lists let b's rank 60 in the second list lift it above a; at depth
    50 the head is the fusion of the lists' first 50 entries, and what only entries past
    50 list follows, best rank first (equal ranks: the heavier channel's first)."""
    first = ["a", "b", *[f"x{i}" for i in range(48)], "late1", "late2"]
    second = ["a2", *[f"y{i}" for i in range(49)], "late3", "b", "late2"]
    whole = {"one": first, "two": second}
    head = reciprocal_rank_fusion(head_of(whole, 50))
    fused = with_deeper(head, whole, 50, {"one": 1.0, "two": 2.0})
    assert [f.id for f in fused[: len(head)]] == [f.id for f in head]
    assert [(f.id, f.score) for f in fused[len(head):]] == [("late3", DEEPER_SCORE), ("late1", DEEPER_SCORE),
                                                          ("late2", DEEPER_SCORE)]
    assert dict(fused[-1].ranks) == {"one": 52, "two": 53}
    b = next(f for f in fused if f.id == "b")
    assert dict(b.ranks) == {"one": 2}  # its rank past the depth adds nothing
    assert [f.id for f in reciprocal_rank_fusion(whole)].index("b") < [f.id for f in head].index("b")


def test_min_max_bounds_come_from_the_first_depth_entries() -> None:
    """Score fusion of cut lists: the scores of the head do not depend on what lies past."""
    short = {"one": [(f"i{n}", 1.0 - n / 100) for n in range(50)], "two": [(f"i{n}", 5.0 - n / 10) for n in range(50)]}
    longer = {ch: [*hits, *[(f"d{ch}{n}", -1.0) for n in range(30)]] for ch, hits in short.items()}
    expected = [(f.id, f.score) for f in score_fusion(short)]
    head = score_fusion(head_of(longer, 50))
    fused = with_deeper(head, {ch: [i for i, _ in hits] for ch, hits in longer.items()}, 50)
    assert [(f.id, f.score) for f in fused[:50]] == expected
    assert len(fused) == 110 and all(f.score == DEEPER_SCORE for f in fused[50:])


def test_lists_no_longer_than_the_depth_are_fused_as_they_were() -> None:
    whole = {"one": ["a", "b", "c"], "two": ["c", "d"]}
    head = reciprocal_rank_fusion(head_of(whole, 50))
    assert with_deeper(head, whole, 50) == head == reciprocal_rank_fusion(whole)
    assert head_of({"named": list("abc"), "one": list("abc")}, 2, whole={"named"}) == {"named": list("abc"),
                                                                                       "one": list("ab")}


def test_a_channel_list_past_the_depth_starts_with_the_search_that_deep() -> None:
    """A search cuts among items tied at its cut as a partition leaves them (copies of
    one file tie exactly: found on the dev catalogue, where the 50th BM25 hit of a 50-long
    and of a 60-long list were two copies of backend-architect.md)."""
    scores = {"a": 3.0, "b": 2.0, "c": 1.0, "d": 1.0, "e": 1.0, "f": 1.0}

    def search(n: int) -> list[KeywordHit]:  # ties at the cut: the last ids, as a partition may leave them
        kth = sorted(scores.values(), reverse=True)[n - 1]
        above = [i for i in scores if scores[i] > kth]
        tied = sorted((i for i in scores if scores[i] == kth), reverse=True)[: n - len(above)]
        return [KeywordHit(i, scores[i]) for i in sorted(above + tied, key=lambda i: (-scores[i], i))]

    assert search(5)[:3] != search(3)  # the premise: the longer search starts otherwise
    found = searched_past_depth(search, 3, 5)
    assert found[:3] == search(3) and [h.id for h in found] == ["a", "b", "f", "d", "e"]
    assert searched_past_depth(search, 3, 2) == search(2)  # not past the depth: the search itself
