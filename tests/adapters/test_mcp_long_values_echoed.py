"""What the MCP tools quote back of a long value a caller sent, through a real MCP client
connected in-process: a 1,000,000-character ``since`` or ``until``, or an argument name
of that length, came back whole in the error (a megabyte into the agent's context), where
a long id was already cut to its start and its length; a huge ``k`` came back as all its
digits; an unknown tool's name came back whole too, naming no tool. Each is now cut the
same way (an unknown tool's answer names the server's tools, and the close one), and the
Python filter says the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import run
from mcp_in_process import tool_errors

from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.filters import Filters

LONG = "z" * 1_000_000


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "cat/skills/ruff-format/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: ruff-format\ndescription: Format Python with ruff.\n---\n\nRun ruff.\n", encoding="utf-8")
    folder = tmp_path / "ix"
    code, _, err = run(capsys, "index", tmp_path / "cat", "--index-dir", folder, "--embedder", "hashing-64")
    assert code == 0, err
    return folder


def test_long_values_come_back_cut_with_their_length(ix: Path) -> None:
    since, until, name, k = tool_errors(ix, ["*"], [
        ("search", {"query": "format python", "since": LONG}),
        ("search", {"query": "format python", "until": LONG}),
        ("search", {"query": "format python", LONG: 1}),
        ("search", {"query": "format python", "k": 10**400}),
    ])  # fmt: skip
    for said in (since, until, name, k):
        assert len(said) < 600, said[:300]
        assert "1,000,000 characters" in said or "401 characters" in said, said
    assert "since: timestamp 'zzz" in since and "is not ISO-8601" in since
    assert "until: timestamp 'zzz" in until
    assert "unknown argument(s) 'zzz" in name and "search takes query (required)" in name
    assert "k must be at most 50" in k


def test_a_short_value_is_still_quoted_whole(ix: Path) -> None:
    (said,) = tool_errors(ix, ["*"], [("search", {"query": "format python", "since": "yesterday"})])
    assert "since: timestamp 'yesterday' is not ISO-8601 (e.g. 2026-11-01T12:00:00Z)" in said


def test_the_python_filter_cuts_it_too() -> None:
    with pytest.raises(SkillRetrieverError) as caught:
        Filters(since=LONG)
    assert len(str(caught.value)) < 600 and "(1,000,000 characters)" in str(caught.value)


def test_an_unknown_tool_is_cut_and_told_the_tools(ix: Path) -> None:
    long_name, typo = tool_errors(ix, ["*"], [(LONG, {}), ("serach", {"query": "format python"})])
    assert len(long_name) < 600 and "Unknown tool: 'zzz" in long_name and "(1,000,000 characters)" in long_name
    assert typo.startswith("Unknown tool: 'serach' (did you mean 'search'?); this server's tools are search, "), typo
    assert "uninstall_components" in typo
