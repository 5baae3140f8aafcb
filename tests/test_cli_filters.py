"""``query --tags / --since / --until``: the filters the Python API and the MCP tools had,
on the command line (found missing in two walkthroughs: time was read only from words in
the query, where it ranks but does not filter)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def built(tmp_path: Path) -> Path:
    path = tmp_path / "ops"
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    index.upsert([
        Node("inc:old", NodeKind.INCIDENT, "checkout outage in May", "checkout outage", tags=("checkout",),
             created="2026-05-01T10:00:00Z"),
        Node("inc:new", NodeKind.INCIDENT, "checkout outage in November", "checkout outage", tags=("checkout", "db"),
             created="2026-11-20T10:00:00Z"),
        Node("inc:payments", NodeKind.INCIDENT, "payments outage", "payments outage", tags=("payments",),
             created="2026-11-21T10:00:00Z"),
    ])
    index.close()
    return path


def _ids(built: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> list[str]:
    assert main(["query", "outage", "--index-dir", str(built), "--json", *flags]) == 0
    return sorted(r["id"] for r in json.loads(capsys.readouterr().out)["results"])


def test_tags_and_a_time_window_filter_the_answer(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _ids(built, capsys) == ["inc:new", "inc:old", "inc:payments"]
    assert _ids(built, capsys, "--tags", "checkout") == ["inc:new", "inc:old"]
    assert _ids(built, capsys, "--since", "2026-11-01") == ["inc:new", "inc:payments"]
    assert _ids(built, capsys, "--until", "2026-11-20T12:00:00Z", "--tags", "db,payments") == ["inc:new"]


def test_a_lower_case_z_and_a_date_in_utc_are_read(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # RFC 3339 allows z as Z (Python read t as T but refused z); a date with Z is that day in UTC
    assert _ids(built, capsys, "--since", "2026-11-21z") == ["inc:payments"]
    assert _ids(built, capsys, "--since", "2026-11-20T09:00z", "--until", "2026-11-20Z") == ["inc:new"]


@pytest.mark.parametrize(("flags", "said"), [
    (["--since", "yesterdayish"], "argument --since: 'yesterdayish' is no time; give one such as 2026-11-01"),
    (["--tags", " , "], "argument --tags: names no tag"),
])  # fmt: skip
def test_a_bad_value_is_argparses_one_line(
    built: Path, capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["query", "outage", "--index-dir", str(built), *flags])
    assert exit_.value.code == 2 and said in capsys.readouterr().err
