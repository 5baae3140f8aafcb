"""Ctrl-C during `remove-source` says how to tell what it left.

`timeout -s INT 1.5 skill-retriever remove-source davila7__claude-code-templates` (1,886
items of a six-catalogue index) printed a bare `skill-retriever: interrupted`, while
`stats` showed the source gone and a calibration "computed 1 write ago": the removal is
one write, then the names across sources and the calibration are brought up to date, and
running the command again only answers that the index holds no such source."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

HASHING = ("--embedder", "hashing-64")


@pytest.fixture
def two_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    ix = tmp_path / "ix"
    for repo in ("one", "two"):
        for name in ("alpha", "beta"):
            write_file(tmp_path / repo / "skills" / f"{repo}-{name}", "SKILL.md",
                       f"---\nname: {repo}-{name}\ndescription: do {name} for {repo}\n---\nUse it for {name}.\n")
        assert run(capsys, "index", tmp_path / repo, "--index-dir", ix, *HASHING)[0] == 0
    return ix


def _stop(*_args: object, **_kwargs: object) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_after_the_removal_says_how_to_finish(
    two_sources: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from skill_retriever import calibration

    monkeypatch.setattr(calibration, "ensure_calibration", _stop)  # after the delete
    code, _, err = run(capsys, "remove-source", "two", "--index-dir", two_sources)
    assert code == 130
    assert f"`skill-retriever stats --index-dir {two_sources}` still lists two" in err
    assert f"`skill-retriever calibrate --index-dir {two_sources}`" in err
    monkeypatch.undo()
    code, out, _ = run(capsys, "stats", "--index-dir", two_sources)
    assert code == 0 and "two (" not in out  # removed: the message's test tells so


def test_ctrl_c_of_a_dry_run_says_nothing_more(
    two_sources: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from skill_retriever import sources

    monkeypatch.setattr(sources, "source_ids", _stop)
    code, _, err = run(capsys, "remove-source", "two", "--dry-run", "--index-dir", two_sources)
    assert code == 130 and err.strip() == "skill-retriever: interrupted"
