"""``SearchResponse.from_dict`` and ``SearchResult.from_dict`` refuse what ``to_dict`` did
not write in one line naming what is wrong: before, a dict without ``results`` raised a
bare ``KeyError: 'results'``, a list ``TypeError: list indices must be integers``, and a
result with a stray key the dataclass's ``unexpected keyword argument``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from skill_retriever.exceptions import ConfigError
from skill_retriever.responses import SearchResponse, SearchResult

RESULT: dict[str, Any] = {
    "id": "s/a/SKILL.md", "kind": "skill", "name": "a", "snippet": "does a", "score": 1.0,
    "fusion_score": 1.0, "rerank_score": None, "token_count": 12, "channels": {"keyword": 1},
    "path": [], "path_reliability": None, "flags": [], "reason": "found by keyword #1",
}
RESPONSE: dict[str, Any] = {"route": "quick", "reranker": "none", "fit": None, "results": [RESULT],
                            "stats": {}, "warnings": []}


def test_a_dict_to_dict_wrote_still_reads_back() -> None:
    back = SearchResponse.from_dict(json.loads(json.dumps(RESPONSE)))
    assert back.to_dict() == RESPONSE
    assert back.results[0].reason == "found by keyword #1"


@pytest.mark.parametrize(("given", "says"), [
    ({"x": 1}, "lacks 'results', 'route', 'reranker'"),
    ([], "must be a dict as to_dict() writes it, got list"),
    ({**RESPONSE, "results": "abc"}, "'results' must be a list, got str"),
    ({**RESPONSE, "results": [["a"]]}, "SearchResult.from_dict's dict must be a dict"),
    ({**RESPONSE, "results": [{**RESULT, "scroe": 2}]}, "unknown key(s) ['scroe']"),
])
def test_a_dict_it_did_not_write_is_refused_by_name(given: Any, says: str) -> None:
    with pytest.raises(ConfigError) as err:
        SearchResponse.from_dict(given)
    assert says in str(err.value)


def test_a_result_without_a_needed_key_names_it() -> None:
    with pytest.raises(ConfigError, match="lacks 'token_count'"):
        SearchResult.from_dict({k: v for k, v in RESULT.items() if k != "token_count"})
