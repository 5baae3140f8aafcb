"""`bench.secret_rule_times` times every prose secret rule over a folder's Markdown and names
each: the check a new rule's cost is measured with."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.bench.secret_rule_times import main, rule_seconds
from skill_retriever.ingest.prose_secrets import PROSE_RULES


def test_every_rule_is_timed() -> None:
    spent = rule_seconds(["export DB_PASSWORD=Xk9s2mQz7Lp", "no secret here"])
    assert set(spent) == {name for name, _ in PROSE_RULES}
    assert all(seconds >= 0 for seconds in spent.values())


def test_main_prints_the_slowest_rules_and_the_total(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.md").write_text("Use sk-proj-Xk9s2mQz7LpQw8zT5nB2vLmAbCdEf here\n", encoding="utf-8")
    (tmp_path / "b.md").write_bytes(b"\xff\xfe not utf-8")
    assert main(["--top", "3", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    assert lines[-1].endswith(f"all {len(PROSE_RULES)} rules, 1 files")
