"""``SearchResponse.fit`` is typed as the `FitInfo` it holds, so a user's type checker knows
``resp.fit["confidence"]`` is a float and ``resp.fit["nothing_fits"]`` a bool: typed
``Mapping[str, Any]``, every value read from it was ``Any`` and a misuse passed ``mypy --strict``."""

from __future__ import annotations

from pathlib import Path

import pytest

import skill_retriever.responses as responses_module
import skill_retriever.state as state_module
from skill_retriever.responses import SearchResponse

mypy_api = pytest.importorskip("mypy.api")

USER_CODE = '''\
from skill_retriever.responses import SearchResponse

def use(resp: SearchResponse) -> None:
    if resp.fit is not None:
        ok: float = resp.fit["confidence"]
        yes: bool = resp.fit["nothing_fits"]
        wrong: str = resp.fit["confidence"]
'''


def test_a_user_type_checker_knows_the_fit_values(tmp_path: Path) -> None:
    user = tmp_path / "user.py"
    user.write_text(USER_CODE)
    out, _, _ = mypy_api.run([
        "--strict", "--no-incremental", "--follow-imports=skip", "--ignore-missing-imports",
        "--cache-dir", str(tmp_path / "cache"), str(user), responses_module.__file__, state_module.__file__,
    ])
    mine = [line for line in out.splitlines() if line.startswith(str(user))]
    assert len(mine) == 1, out
    assert ":7: error: Incompatible types in assignment" in mine[0]


def test_from_dict_still_reads_a_fit_back() -> None:
    fit = {"confidence": 0.75, "nothing_fits": False, "top_similarity": 0.6, "agree": True}
    back = SearchResponse.from_dict({"route": "quick", "reranker": "none", "results": [], "fit": fit})
    assert back.fit == fit and back.confidence == 0.75 and back.nothing_fits is False
