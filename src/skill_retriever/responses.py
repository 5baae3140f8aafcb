"""What a search returns: typed results with the scores and evidence that put them there."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from skill_retriever.exceptions import ConfigError
from skill_retriever.response_dicts import RESPONSE_KEYS, RESULT_KEYS, checked
from skill_retriever.response_repr import response_repr
from skill_retriever.route_why import route_label
from skill_retriever.score_text import score_text

if TYPE_CHECKING:
    from skill_retriever.state import FitInfo

__all__ = [
    "NOTHING_FITS",
    "NOTHING_FITS_BY_HOLDING",
    "NOTHING_FITS_IN_INDEX",
    "SearchResponse",
    "SearchResult",
    "closest_names",
    "index_changed_warning",
    "is_nothing_fits",
    "nothing_fits_phrase",
    "nothing_fits_phrase_in",
    "nothing_fits_warning",
    "renamed_closest",
]

#: The warning a flagged answer carries (``fit.nothing_fits``) on a component or tool
#: catalogue, followed by "; the closest: ..."; renderers that say it their own way leave
#: that warning out (`is_nothing_fits`).
NOTHING_FITS = "nothing in the catalogue fits this well"
#: The same warning in the words of what the search could answer (``fit_words.searched``):
#: "catalogue" is the wrong word for a folder of runbooks or a multi-hop corpus.
NOTHING_FITS_BY_HOLDING: Mapping[str, str] = MappingProxyType({
    "catalogue": NOTHING_FITS,
    "documents": "nothing in these documents fits this well",
    "passages": "no passage in the index fits this well",
})
#: Any other index (incidents, a mix of sorts, nothing the search could answer).
NOTHING_FITS_IN_INDEX = "nothing in the index fits this well"


def nothing_fits_phrase(holding: str) -> str:
    """The "nothing fits" words for a search whose answers would be ``holding``
    (``fit_words.searched``: "catalogue", "documents", "passages" or "index")."""
    return NOTHING_FITS_BY_HOLDING.get(holding, NOTHING_FITS_IN_INDEX)


def closest_names(named: list[tuple[str, str, str]]) -> str:
    """The names (name, kind, id) a "nothing fits" line gives as the closest, each with its
    kind where two share a name (a plugin and its skill, both ``burpsuite-parser``), and
    its id too where two share name and kind (two documents titled "Overview"), so that
    the line never reads as one item said twice, and in quotes where it holds a comma;
    "nothing" when there are none."""
    names = Counter(name for name, _, _ in named)
    kinds = Counter((name, kind) for name, kind, _ in named)
    shown = [
        f"{n} ({k} {i})" if kinds[n, k] > 1 else f"{n} ({k})" if names[n] > 1 else n
        for n, k, i in named
    ]
    # A name holding a comma ("Kunia Camp, Hawaii") is quoted: the list is comma-separated.
    return ", ".join(json.dumps(n, ensure_ascii=False) if "," in n else n for n in shown) or "nothing"


def nothing_fits_warning(phrase: str, closest: list[tuple[str, str, str]]) -> str:
    """The warning a flagged answer carries: ``phrase`` (`nothing_fits_phrase`) and the
    names (name, kind, id) of the closest items."""
    return f"{phrase}; the closest: {closest_names(closest)}"


def _phrase_of(warning: str) -> str | None:
    """The "nothing fits" phrase ``warning`` starts with, in any corpus's words, or None."""
    phrases = (*NOTHING_FITS_BY_HOLDING.values(), NOTHING_FITS_IN_INDEX)
    return next((p for p in phrases if warning.startswith(p)), None)


def nothing_fits_phrase_in(warnings: Iterable[str]) -> str | None:
    """The "nothing fits" phrase of the first such warning among ``warnings`` (without
    its closest), in the words it was said in; None when there is none."""
    return next((p for w in warnings if (p := _phrase_of(w)) is not None), None)


def is_nothing_fits(warning: str) -> bool:
    """Whether ``warning`` is the "nothing fits" warning, in any corpus's words."""
    return _phrase_of(warning) is not None


