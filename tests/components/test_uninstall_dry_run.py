"""``skill-retriever uninstall --dry-run`` (and ``uninstall(..., dry_run=True)``): found in
a walkthrough, where ``install`` and the MCP tool had a dry run and the CLI's uninstall
answered ``unrecognized arguments: --dry-run``. The dry run is uninstall's own now
(`uninstall_dry_run`: the real uninstall, of a copy): it says what the real run would,
worded as a dry run, exits as the real run would (1 when something would be kept or the
run refused), and leaves the target byte for byte as it was, with no temporary folder
left behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from cli_calls import run_lines as run
from component_catalogue import files_under

from skill_retriever.cli import main
from skill_retriever.components.install import install, uninstall
from skill_retriever.stores.index import Index

NAMES = ["ship", "format-on-save"]
SHIP = ".claude/commands/ship.md"


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary folder the dry run's copy goes into, empty: what it holds after a run
    is what the run left behind."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_a_dry_run_says_what_the_real_run_then_does_and_changes_nothing(
    hashed_index: Index, tmp_path: Path, scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    assert install(hashed_index, NAMES, project).ok
    before = files_under(project)

    code, said = run(capsys, "uninstall", *NAMES, "--target", str(project), "--dry-run")
    assert code == 0
    assert files_under(project) == before and list(scratch.iterdir()) == []
    assert said[0] == f"target: {project}"
    assert f"  would remove {SHIP}" in said
    assert any(line.startswith("  would remove hook ") and line.endswith(" from .claude/settings.json") for line in said)
    assert not any(line.lstrip().startswith(("removed", "kept", "restored")) for line in said)
    would = [line.removeprefix("  would remove ") for line in said if line.startswith("  would remove ")]
    assert said[-1] == f"  dry run, nothing changed; would be {len(would)} removed, 0 restored, 0 kept"

    code, done = run(capsys, "uninstall", *NAMES, "--target", str(project))
    assert code == 0
    assert [line.removeprefix("  removed ") for line in done if line.startswith("  removed ")] == would
    assert files_under(project) == {}


def test_a_dry_run_of_a_changed_file_says_it_would_be_kept_and_exits_1(
    hashed_index: Index, tmp_path: Path, scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    install(hashed_index, NAMES, project)
    (project / SHIP).write_text("my own ship command\n", encoding="utf-8")
    before = files_under(project)

    code, said = run(capsys, "uninstall", *NAMES, "--target", str(project), "--dry-run")
    assert code == 1
    assert f"  would keep {SHIP}: changed since it was installed" in said
    assert any(line.startswith(f"  would stay recorded: {SHIP}: undo your change") for line in said)
    assert said[-1].startswith("  dry run, nothing changed; would be ") and said[-1].endswith(", 1 kept")
    assert files_under(project) == before and list(scratch.iterdir()) == []

    # with --force the dry run says the file would go, as it is
    code, said = run(capsys, "uninstall", *NAMES, "--target", str(project), "--dry-run", "--force")
    assert code == 0
    assert f"  would remove {SHIP}: changed since it was installed, removed as it is (force)" in said
    assert files_under(project) == before

    code, done = run(capsys, "uninstall", *NAMES, "--target", str(project))
    assert code == 1 and f"  kept {SHIP}: changed since it was installed" in done
    assert (project / SHIP).read_text(encoding="utf-8") == "my own ship command\n"


def test_a_dry_run_says_the_real_run_would_be_refused_and_exits_1(
    hashed_index: Index, tmp_path: Path, scratch: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    install(hashed_index, ["ship"], project)
    before = files_under(project)
    commands = project / ".claude/commands"
    real_access = os.access
    if os.geteuid() == 0:  # root writes through chmod 555: say so the way the OS would
        monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != commands and real_access(p, mode))
    commands.chmod(0o555)
    try:
        code, said = run(capsys, "uninstall", "ship", "--target", str(project), "--dry-run")
        assert code == 1
        refused = [line for line in said if line.startswith("  refused: ")]
        assert refused and "cannot write into" in refused[0] and "commands" in refused[0]
        assert refused[0].endswith("an uninstall now would remove nothing")
        assert main(["uninstall", "ship", "--target", str(project)]) == 1  # the real run: refused alike
        assert capsys.readouterr().out.startswith("refused: cannot write into ")
    finally:
        commands.chmod(0o755)
    assert files_under(project) == before and list(scratch.iterdir()) == []


def test_the_python_dry_run_and_json_say_not_applied(
    hashed_index: Index, tmp_path: Path, scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    install(hashed_index, NAMES, project)
    before = files_under(project)
    report = uninstall(NAMES, project, dry_run=True)
    assert report.applied is False and report.ok and report.target == project.resolve()
    assert SHIP in report.removed and report.refused is None
    assert str(scratch) not in json.dumps(report.to_dict())  # the copy is never named

    code, said = run(capsys, "uninstall", *NAMES, "--target", str(project), "--dry-run", "--json")
    data = json.loads("\n".join(said))
    assert code == 0 and data["applied"] is False and data["ok"] is True
    assert data["removed"] == report.removed
    # a key always there, as install's "refused" is: an agent reading data["refused"] got a KeyError
    assert data["refused"] is None
    assert files_under(project) == before and list(scratch.iterdir()) == []

    assert uninstall(NAMES, project).applied is True
    assert files_under(project) == {}


def test_an_unknown_id_in_a_dry_run_is_the_real_runs_error_naming_the_target(
    hashed_index: Index, tmp_path: Path, scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    install(hashed_index, ["ship"], project)
    capsys.readouterr()
    assert main(["uninstall", "no-such-thing", "--target", str(project), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "no-such-thing" in err and str(scratch) not in err
    assert list(scratch.iterdir()) == []
