"""How often the default search says "nothing fits" ("nothing in the catalogue fits this well").

On every judged set: the share of answerable queries flagged (should be small). On the
skills catalogue also the queries whose right answer is empty (kind ``none``) and
questions from outside the catalogue (the multi-hop sets' questions: trivia about films
and people), which should be flagged. The bar (issue 14): none + out-of-catalogue flagged
at least 90 % of the time, answerable at most 5 %.

Where answerable queries are flagged, whether the flag is right about them: how many of
the flagged and of the unflagged have a first result the set judges relevant
(``first_right_flagged``, ``first_right_unflagged``). A flag that marks weak answers
has a far lower share on its side; one that fell at random, about the same share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.bench.datasets import Dataset, EvalQuery
from skill_retriever.exceptions import IngestError, SkillRetrieverError
from skill_retriever.ingest.passages import load_multihop_queries
from skill_retriever.retriever import Retriever

__all__ = ["OUT_OF_CATALOGUE", "fit_rates"]

#: Multi-hop question files read as out-of-catalogue requests for the skills catalogue.
OUT_OF_CATALOGUE = ("hotpotqa", "2wikimultihopqa")


def fit_sources(ds: Dataset, data: Path | None) -> tuple[Path, ...]:
    """The data files :func:`fit_rates` reads beside the set's own (`reuse`: a set is
    measured again when one changes)."""
    if ds.family != "skills" or data is None:
        return ()
    return tuple(data / "multihop" / name / "queries.json" for name in OUT_OF_CATALOGUE)


#: What `_flagged` answers for a query the search refused (empty, too long).
REFUSED = "refused"


def _flagged(retriever: Retriever, text: str, kinds: tuple[str, ...] | None,
             principals: Sequence[str]) -> bool | str | None:
    """Whether the default search of a caller holding ``principals`` flags ``text`` (None:
    the index is not calibrated; `REFUSED`: the search refused it, counted apart, and the
    run goes on)."""
    return _judged(retriever, text, kinds, principals)[0]


def _judged(retriever: Retriever, text: str, kinds: tuple[str, ...] | None, principals: Sequence[str],
            fold: Callable[[Sequence[str]], list[str]] | None = None) -> tuple[bool | str | None, str | None]:
    """`_flagged`'s answer, and the id of the first result (after ``fold``: a file's
    sections read as the file, as the set is scored), None when nothing came back."""
    try:
        resp = retriever.search(text, k=10, kinds=kinds, principals=list(principals), rerank=False)
    except SkillRetrieverError:
        return REFUSED, None
    ids = fold(resp.ids) if fold else list(resp.ids)
    return (None if resp.fit is None else resp.nothing_fits), (ids[0] if ids else None)


def _first_right(judged: list[tuple[bool | str | None, str | None]], queries: Sequence[EvalQuery]) -> dict[str, int]:
    """How many flagged and how many unflagged queries have a relevant first result."""
    counts = {"first_right_flagged": 0, "first_right_unflagged": 0}
    for (flag, first), q in zip(judged, queries, strict=True):
        if isinstance(flag, bool) and first is not None and q.relevant.get(first, 0) >= 1:
            counts["first_right_flagged" if flag else "first_right_unflagged"] += 1
    return counts


def _rate(values: list[bool | str | None]) -> dict[str, Any]:
    known = [v for v in values if isinstance(v, bool)]
    refused = sum(v == REFUSED for v in values)
    return {"queries": len(values), "flagged": sum(known), "rate": round(sum(known) / len(known), 4) if known else None,
            **({"refused": refused} if refused else {})}


def fit_rates(retriever: Retriever, ds: Dataset, data: Path | None, max_out: int = 300,
              principals: Sequence[str] = ("*",)) -> dict[str, Any]:
    """Flag rates of the default search on ``ds`` (and, for skills, off-catalogue
    questions), for a caller holding ``principals`` (every item's, by default)."""
    asked = [q for q in ds.queries if q.relevant]
    judged = [_judged(retriever, q.text, q.kinds or ds.kinds, principals, ds.fold) for q in asked]
    out: dict[str, Any] = {"answerable": _rate([flag for flag, _ in judged]) | _first_right(judged, asked)}
    none = [q for q in ds.queries if not q.relevant and q.group == "none"]
    none_flags = [_flagged(retriever, q.text, q.kinds or ds.kinds, principals) for q in none]
    if none:
        out["none"] = _rate(none_flags)
    if ds.family == "skills" and data is not None:
        questions: list[str] = []
        unread: list[str] = []
        for name in OUT_OF_CATALOGUE:
            folder = data / "multihop" / name
            if (folder / "queries.json").is_file():
                # A damaged file is left out and named: raised here, it lost the set's whole
                # result (every method had run) for the sake of this one rate.
                try:
                    questions += [q.question for q in load_multihop_queries(folder)]
                except IngestError as exc:
                    unread.append(str(exc))
        questions = questions[:max_out]
        if unread:
            out["unread"] = unread
        if questions:
            out_flags = [_flagged(retriever, q, ds.kinds, principals) for q in questions]
            out["out_of_catalogue"] = _rate(out_flags)
            out["none_or_out"] = _rate(none_flags + out_flags)
    return out
