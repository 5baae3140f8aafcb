"""``drop_conflicts`` still answers ``k`` matches when the index holds them.

Three formatters rank first for the query, two of them a CONFLICTS_WITH pair. Asked for
three with ``drop_conflicts``, `ComponentService` dropped the lower-ranked side after
folding and nothing took its place: two matches, though two more skills matched. Now the
search runs again, asking for more (`refill.fold_to_k`), until three are left to show;
the dropped one is still reported as dropped, and what ranked first keeps its place.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.cli import main
from skill_retriever.components.service import ComponentService
from skill_retriever.responses import SearchResponse
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "format python code style formatter"
PAIR = ("fmt-alpha", "fmt-beta")  # fmt-alpha declares the conflict with fmt-beta
SKILLS = {
    "fmt-alpha": "Format python code style with the alpha formatter.",
    "fmt-beta": "Format python code style with the beta formatter.",
    "fmt-gamma": "Format python code style with the gamma formatter.",
    "lint-delta": "Lint python code style and imports before commits.",
    "lint-epsilon": "Check python code style in CI and report each finding.",
}
CONFLICT = "conflicts:\n  - name: fmt-beta\n    reason: Both rewrite the same files.\n"


def _build(root: Path, names: list[str]) -> str:
    for name in names:
        path = root / "src" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        extra = CONFLICT if name == PAIR[0] else ""
        path.write_text(
            f"---\nname: {name}\ndescription: {SKILLS[name]}\n{extra}---\n\n# {name}\n\n{SKILLS[name]}\n",
            encoding="utf-8",
        )
    ix = str(root / "ix")
    assert main(["index", str(root / "src"), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    return ix


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    with Index.open(_build(tmp_path_factory.mktemp("five"), list(SKILLS))) as index:
        yield index


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """The pair and one other: three skills in all."""
    with Index.open(_build(tmp_path_factory.mktemp("three"), ["fmt-alpha", "fmt-beta", "fmt-gamma"])) as index:
        yield index


class Counting(Retriever):
    """The real retriever, noting what each search asked for."""

    def __init__(self, index: Index) -> None:
        super().__init__(index, reranker=None)
        self.asked: list[int] = []

    def search(self, query: str, *, k: int | None = None, **kwargs: Any) -> SearchResponse:
        self.asked.append(k or 0)
        return super().search(query, k=k, **kwargs)


def _service(index: Index, overfetch: int) -> ComponentService:
    return ComponentService(index, Counting(index), principals=["*"], overfetch=overfetch)


def _asked(service: ComponentService) -> list[int]:
    assert isinstance(service.retriever, Counting)
    return service.retriever.asked


def _names(index: Index, k: int, overfetch: int = 1) -> list[str]:
    return [r.name for r in _service(index, overfetch).search(QUERY, k=k).results]


def test_the_pair_is_in_the_top_three(full: Index) -> None:
    """The premise: without dropping, the top three hold both sides of the conflict."""
    assert set(PAIR) <= set(_names(full, 3))


@pytest.mark.parametrize("overfetch", [1, 3])
def test_three_matches_with_the_loser_reported(full: Index, overfetch: int) -> None:
    """overfetch=1 asks for three first: the pair left two, and it used to answer two."""
    plain = _names(full, 3)
    service = _service(full, overfetch)
    answer = service.search(QUERY, k=3, drop_conflicts=True)
    assert _asked(service) == ([3, 6] if overfetch == 1 else [9])  # six held three to show
    matches = [r for r in answer.results if r.role == "match"]
    loser = max(PAIR, key=plain.index)  # the lower-ranked side
    assert len(matches) == 3 and loser not in [r.name for r in matches]
    # what ranked first keeps its place; the next one in the index fills the gap
    kept = [n for n in plain if n != loser]
    assert [r.name for r in matches][:2] == kept
    assert [r.name for r in matches] == [r.name for r in _service(full, 3).search(QUERY, k=3, drop_conflicts=True).results]
    (lost,) = answer.dropped
    assert (lost.name, lost.why) == (loser, "conflict") and "(ranked higher): Both rewrite" in lost.detail
    (c,) = answer.conflicts
    assert set(c.sides) == {r.id for r in _service(full, 1).search(QUERY, k=3).results if r.name in PAIR}
    assert c.dropped == lost.id


def test_only_three_in_the_index_gives_two(three: Index) -> None:
    """No fourth to take the place: two matches, the loser reported, and the search ends."""
    service = _service(three, 1)
    answer = service.search(QUERY, k=3, drop_conflicts=True)
    assert _asked(service) == [3, 6]  # six returned three: there is no more to find
    assert len([r for r in answer.results if r.role == "match"]) == 2
    assert [d.why for d in answer.dropped] == ["conflict"] and answer.dropped[0].name in PAIR
