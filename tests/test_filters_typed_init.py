"""`Filters` takes what its ``__post_init__`` reads (a list or one string of names, a time
as text, a date or epoch seconds), and a user's ``mypy --strict`` must accept those calls:
the dataclass fields alone typed ``Filters(kinds=["skill"])`` as an error."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

import skill_retriever.filters as filters_module
from skill_retriever.filters import Filters

mypy_api = pytest.importorskip("mypy.api")

USER_CODE = '''\
from datetime import date
from skill_retriever.filters import Filters

f = Filters(kinds=["skill"], tags="x", principals=("alice",), since="2026-01-01", until=date(2026, 2, 1))
g = Filters(since=1_700_000_000, until=1_800_000_000.5)
k: frozenset[str] | None = f.kinds
Filters(kinds=3)  # still refused: not names
'''


def test_a_user_type_checker_takes_the_calls_that_run(tmp_path: Path) -> None:
    user = tmp_path / "user.py"
    user.write_text(USER_CODE)
    out, _, _ = mypy_api.run([
        "--strict", "--no-incremental", "--follow-imports=skip", "--ignore-missing-imports",
        "--cache-dir", str(tmp_path / "cache"), str(user), filters_module.__file__,
    ])
    mine = [line for line in out.splitlines() if line.startswith(str(user))]
    assert len(mine) == 1, out
    assert ":7: error: Argument \"kinds\" to \"Filters\"" in mine[0]


def test_the_fields_hold_what_was_read() -> None:
    """The calls the type checker takes run, and the fields hold sets and datetimes."""
    Filters(kinds=["skill"], tags="x", principals=("alice",), since="2026-01-01", until=date(2026, 2, 1))
    Filters(since=1_700_000_000, until=1_800_000_000.5)
    f = Filters(kinds=["Skill"], tags="x", since="2026-01-01")
    assert f.kinds == frozenset({"skill"}) and f.tags == frozenset({"x"})
    assert f.since is not None and f.since.year == 2026
