"""Copies of one component fold into one entry and ``k`` still counts distinct entries.

One skill is copied byte for byte into four sources, beside five other skills. Asked for
three, ``skill-retriever query`` (text and ``--json`` alike) and `ComponentService` answer
three distinct components, the copy once with its three other hosts; they used to answer
one or two entries (the copies took the places), and the JSON listed the copies unfolded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.components.refill import fold_to_k
from skill_retriever.components.service import ComponentService
from skill_retriever.components.view import CallerView
from skill_retriever.responses import SearchResponse
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

SOURCES = ("alpha", "beta", "gamma", "delta")
COPIED = "brand-kit"
COPY_BODY = (
    "# Brand kit\n\nApply the brand colours and typography to every artifact: the palette is "
    "navy, coral and sand; headings use a serif face, body text a humanist sans; keep the "
    "logo clear of other marks and never stretch it.\n"
)
OTHERS = {
    "palette-picker": "Pick a colour palette for a brand from a mood board and check contrast.",
    "type-scale": "Choose a typography scale: heading sizes, line heights and font pairings.",
    "helm-deploy": "Deploy services to kubernetes with helm charts and rollbacks.",
    "pg-migrations": "Write postgres schema migrations that are safe under live traffic.",
    "ruff-lint": "Lint and format python code with ruff in pre-commit and CI.",
}
QUERY = "apply brand colours and typography palette"


def _skill(folder: Path, name: str, description: str, body: str) -> None:
    path = folder / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n\n{body}", encoding="utf-8")


def _build(root: Path, others: dict[str, str]) -> str:
    """The copy in every source (byte-identical), ``others`` once, in the first source."""
    for source in SOURCES:
        _skill(root / source, COPIED, "Apply the brand colours and typography.", COPY_BODY)
    for name, text in others.items():
        _skill(root / SOURCES[0], name, text, f"# {name}\n\n{text}\n")
    ix = str(root / "ix")
    assert main(["index", *(str(root / s) for s in SOURCES), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    return ix


def _copy_ids() -> set[str]:
    return {f"{s}/skills/{COPIED}/SKILL.md" for s in SOURCES}


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _build(tmp_path_factory.mktemp("fold"), OTHERS)


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The copy and one other skill: two distinct components in all."""
    return _build(tmp_path_factory.mktemp("two"), dict(list(OTHERS.items())[:1]))