def renamed_closest(warning: str, closest: list[tuple[str, str, str]]) -> str:
    """``warning`` naming ``closest`` instead, when it is the "nothing fits" warning (a
    caller that shows fewer results than the search ranked names its own); else as is."""
    phrase = _phrase_of(warning)
    return warning if phrase is None else nothing_fits_warning(phrase, closest)


def index_changed_warning(dropped: int) -> str:
    """The warning of a run that went on on an index changed since it began (resumed from a
    checkpoint, or its snapshot let go) and left out ``dropped`` items it had found."""
    return (
        f"the index changed since this run began (it was resumed, or ran while several writes landed): "
        f"{dropped} item(s) it had found were deleted or hidden from you since, and were left out; "
        "ask again for an answer read wholly from the index as it is now"
    )


#: The keys ``skill-retriever query --json`` adds to a result's `SearchResult.to_dict`.
_CLI_RESULT_KEYS = frozenset(
    {"also_at", "source", "line", "created", "updated", "matches", "requires", "required_by", "part_of"}
)


@dataclass(frozen=True)
class SearchResult:
    """One retrieved item with the scores and evidence that put it there.

    Attributes:
        id: The item's id in the index (``index.get(id)`` gives the whole item).
        kind: Its kind (``skill``, ``agent``, ``tool``, ``document``, ...).
        name: Its name.
        snippet: The start of its description (else its text) on one line, at most
            ``snippet_chars`` characters.
        fusion_score: Its score from fusing the channels' lists (weighted Reciprocal Rank
            Fusion, or score fusion with ``fusion="scores"``): comparable within one
            answer only.
        rerank_score: The reranker's score of it; None when no reranker ran (``reranker``
            of the answer is ``"none"``) or it lay below the reranked top.
        token_count: Its size in tokens (tiktoken, ``encoding``): what the budget counts.
        channels: Each channel that listed it, mapped to its 1-based rank there
            (``{"semantic": 1, "keyword": 3}``); a channel that did not list it is absent.
            ``named`` is the list of items whose name the query writes out; ``clauses``,
            its best rank in the keyword search of one ask of a request with several.
        score: The score the results are ordered by: the reranker's in ``replace`` mode,
            its blend with the fusion order in ``blend`` mode, the coverage gain where a
            request's several asks reordered the top (``clause_coverage``), otherwise
            ``fusion_score``.
        path: On the ppr route, the ids of the items of the graph path that reached it,
            from a seed of the walk to this item (not a file: ``index.get(id)`` reads
            each); empty for a seed itself, on the other routes, or when no reliable path
            led to it.
        path_reliability: The mean walk score of the path's items; None without a path.
        flags: Why its text looks like an instruction to a model, one reason per kind,
            each ``"<kind>: <detail>"`` (``"prompt_injection: 'ignore all previous
            instructions'"``; kinds in ``safety.injection``); empty when it does not.
            ``drop_flagged=True`` drops flagged items instead.

    ``reason`` (read-only, not a field: it plays no part in equality) says in one line why
    it is in the answer, as ``skill-retriever query`` prints it.
    """

    id: str
    kind: str
    name: str
    snippet: str
    fusion_score: float
    rerank_score: float | None
    token_count: int
    channels: Mapping[str, int]
    score: float = 0.0  # the score the results are ordered by
    path: tuple[str, ...] = ()
    path_reliability: float | None = None
    flags: tuple[str, ...] = ()

    @classmethod
    def from_state(cls, r: Mapping[str, Any]) -> SearchResult:
        path = r.get("path") or {}
        return cls(
            id=r["id"],
            kind=r["kind"],
            name=r["name"],
            snippet=r["snippet"],
            score=r.get("score", r["fusion_score"]),
            fusion_score=r["fusion_score"],
            rerank_score=r.get("rerank_score"),
            token_count=r["token_count"],
            channels=dict(r["channels"]),
            path=tuple(path.get("nodes", ())),
            path_reliability=path.get("reliability"),
            flags=tuple(r.get("flags", ())),
        )

    @property
    def reason(self) -> str:
        """Why it is in the answer, in one line: what found it and at which rank ("found by
        semantic #1, keyword #3"), the query's words it holds, what it requires and what
        requires it, the graph path ("also reached via X"), naming only items the caller may
        see; the line ``skill-retriever query`` prints under it, and the ``reason`` of its
        ``--json``, of the LangChain documents and of the agent tool (all `render.reason`).
        Made when first read (`result_reasons`). "" for a result no search made (built by
        hand, by ``dataclasses.replace``, or read back from a dict without ``reason``)."""
        said = self.__dict__.get("_reason", "")
        if not isinstance(said, str):  # the search's maker: the line is made once, now
            said = str(said(self))
            object.__setattr__(self, "_reason", said)
        return str(said)

    def __getstate__(self) -> dict[str, Any]:
        """A pickled or copied result carries its reason as the line: the maker reads the
        snapshot searched, which is not for pickling."""
        state = dict(self.__dict__)
        if "_reason" in state:
            state["_reason"] = self.reason
        return state

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SearchResult:
        """From :meth:`to_dict` (or its JSON): equal to the result it was made from, with
        its ``reason`` (a dict without one, written before results had it, reads as "").
        What else ``skill-retriever query --json`` adds to each result (``also_at``, the
        other hosts; ``source``, the file it was read from; ``line``, where a document's
        section starts in it; ``matches``, ``requires``, ``required_by`` and ``part_of``, what
        the text says under it) is not kept.

        Raises:
            ConfigError: ``d`` is not such a dict (not a mapping, a key missing or unknown).
        """
        fields = {f.name for f in dataclasses.fields(cls)}
        d = checked(d, RESULT_KEYS, "SearchResult.from_dict's dict", fields | _CLI_RESULT_KEYS | {"reason"})
        result = cls(**{
            **{k: v for k, v in d.items() if k not in _CLI_RESULT_KEYS and k != "reason"},
            "channels": dict(d["channels"]),
            "path": tuple(d.get("path", ())),
            "flags": tuple(d.get("flags", ())),
        })
        if isinstance(said := d.get("reason"), str):
            object.__setattr__(result, "_reason", said)
        return result

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready (``path`` and ``flags`` as lists), and ``reason``."""
        return {**self.fields_dict(), "reason": self.reason}

    def fields_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready, without ``reason`` (which the graph's state does not hold)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "snippet": self.snippet,
            "score": self.score,
            "fusion_score": self.fusion_score,
            "rerank_score": self.rerank_score,
            "token_count": self.token_count,
            "channels": dict(self.channels),
            "path": list(self.path),
            "path_reliability": self.path_reliability,
            "flags": list(self.flags),
        }


def make_reason_with(result: SearchResult, maker: Callable[[SearchResult], str]) -> None:
    """Give ``result`` the reason ``maker(result)`` makes when it is first read (the search
    that made it: `result_reasons`)."""
    object.__setattr__(result, "_reason", maker)


@dataclass(frozen=True)
class SearchResponse:
    """One search's answer: ``results`` best first, the ``route`` taken, the ``reranker``
    that ran (``"none"``), per-phase ``stats`` (each with its ``ms``), ``warnings`` (what
    the budget dropped, a phase that failed, "nothing fits", filters that admit nothing)
    and ``fit`` (``confidence``, ``nothing_fits``). ``to_dict()`` is the JSON of
    ``skill-retriever query --json``; ``str()`` is a short summary, a line a result;
    ``repr()`` one line: the ids, route, reranker, confidence and how many warnings."""

    results: list[SearchResult]
    route: str
    reranker: str
    stats: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    snapshot_version: int = 0
    fit: FitInfo | None = None  # confidence, nothing_fits, top_similarity, agree

    @property
    def confidence(self) -> float | None:
        """0-1, 0.5 where nothing fits starts; None when the index was never calibrated,
        or when no item reached the end to be judged (the filters admitted none)."""
        return None if self.fit is None else float(self.fit["confidence"])

    @property
    def nothing_fits(self) -> bool:
        """Nothing in the index fits the query well (the results are the closest)."""
        return bool(self.fit and self.fit["nothing_fits"])

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.results]

    @property
    def failed_phases(self) -> tuple[str, ...]:
        """The optional phases that failed and were skipped (each also says so in
        ``warnings``); other warnings ("nothing fits", the budget) are answers, not failures."""
        return tuple(name for name, st in self.stats.items() if isinstance(st, Mapping) and "failed" in st)

    @property
    def total_ms(self) -> float:
        """Milliseconds this call's phases took, together (each phase's are in
        ``stats[phase]["ms"]``); for an answer served from the cache, the time serving it
        took, ``stats["cache"]["ms"]`` (the phases did not run: the search that computed
        the answer took ``stats["cache"]["original_ms"]``)."""
        cache = self.stats.get("cache")
        if isinstance(cache, Mapping) and cache.get("hit"):
            return round(float(cache.get("ms", 0.0)), 3)  # 0: a hit's JSON from before it was timed
        return round(float(sum(st.get("ms", 0.0) for st in self.stats.values() if isinstance(st, Mapping))), 3)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: what ``skill-retriever query --json`` prints; :meth:`from_dict`
        reads it back to an equal response (``snapshot_version`` aside, which it omits)."""
        return {
            "route": self.route,
            "reranker": self.reranker,
            "fit": None if self.fit is None else dict(self.fit),
            "results": [r.to_dict() for r in self.results],
            "stats": dict(self.stats),
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], snapshot_version: int = 0) -> SearchResponse:
        """From :meth:`to_dict` (or its JSON).

        Raises:
            ConfigError: ``d`` is not such a dict (not a mapping, a key missing), or a result in it.
        """
        d = checked(d, RESPONSE_KEYS, "SearchResponse.from_dict's dict")
        if isinstance(d["results"], str | bytes | Mapping):
            raise ConfigError(f"SearchResponse.from_dict: 'results' must be a list, got {type(d['results']).__name__}")
        return cls(
            results=[SearchResult.from_dict(r) for r in d["results"]],
            route=d["route"],
            reranker=d["reranker"],
            stats=dict(d.get("stats", {})),
            warnings=list(d.get("warnings", [])),
            snapshot_version=snapshot_version,
            fit=None if d.get("fit") is None else cast("FitInfo", dict(d["fit"])),
        )

    def __repr__(self) -> str:  # one line (`response_repr`); the fields hold the rest
        return response_repr(self)

    def __str__(self) -> str:
        ranked = "no reranking" if self.reranker == "none" else f"reranked by {self.reranker}"
        sure = "" if self.confidence is None else f", confidence {self.confidence:.2f}"
        counted = f"{len(self.results)} result{'' if len(self.results) == 1 else 's'}"
        why = route_label(self.stats.get("plan_query"))  # what chose the route, in a few words
        route = f"{self.route}: {why}" if why else self.route
        lines = [f"{counted} (route {route}, {ranked}{sure}{', nothing fits' if self.nothing_fits else ''})"]
        lines += [f"{n:>2}. {r.name} [{r.kind}] score {score_text(r.score)}, {r.token_count} tokens, id {r.id}"
                  for n, r in enumerate(self.results, 1)]
        return "\n".join(lines + [f"note: {w}" for w in self.warnings])

    def to_output(self) -> dict[str, Any]:
        """The graph's output state (``OutputState``) this response was read from."""
        results = []
        for r in self.results:
            item = {k: v for k, v in r.fields_dict().items() if k not in ("path", "path_reliability")}
            if r.path:
                item["path"] = {"nodes": list(r.path), "reliability": r.path_reliability}
            results.append(item)
        return {
            "results": results,
            "route_taken": self.route,
            "reranker": self.reranker,
            "stats": dict(self.stats),
            "warnings": list(self.warnings),
            "fit": dict(self.fit) if self.fit else None,  # None: never calibrated (as the graph answers)
        }

    @classmethod
    def from_output(cls, out: Mapping[str, Any], snapshot_version: int = 0) -> SearchResponse:
        """From the graph's output state (``OutputState``)."""
        return cls(
            results=[SearchResult.from_state(r) for r in out.get("results", [])],
            route=out.get("route_taken", ""),
            reranker=out.get("reranker", "none"),
            stats=dict(out.get("stats", {})),
            warnings=list(out.get("warnings", [])),
            snapshot_version=snapshot_version,
            fit=cast("FitInfo", dict(out["fit"])) if out.get("fit") else None,
        )
