"""An answer that --tags empties says when a tag differs from a held one only in case.

Found in a CLI audit: ``query checkout --tags PAYMENTS`` of an item tagged ``payments``
said only "no item you may see passes the filters (tags PAYMENTS)".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import indexed_graph, run

GRAPH = {"nodes": [
    {"id": "svc:checkout", "kind": "service", "name": "checkout", "text": "Takes payment and creates the order.",
     "tags": ["payments"]},
    {"id": "svc:vault", "kind": "service", "name": "vault", "text": "Keeps the payment keys.",
     "tags": ["Payments-Secret"], "access": ["sec"]},
]}


@pytest.fixture
def ix(tmp_path: Path) -> str:
    return str(indexed_graph(tmp_path, GRAPH))


def test_a_tag_in_another_case_is_named(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "checkout", "--index-dir", ix, "--tags", "PAYMENTS")
    assert code == 0 and "0 results" in out
    assert "passes the filters (tags PAYMENTS); tags match in their case: the index holds 'payments'" in out, out
    code, out, _ = run(capsys, "query", "checkout", "--index-dir", ix, "--tags", "payments")
    assert "1 result" in out and "match in their case" not in out


def test_a_private_items_tag_is_not_named(ix: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "keys", "--index-dir", ix, "--tags", "payments-secret", "--principals", "ops")
    assert code == 0 and "passes the filters" in out
    assert "Payments-Secret" not in out
    code, out, _ = run(capsys, "query", "keys", "--index-dir", ix, "--tags", "payments-secret", "--principals", "sec")
    assert "the index holds 'Payments-Secret'" in out
