"""What a search returns: typed results with the scores and evidence that put them there."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SearchResponse", "SearchResult"]


@dataclass(frozen=True)
class SearchResult:
    """One retrieved item with the scores and evidence that put it there."""

    id: str
    kind: str
    name: str
    snippet: str
    fusion_score: float
    rerank_score: float | None
    token_count: int
    channels: Mapping[str, int]
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
            fusion_score=r["fusion_score"],
            rerank_score=r.get("rerank_score"),
            token_count=r["token_count"],
            channels=dict(r["channels"]),
            path=tuple(path.get("nodes", ())),
            path_reliability=path.get("reliability"),
            flags=tuple(r.get("flags", ())),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "snippet": self.snippet,
            "fusion_score": self.fusion_score,
            "rerank_score": self.rerank_score,
            "token_count": self.token_count,
            "channels": dict(self.channels),
            "path": list(self.path),
            "path_reliability": self.path_reliability,
            "flags": list(self.flags),
        }


@dataclass(frozen=True)
class SearchResponse:
    results: list[SearchResult]
    route: str
    reranker: str
    stats: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    snapshot_version: int = 0

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.results]

    def to_output(self) -> dict[str, Any]:
        """The graph's output state (``OutputState``) this response was read from."""
        results = []
        for r in self.results:
            item = {k: v for k, v in r.to_dict().items() if k not in ("path", "path_reliability")}
            if r.path:
                item["path"] = {"nodes": list(r.path), "reliability": r.path_reliability}
            results.append(item)
        return {
            "results": results,
            "route": self.route,
            "reranker": self.reranker,
            "stats": dict(self.stats),
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_output(cls, out: Mapping[str, Any], snapshot_version: int = 0) -> SearchResponse:
        """From the graph's output state (``OutputState``)."""
        return cls(
            results=[SearchResult.from_state(r) for r in out.get("results", [])],
            route=out.get("route", ""),
            reranker=out.get("reranker", "none"),
            stats=dict(out.get("stats", {})),
            warnings=list(out.get("warnings", [])),
            snapshot_version=snapshot_version,
        )
