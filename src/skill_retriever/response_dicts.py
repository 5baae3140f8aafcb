"""The checks of a dict read back into a `SearchResponse` or `SearchResult` (``from_dict``):
a dict that is not what ``to_dict`` writes (another command's JSON, a result list, a
file read whole) is refused in one line naming what it lacks, not a bare ``KeyError:
'results'`` or a ``TypeError`` from the dataclass."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from skill_retriever.exceptions import ConfigError

RESPONSE_KEYS = ("results", "route", "reranker")
RESULT_KEYS = ("id", "kind", "name", "snippet", "fusion_score", "rerank_score", "token_count", "channels")


def checked(d: object, needed: Iterable[str], what: str, known: Iterable[str] = ()) -> Mapping[str, Any]:
    """``d`` when it is a mapping holding every key of ``needed`` and, if ``known`` names
    any, no other key.

    Raises:
        ConfigError: ``d`` is not a mapping, lacks a needed key, or holds an unknown one.
    """
    if not isinstance(d, Mapping):
        raise ConfigError(f"{what} must be a dict as to_dict() writes it, got {type(d).__name__}")
    if missing := [k for k in needed if k not in d]:
        raise ConfigError(f"{what} lacks {', '.join(map(repr, missing))}; read back only what to_dict() "
                          "(or `skill-retriever query --json`) wrote")
    allowed = set(known)
    if allowed and (unknown := sorted(str(k) for k in d if k not in allowed)):
        raise ConfigError(f"{what} holds unknown key(s) {unknown[:5]}; read back only what to_dict() "
                          "(or `skill-retriever query --json`) wrote")
    return d
