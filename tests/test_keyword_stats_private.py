"""BM25's term statistics (document frequency, count, mean length) over the items the
caller may see (found in a privacy walk: counted over every item, a private item that holds
a rare query word lowered a visible item's keyword score, so a public caller could probe
for the word). Real indexes (the hashing embedder) and the keyword search every phase calls
(`IndexSnapshot.search_keywords`); `stores.keyword_access`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from skill_retriever.filters import Filters
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.keywords import BM25Index, KeywordSnapshot
from skill_retriever.stores.snapshot import IndexSnapshot

Make = Callable[[str, list[Node]], IndexSnapshot]

QUERY = "zephyr canary deploy rollback"
PUBLIC = [
    Node(id="s-canary", kind=NodeKind.SKILL, name="canary-deploy",
         text="Deploy with a canary and an automatic rollback; zephyr gates the canary."),
    Node(id="s-rollback", kind=NodeKind.SKILL, name="rollback",
         text="Roll back a deploy that broke: revert, redeploy, check the dashboards."),
    Node(id="s-flags", kind=NodeKind.SKILL, name="feature-flags",
         text="Feature flags let you deploy dark and release to a share of the users."),
    Node(id="c-logs", kind=NodeKind.COMMAND, name="logs", text="Tail the service logs of the last deploy."),
]


def _private(text: str) -> list[Node]:
    return [
        Node(id="p-runbook", kind=NodeKind.SKILL, name="private-runbook", text=text, access=("bob",)),
        Node(id="p-notes", kind=NodeKind.DOCUMENT, name="private-notes", access=("bob",),
             text="Internal notes on every deploy of the quarter, long enough to move the mean length of "
                  "a document a good deal: deploy, deploy, rollback, canary, postmortem, follow-up."),
    ]


@pytest.fixture
def open_snapshot(tmp_path: Path) -> Iterator[Make]:
    opened: list[Index] = []

    def make(name: str, nodes: list[Node]) -> IndexSnapshot:
        index = Index.open(tmp_path / name, embedder=HashingEmbedder(), create=True)
        opened.append(index)
        index.upsert(nodes)
        return index.snapshot()

    yield make
    for index in opened:
        index.close()


def _scores(snap: IndexSnapshot, filters: Filters) -> dict[str, float]:
    return {h.id: h.score for h in snap.search_keywords(QUERY, 50, filters)}


def _close(a: dict[str, float], b: dict[str, float]) -> bool:
    return a.keys() == b.keys() and all(abs(a[i] - b[i]) <= 1e-9 for i in a)


def test_a_public_callers_scores_are_those_of_an_index_of_the_public_items(open_snapshot: Make) -> None:
    alone = open_snapshot("public", PUBLIC)
    mixed = open_snapshot("mixed", [*PUBLIC, *_private("The zephyr rota: who holds the canary pager.")])
    public = _scores(mixed, Filters(principals=[]))
    assert public and set(public) <= {n.id for n in PUBLIC}
    assert _close(public, _scores(alone, Filters(principals=[])))
    # A kind filter is the caller's own choice: the statistics stay those of all it may see.
    skills = Filters(principals=[], kinds=["skill"])
    assert _close(_scores(mixed, skills), {i: s for i, s in public.items() if i.startswith("s-")})
    # The caller holding the label reads every item's statistics, as one who sees all does.
    everything = _scores(mixed, Filters.everything())
    bob = _scores(mixed, Filters(principals=["bob"]))
    assert _close(bob, everything) and {"p-runbook", "p-notes"} <= set(bob)
    assert not _close({i: bob[i] for i in public}, public)  # so the statistics above did move


def test_a_private_item_holding_a_rare_query_word_moves_no_visible_score(open_snapshot: Make) -> None:
    holds = open_snapshot("holds", [*PUBLIC, *_private("The zephyr rota: who holds the canary pager.")])
    lacks = open_snapshot("lacks", [*PUBLIC, *_private("The pager rota: who holds the canary pager.")])
    assert _close(_scores(holds, Filters(principals=[])), _scores(lacks, Filters(principals=[])))
    assert _scores(holds, Filters(principals=["bob"]))["s-canary"] < _scores(lacks, Filters(principals=["bob"]))["s-canary"]


def test_statistics_are_built_once_per_access(open_snapshot: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    snap = open_snapshot("mixed", [*PUBLIC, *_private("The zephyr rota.")])
    built: list[int] = []
    seen_through = KeywordSnapshot.seen_through

    def counted(self: KeywordSnapshot, visible: Callable[[str], bool]) -> KeywordSnapshot:
        built.append(1)
        return seen_through(self, visible)

    monkeypatch.setattr(KeywordSnapshot, "seen_through", counted)
    first = _scores(snap, Filters(principals=[]))
    assert _scores(snap, Filters(principals=[], kinds=["skill", "command"])) == first
    assert snap.search_keywords("rollback", 3, Filters(principals=[]))
    assert len(built) == 1
    _scores(snap, Filters.everything())
    _scores(snap, Filters(principals=["*", "bob"]))
    assert len(built) == 1  # a caller who sees every item costs nothing more
    _scores(snap, Filters(principals=["bob"]))
    _scores(snap, Filters(principals=["bob"]))
    assert len(built) == 2


@pytest.mark.parametrize("variant", ["lucene", "okapi"])
def test_a_view_scores_as_an_index_of_its_documents(variant: str) -> None:
    docs = {n.id: n.text for n in PUBLIC} | {"x": "zephyr zephyr rota canary", "y": "deploy deploy deploy notes"}
    full = BM25Index(idf=variant)
    full.upsert(docs.items())
    alone = BM25Index(idf=variant)
    alone.upsert((i, t) for i, t in docs.items() if i not in ("x", "y"))
    view = full.frozen().seen_through(lambda i: i not in ("x", "y"))
    ids, scores = view.scores(QUERY)
    got = dict(zip(ids, scores.tolist(), strict=True))
    want_ids, want = alone.scores(QUERY)
    assert got.pop("x") == got.pop("y") == 0.0
    assert _close(got, dict(zip(want_ids, want.tolist(), strict=True)))
    assert view.seen_through(lambda i: True) is full.frozen()  # a view of a view reads the whole again
