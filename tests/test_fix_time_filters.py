"""``--since`` / ``--until`` and ``filters.since`` / ``until`` admit an item whose created
OR updated time falls in the window (README: "items created or updated in that window"),
and a date alone given as the upper bound takes its whole day in. Found in a walkthrough:
a runbook created 2026-10-01 and updated 2026-11-20 was missing from
``--since 2026-10-01 --until 2026-10-02`` (only the later time was read), and
``--since D --until D`` was always empty (``until D`` was D's first instant)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from cli_calls import indexed_graph

from skill_retriever.cli import main
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters, ReversedWindowError
from skill_retriever.model import Node, NodeKind

GRAPH = {"nodes": [
    {"id": "doc:restore", "kind": "document", "name": "restore the orders database", "text": "restore orders outage",
     "created": "2026-10-01", "updated": "2026-11-20T08:00:00+02:00"},
    {"id": "inc:opened-last-week", "kind": "INCIDENT", "name": "orders outage", "text": "orders outage",
     "created": "2026-11-27T10:00:00Z", "updated": "2026-12-05T08:00:00Z"},
    {"id": "inc:created-only", "kind": "incident", "name": "restore outage", "text": "restore outage",
     "created": "2026-11-01T15:00:00Z"},
    {"id": "inc:updated-only", "kind": "incident", "name": "orders restore", "text": "orders restore outage",
     "updated": "2026-11-01T23:30:00Z"},
    {"id": "svc:undated", "kind": "service", "name": "orders", "text": "orders service outage"},
]}  # fmt: skip


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return indexed_graph(tmp_path_factory.mktemp("window"), GRAPH)


def _ids(index_dir: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> set[str]:
    capsys.readouterr()
    assert main(["query", "orders restore outage", "-k", "10", "--index-dir", str(index_dir), "--json", *flags]) == 0
    return {r["id"] for r in json.loads(capsys.readouterr().out)["results"]}


def test_every_item_is_found_without_a_window(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _ids(index_dir, capsys) == {n["id"] for n in GRAPH["nodes"]}


@pytest.mark.parametrize(("flags", "admitted"), [
    # created inside, updated after: the walkthrough's runbook
    (["--since", "2026-10-01", "--until", "2026-10-02"], {"doc:restore"}),
    (["--until", "2026-10-01"], {"doc:restore"}),
    # an incident opened in last week's window and updated today is one of last week's
    (["--since", "2026-11-27", "--until", "2026-11-28"], {"inc:opened-last-week"}),
    # one day, both bounds that day: its items, whichever time they carry
    (["--since", "2026-11-01", "--until", "2026-11-01"], {"inc:created-only", "inc:updated-only"}),
    # a time of day is the instant it names, not its day
    (["--since", "2026-11-01", "--until", "2026-11-01T16:00:00Z"], {"inc:created-only"}),
    (["--since", "2026-11-20"], {"doc:restore", "inc:opened-last-week"}),
])  # fmt: skip
def test_created_or_updated_inside_the_window_is_admitted(
    index_dir: Path, capsys: pytest.CaptureFixture[str], flags: list[str], admitted: set[str]
) -> None:
    assert _ids(index_dir, capsys, *flags) == admitted


def test_a_window_between_both_times_admits_nothing_and_says_so(
    index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    argv = ["query", "orders restore", "--index-dir", str(index_dir), "--json", "--since", "2026-11-02", "--until", "2026-11-19"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"] == []
    assert any("no item you may see passes the filters" in w for w in out["warnings"])


def _node(**times: str) -> Node:
    return Node("x", NodeKind.INCIDENT, "x", "x", **times)  # type: ignore[arg-type]


@pytest.mark.parametrize("until", ["2026-11-01", " 2026-11-01 ", "20261101", date(2026, 11, 1), "2026-W44", "2026-W44-7"])
def test_a_date_alone_as_until_takes_its_day_in(until: object) -> None:
    f = Filters(until=until)  # type: ignore[arg-type]
    assert f.until == datetime(2026, 11, 1, 23, 59, 59, 999999, tzinfo=UTC)
    assert f.admits(_node(created="2026-11-01T23:59:59Z"))
    assert not f.admits(_node(created="2026-11-02T00:00:00Z"))
    assert Filters.from_spec(f.to_spec()) == f  # the JSON form reads back to the same window


@pytest.mark.parametrize("until", ["2026-11-01T00:00:00Z", datetime(2026, 11, 1, tzinfo=UTC), 1793491200])
def test_a_time_as_until_is_that_instant(until: object) -> None:
    f = Filters(until=until)  # type: ignore[arg-type]
    assert f.until == datetime(2026, 11, 1, tzinfo=UTC)
    assert f.admits(_node(created="2026-11-01T00:00:00Z"))
    assert not f.admits(_node(created="2026-11-01T00:00:01Z"))


def test_since_and_until_one_day_is_that_day() -> None:
    day = Filters.from_spec({"since": "2026-01-01", "until": "2026-01-01"})
    assert day.admits(_node(updated="2026-01-01T12:00:00Z"))
    assert not day.admits(_node(updated="2025-12-31T23:59:59Z"))
    assert not day.admits(_node(created="2026-01-02T00:00:00Z", updated="2025-12-31T00:00:00Z"))


def test_an_item_with_one_time_is_read_by_that_one() -> None:
    nov = Filters(since="2026-11-01", until="2026-11-30")  # type: ignore[arg-type]
    assert nov.admits(_node(created="2026-11-05T00:00:00Z"))
    assert nov.admits(_node(updated="2026-11-05T00:00:00Z"))
    assert not nov.admits(_node())  # undated: no time to be inside the window
    assert not nov.admits(_node(created="2026-10-01T00:00:00Z", updated="2026-12-01T00:00:00Z"))


def test_a_reversed_window_names_the_bounds_each_caller_knows() -> None:
    with pytest.raises(ReversedWindowError) as caught:
        Filters.from_spec({"since": "2026-12-01", "until": "2026-01-01"})
    exc = caught.value
    assert isinstance(exc, ConfigError)  # callers catching ConfigError still catch it
    assert str(exc).startswith("filters.since (2026-12-01T00:00:00+00:00) is after filters.until (2026-01-01T23:59:59")
    assert exc.worded("--since", "--until").startswith("--since (2026-12-01T00:00:00+00:00) is after --until (")
    assert str(exc).endswith("so no item could pass; swap them")


@pytest.mark.parametrize(("value", "said"), [("", "is empty"), ("  ", "is blank")])
def test_an_empty_since_is_refused_naming_the_option(
    index_dir: Path, capsys: pytest.CaptureFixture[str], value: str, said: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["query", "orders", "--index-dir", str(index_dir), "--since", value])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert f"argument --since: {said}; give a time such as 2026-11-01" in err
    assert "filters." not in err


def test_an_update_dated_before_the_creation_reads_as_the_creation() -> None:
    skewed = _node(created="2026-05-01T00:00:00Z", updated="2026-01-01T00:00:00Z")  # a clock skew
    assert not Filters(until="2026-04-01").admits(skewed)  # type: ignore[arg-type]
    assert Filters(since="2026-05-01", until="2026-05-01").admits(skewed)  # type: ignore[arg-type]


def test_the_cli_names_its_options_for_a_reversed_window(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    code = main(["query", "x", "--index-dir", str(index_dir), "--since", "2026-12-01", "--until", "2026-01-01"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--since (2026-12-01" in err and "is after --until (2026-01-01" in err and "filters." not in err


def test_a_route_in_any_case_is_taken(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["query", "x", "--index-dir", str(index_dir), "--route", "PPR", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["route"] == "ppr"
