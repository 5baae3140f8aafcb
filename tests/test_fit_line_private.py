"""A caller who may not see every item is judged by a "nothing fits" line drawn over what
it may see (`calibration.access_fit`): its ``fit`` is the one an index of those items
alone gives, whatever private items hold. Drawn over every item, the line moved with the
private items: here they answer everyday requests, as the probes are, so the line rose
and a public caller's answers were judged against items it cannot see."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever import Retriever
from skill_retriever.calibration import calibrate_index, calibration_of
from skill_retriever.calibration import fit as fit_module
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder, SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

PUBLIC = {
    "pytest-fixtures": "Write pytest fixtures and parametrised tests for a Python package.",
    "docker-compose": "Run a service and its database locally with docker compose files.",
    "git-bisect": "Find the commit that broke a build with git bisect.",
    "sql-migrations": "Write and apply database schema migrations with Alembic.",
    "react-hooks": "Manage component state in React with hooks and context.",
    "ci-pipeline": "Set up a GitHub Actions pipeline that lints, tests and builds.",
}
PRIVATE = {
    "sourdough": "Bake sourdough bread at home: starter, folding, proofing and baking times.",
    "flight-deals": "Find cheap flights and book a holiday trip abroad.",
    "vegetable-garden": "Plant and water a vegetable garden through the seasons.",
    "puppy-training": "Train a puppy to sit, stay and walk on a leash.",
    "wedding-planner": "Plan a wedding: venue, guests, budget and the menu.",
    "guitar-lessons": "Learn guitar chords and strumming for beginners.",
}
QUERIES = ["bake a loaf of sourdough bread", "write pytest fixtures for my package", "plan a trip to Lisbon",
           "run my service with its database in docker"]


def _nodes(items: dict[str, str], access: tuple[str, ...]) -> list[Node]:
    return [Node(id=f"skill:{name}", kind=NodeKind.SKILL, name=name, description=text, text=text, access=access)
            for name, text in items.items()]


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory, real_embedder: SentenceTransformerEmbedder):
    """(every item, bob's items private; the public items alone), both calibrated."""
    root = tmp_path_factory.mktemp("fit-private")
    both = Index.open(root / "both", embedder=real_embedder, create=True)
    both.add(_nodes(PUBLIC, ()) + _nodes(PRIVATE, ("bob",)))
    public = Index.open(root / "public", embedder=real_embedder, create=True)
    public.add(_nodes(PUBLIC, ()))
    for index in (both, public):
        calibrate_index(index)
    yield both, public
    both.close()
    public.close()


def _fit(index: Index, query: str, principals: list[str] | None = None) -> dict[str, object]:
    found = Retriever(index, principals=principals).search(query, k=3, rerank=False)
    assert found.fit is not None
    return dict(found.fit)


def test_the_private_items_move_the_stored_line(indexes: tuple[Index, Index]) -> None:
    """The set-up holds what the other tests need: a line drawn over every item differs
    from one drawn over the public items alone."""
    both, public = indexes
    drawn_all, drawn_public = calibration_of(both.snapshot()), calibration_of(public.snapshot())
    assert drawn_all is not None and drawn_all.fit is not None
    assert drawn_public is not None and drawn_public.fit is not None
    assert drawn_all.fit.threshold != drawn_public.fit.threshold


def test_a_public_caller_is_judged_as_by_an_index_of_the_public_items_alone(indexes: tuple[Index, Index]) -> None:
    both, public = indexes
    for query in QUERIES:
        assert _fit(both, query) == _fit(public, query), query


def test_a_caller_who_sees_every_item_reads_the_stored_line(indexes: tuple[Index, Index]) -> None:
    both, _public = indexes
    stored = calibration_of(both.snapshot())
    assert stored is not None and stored.fit is not None
    for query in QUERIES:
        fit = _fit(both, query, ["bob"])
        assert fit == _fit(both, query, ["*"])
        # top_similarity is rounded to 4 places in the answer, so the confidence to ~1e-4
        expected = stored.fit.assess(float(fit["top_similarity"]), bool(fit["agree"]))
        assert fit["confidence"] == pytest.approx(expected.confidence, abs=1e-3)
        assert fit["nothing_fits"] == expected.nothing_fits


def test_the_line_drawn_for_a_caller_is_not_said_to_be_stale(indexes: tuple[Index, Index]) -> None:
    """It is drawn from the snapshot searched, so a write since the calibration does not
    make it stale; the stored one, which the see-all caller reads, is (a fifth more items)."""
    both, _public = indexes
    extra = [Node(id=f"skill:extra-{i}", kind=NodeKind.SKILL, name=f"extra-{i}", text=f"Extra {i}.") for i in range(6)]
    both.add(extra)
    try:
        note = "the 'nothing fits' line was calibrated"
        assert [w for w in Retriever(both, principals=["*"]).search(QUERIES[0], k=3).warnings if note in w]
        assert not [w for w in Retriever(both).search(QUERIES[0], k=3).warnings if note in w]
    finally:
        both.delete([n.id for n in extra])


def test_a_caller_who_sees_no_answer_is_not_judged(tmp_path: Path, real_embedder: SentenceTransformerEmbedder) -> None:
    with Index.open(tmp_path / "ix", embedder=real_embedder, create=True) as index:
        index.add(_nodes(PRIVATE, ("bob",)))
        calibrate_index(index)
        found = Retriever(index).search(QUERIES[0], k=3, rerank=False)
        assert found.results == [] and found.fit is None
        assert Retriever(index, principals=["bob"]).search(QUERIES[0], k=3, rerank=False).fit is not None


def test_warm_up_embeds_the_probes_of_an_index_with_access_labels(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """So a caller's first query does not pay for them (the MCP and LangGraph servers warm
    up at start)."""
    embedder = HashingEmbedder()
    with Index.open(tmp_path / "ix", embedder=embedder, create=True) as index:
        index.add(_nodes(PUBLIC, ()) + _nodes(PRIVATE, ("bob",)))
        calibrate_index(index)
        monkeypatch.setattr(fit_module, "_probe_vectors", {})  # as in a process that did not calibrate
        retriever = Retriever(index, principals=["alice"])
        retriever.warm_up()
        before = embedder.texts_embedded
        found = retriever.search(QUERIES[1], k=3, rerank=False)
        assert found.fit is not None
        assert embedder.texts_embedded - before == 1  # the query alone


GERMAN = {
    f"rezept-{i}": "Die Anleitung zeigt, wie man mit einem Werkzeug und der Datenbank eine Sicherung "
                   "erstellt, die man dann auf dem Server wieder einspielen kann."
    for i in range(12)
}


def test_whether_the_catalogue_reads_as_english_is_told_by_what_the_caller_may_see(tmp_path: Path) -> None:
    """English public items beside German private ones: measured over every item, the
    public caller was told that the catalogue does not read as English, and what share of
    its words are, counted over private items."""
    note = "the catalogue does not read as English"
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        index.add(_nodes(PUBLIC, ()) + _nodes(GERMAN, ("bob",)))
        calibrate_index(index)
        stored = calibration_of(index.snapshot())
        assert stored is not None and stored.english_share is not None and stored.english_share < 0.5
        public = Retriever(index).search(QUERIES[1], k=3, rerank=False)
        assert public.fit is not None and not [w for w in public.warnings if note in w]
        seen_all = Retriever(index, principals=["bob"]).search(QUERIES[1], k=3, rerank=False)
        assert [w for w in seen_all.warnings if note in w]
