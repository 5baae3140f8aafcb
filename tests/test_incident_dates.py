"""A folder of incident reports and runbooks, searched as an SRE team searches it: every
answer says when each item happened, and the MCP ``search`` tool takes ``since`` /
``until`` as the CLI and the Python API do.

A walkthrough found the answers silent on dates: "payments outage since 2026-11-20" listed
incidents with no word of when each was, so which lay inside the window could not be
told, and an agent had no ``since`` / ``until`` at all (only words in the query, which rank
and do not filter). Now ``query`` prints a ``dated:`` line (UTC), ``--json`` and the MCP
results carry ``created`` / ``updated`` as the item holds them (`item_dates`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file
from mcp_in_process import tool_answers, tool_errors

from skill_retriever.responses import SearchResponse

PAYMENTS = "runbooks/incidents/payments.md"


@pytest.fixture(scope="module")
def ix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("incidents")
    write_file(root, "runbooks/incidents/payments.md",
               "---\ntitle: 'INC-2231: payments service outage'\ndate: 2026-11-24T09:15:00Z\n"
               "updated: 2026-11-25T16:00:00+01:00\n---\nThe payments service returned HTTP 502 for 40 minutes.\n")
    write_file(root, "runbooks/incidents/latency.md",
               "---\ntitle: Payments latency spike\ncreated_at: '2026-11-28 14:30:00-05:00'\n---\n"
               "Payments service p99 latency rose to 4 s on a noisy payments-db host.\n")
    write_file(root, "runbooks/incidents/checkout.md",
               "---\ntitle: Checkout outage\ncreated: 2026-10-14\n---\nThe checkout service was down after a TLS expiry.\n")
    write_file(root, "runbooks/restart-payments.md", "# Restart the payments service\n\nDrain, restart the pods, check payments-db.\n")
    from skill_retriever.cli import main

    assert main(["index", str(root / "runbooks"), "--kind", "docs", "--index-dir", str(root / "ix"),
                 "--embedder", "hashing-64"]) == 0
    return root / "ix"


def test_query_prints_when_each_item_happened(ix: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "payments service outage", "--index-dir", ix, "-k", "4")
    assert code == 0
    lines = out.splitlines()
    at = lines.index(f"    id: {PAYMENTS}")
    # frontmatter times in their own zones, said in UTC as the window warnings say them
    assert lines[at + 1] == "    dated: created 2026-11-24 09:15 UTC, updated 2026-11-25 15:00 UTC"
    runbook = lines.index("    id: runbooks/restart-payments.md")
    assert not lines[runbook + 1].lstrip().startswith("dated:")  # no frontmatter: undated, nothing said


def test_query_json_gives_the_dates_as_held(ix: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "payments service outage", "--index-dir", ix, "-k", "4", "--json")
    assert code == 0
    answer = json.loads(out)
    by_id = {r["id"]: r for r in answer["results"]}
    assert (by_id[PAYMENTS]["created"], by_id[PAYMENTS]["updated"]) == ("2026-11-24T09:15:00+00:00", "2026-11-25T16:00:00+01:00")
    assert by_id["runbooks/incidents/latency.md"]["created"] == "2026-11-28T14:30:00-05:00"
    assert "updated" not in by_id["runbooks/incidents/latency.md"]
    assert not {"created", "updated"} & set(by_id["runbooks/restart-payments.md"])
    assert SearchResponse.from_dict(answer).results  # the added keys are read past, as the others


def test_mcp_search_takes_since_and_until(ix: Path) -> None:
    answers = tool_answers(ix, ["*"], {
        "window": ("search", {"query": "payments outage", "k": 10, "since": "2026-11-25", "until": "2026-11-28"}),
        "all": ("search", {"query": "payments outage", "k": 10}),
    })
    inside = {r["id"]: r for r in answers["window"]["results"]}
    # updated 2026-11-25 15:00 UTC; created 2026-11-28 19:30 UTC (until a date: its whole day)
    assert set(inside) == {PAYMENTS, "runbooks/incidents/latency.md"}
    assert inside[PAYMENTS]["updated"] == "2026-11-25T16:00:00+01:00"  # a brief result says when, too
    assert len(answers["all"]["results"]) == 4


def test_mcp_search_refuses_a_bad_time_in_its_own_names(ix: Path) -> None:
    bad, reversed_, empty = tool_errors(ix, ["*"], [
        ("search", {"query": "payments outage", "since": "2026-02-30"}),
        ("search", {"query": "payments outage", "since": "2026-11-30", "until": "2026-11-01"}),
        ("search", {"query": "payments outage", "until": ""}),
    ])
    assert "since: timestamp '2026-02-30' is not ISO-8601" in bad and "filters." not in bad
    assert "since (2026-11-30T00:00:00+00:00) is after until (2026-11-01T23:59:59.999999+00:00)" in reversed_
    assert "until is empty" in empty and "filters." not in empty


def test_the_reason_says_an_item_lies_in_the_window_not_that_it_is_close_in_meaning(
        ix: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "what broke since 2026-11-25", "--index-dir", ix, "-k", "4", "--json")
    assert code == 0
    reasons = {r["id"]: r["reason"] for r in json.loads(out)["results"]}
    assert reasons["runbooks/incidents/latency.md"].endswith("dated inside the query's time window")
    assert reasons[PAYMENTS].endswith("dated inside the query's time window")  # updated 2026-11-25
    assert not reasons["runbooks/incidents/checkout.md"].endswith("time window")  # October
    assert not any("temporal" in why for why in reasons.values())


def test_a_date_in_another_format_is_said_with_the_form_to_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_file(tmp_path, "runbooks/login.md", "---\ntitle: Login errors\ndate: November 26, 2026\n---\nSSO logins failed.\n")
    write_file(tmp_path, "runbooks/cache.md", "---\ntitle: Cache storm\ndate: 11/20/2026\n---\nRedis evicted the catalog keys.\n")
    code, out, _ = run(capsys, "index", tmp_path / "runbooks", "--index-dir", tmp_path / "ix", "--embedder", "hashing-64")
    assert code == 0
    for shown in ("'November 26, 2026'", "'11/20/2026'"):
        assert f"'date' {shown} is not an ISO date; ignored (write it as 2026-11-26 or 2026-11-26T09:15:00Z)" in out


def test_a_changed_date_is_read_when_the_file_is_indexed_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The text unchanged, only the frontmatter's date: indexing the one file again moves
    the item into the window and out of the old one, and nothing is embedded again."""
    doc = write_file(tmp_path, "runbooks/dns.md", "---\ntitle: DNS failures\ndate: 2026-10-14\n---\nInternal DNS failed.\n")
    write_file(tmp_path, "runbooks/cache.md", "---\ntitle: Cache storm\ndate: 2026-10-20\n---\nRedis evicted keys.\n")
    ix = tmp_path / "ix"
    assert run(capsys, "index", tmp_path / "runbooks", "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    doc.write_text(doc.read_text().replace("date: 2026-10-14", "date: 2026-12-04"))
    code, out, _ = run(capsys, "index", doc, "--index-dir", ix)
    assert code == 0 and "1 changed" in out and "embedded 0 texts" in out

    def found(*window: str) -> list[str]:
        code, out, _ = run(capsys, "query", "DNS failures", "--index-dir", ix, "--json", *window)
        assert code == 0
        return [r["id"] for r in json.loads(out)["results"]]

    assert found("--since", "2026-12-01") == ["runbooks/dns.md"]
    assert "runbooks/dns.md" not in found("--until", "2026-10-31")


def test_stats_says_how_many_items_a_time_can_find(ix: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "--index-dir", ix)
    assert code == 0
    assert ("dated: 3 of 4 items, 2026-10-14 to 2026-11-28 UTC; since/until and a time in the query find only these "
            "(a document takes its date from its frontmatter, date: 2026-11-01 or updated: 2026-11-01, when it is indexed)"
            ) in out.splitlines()
    code, out, _ = run(capsys, "stats", "--index-dir", ix, "--json")
    assert json.loads(out)["dated"] == {"items": 3, "of": 4, "first": "2026-10-14T00:00:00+00:00",
                                        "last": "2026-11-28T19:30:00+00:00", "undated_documents": 1}


def test_a_date_that_is_no_text_is_said_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A list or a map of dates was said as Python writes it (``[datetime.date(2026, 1, 1)]``,
    cut inside a word), and epoch milliseconds as "not an ISO date", where a JSON graph
    node's says they look like milliseconds."""
    write_file(tmp_path, "runbooks/list.md", "---\ntitle: List\ndate: [2026-01-01]\n---\nA list of dates.\n")
    write_file(tmp_path, "runbooks/map.md",
               "---\ntitle: Map\ndate: {when: 2026-01-01, by: the-platform-team-on-call}\n---\nA map.\n")
    write_file(tmp_path, "runbooks/ms.md", "---\ntitle: Millis\ndate: 1767225600000\n---\nEpoch milliseconds.\n")
    code, out, _ = run(capsys, "index", tmp_path / "runbooks", "--index-dir", tmp_path / "ix", "--embedder", "hashing-64")
    assert code == 0
    assert "datetime.date" not in out
    assert "'date' ['2026-01-01'] is not an ISO date; ignored" in out
    assert "'date' {'when': '2026-01-01', 'by': 'the-platf… is not an ISO date; ignored" in out
    assert ("'date': timestamp 1767225600000 is not a valid time in epoch seconds (it looks like milliseconds: "
            "divide by 1000, or write ISO-8601); ignored") in out
