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


def _stored_calibration_version(ix: Path) -> tuple[int, int]:
    from skill_retriever.calibration import calibration_of
    from skill_retriever.stores.index import Index

    with Index.open(ix) as index:
        found = calibration_of(index.snapshot())
        assert found is not None
        return found.version, index.version


def test_a_removal_stopped_before_its_calibration_is_said_by_stats_and_completed_by_running_it_again(
    two_sources: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """SIGKILL (no handler runs, so nothing is said) between the delete and the names across
    sources and calibration that follow it: `stats` showed only "(computed 1 write ago)",
    the stale line went on judging answers, and running the command again answered only that
    the index holds no such source (seen killing `remove-source trailofbits__skills` of an
    806-item index: its calibration stayed the 806 items' on the 539 left)."""
    import logging

    from skill_retriever import cross_source

    monkeypatch.setattr(cross_source, "link_across_sources", _stop)  # the delete done, nothing after it
    assert run(capsys, "remove-source", "two", "--index-dir", two_sources)[0] == 130
    monkeypatch.undo()
    drawn, now = _stored_calibration_version(two_sources)
    assert drawn < now
    code, out, _ = run(capsys, "stats", "--index-dir", two_sources)
    assert code == 0
    (line,) = [x for x in out.splitlines() if x.startswith("calibration:")]
    assert "computed 1 write ago" in line and f"`skill-retriever calibrate --index-dir {two_sources}`" in line, line
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        code, _, err = run(capsys, "remove-source", "two", "--index-dir", two_sources)  # the same command again
    assert code == 2 and "no source named 'two'" in err, err  # it is gone, as before
    assert "drew it again" in caplog.text, caplog.text  # and what the stopped run left undone is done, and said
    drawn, now = _stored_calibration_version(two_sources)
    assert drawn == now
    code, out, _ = run(capsys, "stats", "--index-dir", two_sources)
    assert code == 0 and "write ago" not in out and "writes ago" not in out


def test_a_source_named_wrongly_on_a_calibrated_index_writes_nothing(
    two_sources: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _stored_calibration_version(two_sources)
    code, _, err = run(capsys, "remove-source", "three", "--index-dir", two_sources)
    assert code == 2 and "no source named 'three'" in err, err
    assert _stored_calibration_version(two_sources) == before


def test_repair_draws_again_what_a_stopped_removal_left(
    two_sources: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`repair` after the same SIGKILL said the index was "in step" and left the stale
    calibration as it was; it now does what the removal left undone, and says so."""
    from skill_retriever import cross_source

    monkeypatch.setattr(cross_source, "link_across_sources", _stop)  # the delete done, nothing after it
    assert run(capsys, "remove-source", "two", "--index-dir", two_sources)[0] == 130
    monkeypatch.undo()
    drawn, now = _stored_calibration_version(two_sources)
    assert drawn < now
    code, out, _ = run(capsys, "repair", "--index-dir", two_sources)
    assert code == 0 and "drew the calibration again (it was drawn 1 write(s) before the index as it is)" in out, out
    drawn, now = _stored_calibration_version(two_sources)
    assert drawn == now
    code, out, _ = run(capsys, "repair", "--index-dir", two_sources)  # nothing more to do: said as before
    assert code == 0 and "calibration" not in out and "in step" in out, out