def _text(ix: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[list[str], str]:
    capsys.readouterr()
    assert main(["query", QUERY, "--index-dir", ix, *extra]) == 0
    out = capsys.readouterr().out
    names = [line.split(". ", 1)[1].split(" [")[0] for line in out.splitlines() if line[:3].strip().rstrip(".").isdigit()]
    return names, out


def _json(ix: str, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(["query", QUERY, "--index-dir", ix, "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.fixture
def index(full: str) -> Iterator[Index]:
    opened = Index.open(full)
    yield opened
    opened.close()


def test_the_copies_rank_first_so_they_would_take_the_places(index: Index) -> None:
    """The premise: the core search lists every copy, at the top (it is left as it is)."""
    ids = Retriever(index).search(QUERY, k=6).ids
    assert set(ids[:4]) == _copy_ids() and len(ids) == 6


@pytest.mark.parametrize("k", [2, 3])
def test_text_shows_k_distinct_with_the_other_hosts(full: str, capsys: pytest.CaptureFixture[str], k: int) -> None:
    names, out = _text(full, capsys, "-k", str(k))
    assert out.startswith(f"{k} results") and len(names) == k == len(set(names)) and names[0] == COPIED
    assert out.count("also at: ") == 1 and "(+1 more)" in out  # three other hosts: two named, one counted


def test_json_agrees_with_the_text(full: str, capsys: pytest.CaptureFixture[str]) -> None:
    names, _ = _text(full, capsys, "-k", "3")
    data = _json(full, capsys, "-k", "3")
    assert [r["name"] for r in data["results"]] == names
    first = data["results"][0]
    assert {first["id"], *first["also_at"]} == _copy_ids() and len(first["also_at"]) == 3
    assert all(r["also_at"] == [] for r in data["results"][1:])
    assert data["stats"]["fold"]["copies_folded"] == 3
    back = SearchResponse.from_dict(data)  # the Python form still reads the command's JSON
    assert back.ids == [r["id"] for r in data["results"]]


def test_the_budget_counts_the_entries_not_their_copies(full: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(full, capsys, "-k", "3")
    tokens = [r["token_count"] for r in data["results"]]
    # room for the three entries, not for the three folded copies' tokens as well
    budgeted = _json(full, capsys, "-k", "3", "--budget", str(sum(tokens)))
    assert [r["id"] for r in budgeted["results"]] == [r["id"] for r in data["results"]]
    assert len({r["name"] for r in budgeted["results"]}) == 3 and not budgeted["warnings"]
    names, _ = _text(full, capsys, "-k", "3", "--budget", str(sum(tokens)))
    assert names == [r["name"] for r in data["results"]]
    cut = _json(full, capsys, "-k", "3", "--budget", str(tokens[0]))
    assert len(cut["results"]) == 1 and any("the token budget of" in w for w in cut["warnings"])
    names, out = _text(full, capsys, "-k", "3", "--budget", str(tokens[0]))
    assert names == [COPIED] and "dropped 2 of 3 results" in out


@pytest.mark.parametrize("overfetch", [1, 3])
def test_component_service_answers_k_distinct(index: Index, overfetch: int) -> None:
    """overfetch=1 asks for k first: four copies in a fetch of three left one match."""
    service = ComponentService(index, principals=["*"], overfetch=overfetch)
    matches = [r for r in service.search(QUERY, k=3).results if r.role == "match"]
    assert len(matches) == 3 == len({r.name for r in matches}) and matches[0].name == COPIED
    assert {matches[0].id, *matches[0].also_at} == _copy_ids()


def test_only_two_distinct_in_the_index_gives_two(two: str, capsys: pytest.CaptureFixture[str]) -> None:
    names, out = _text(two, capsys, "-k", "3")
    assert names == [COPIED, "palette-picker"] and out.startswith("2 results")
    data = _json(two, capsys, "-k", "3")
    assert [r["name"] for r in data["results"]] == names
    assert data["stats"]["fold"]["searches"] == 1  # it returned fewer than asked: no more to find
    with Index.open(two) as index:
        matches = [r for r in ComponentService(index, principals=["*"], overfetch=1).search(QUERY, k=3).results]
        assert [r.name for r in matches] == names


def test_refill_stops_at_the_cap_and_keeps_what_ranked_first(index: Index) -> None:
    retriever = Retriever(index)
    view = CallerView(index.snapshot(), ["*"])
    asked: list[int] = []

    def search(fetch: int) -> SearchResponse:
        asked.append(fetch)
        return retriever.search(QUERY, k=fetch)

    capped = fold_to_k(search, view, 2, first=1, cap=3)
    assert asked == [1, 2, 3] and capped.collapsed.ids == (retriever.search(QUERY, k=1).ids[0],)
    asked.clear()
    filled = fold_to_k(search, view, 3, first=1)
    assert asked == [1, 2, 4, 8] and len(filled.collapsed.ids) >= 3
    first = retriever.search(QUERY, k=1).ids[0]
    assert filled.collapsed.ids[0] == first  # what the first search ranked keeps its place
    with pytest.raises(ValueError, match="k must be an integer > 0"):
        fold_to_k(search, view, 0)


def test_the_json_times_every_search_folding_ran(full: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``-k 2``: the four copies fill the first fetch of four, so the command searches
    twice; its stats were the last search's alone, so the first (which loads the model,
    hundreds of ms) went unsaid and the phases' ms added up to the second's few."""
    data = _json(full, capsys, "-k", "2")
    fold = data["stats"]["fold"]
    assert fold["searches"] == 2 and fold["ms"] > 0
    phases = sum(st["ms"] for name, st in data["stats"].items() if name != "fold" and "ms" in st)
    assert fold["total_ms"] == pytest.approx(phases + fold["ms"], abs=0.01)
    # the Python form of that JSON says the same total
    assert SearchResponse.from_dict(data).total_ms == pytest.approx(fold["total_ms"], abs=0.01)


def test_refill_adds_up_each_search_it_ran(index: Index) -> None:
    retriever = Retriever(index, cache_size=0)
    view = CallerView(index.snapshot(), ["*"])
    each: list[float] = []

    def search(fetch: int) -> SearchResponse:
        found = retriever.search(QUERY, k=fetch)
        each.append(found.total_ms)
        return found

    filled = fold_to_k(search, view, 3, first=1)
    stats = filled.stats()
    assert stats["searches"] == len(each) == 4
    assert stats["ms"] == round(sum(each[:-1]), 3) and stats["total_ms"] == round(sum(each), 3)
    one = fold_to_k(search, view, 1, first=1)
    assert one.stats()["searches"] == 1 and one.stats()["ms"] == 0 and one.stats()["total_ms"] == one.response.total_ms
