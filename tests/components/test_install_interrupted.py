"""Installs stopped half-way, run at once, or taken back while a shared file is unreadable.

- An install records what it will write before it writes: a process killed in the middle
  leaves every file it wrote recorded, so ``uninstall`` takes it back and installing again
  completes it (`apply._write`).
- Two installs into one target run one after the other (`target_lock`): each one's hooks
  and record entries survive the other's.
- An uninstall that cannot read ``settings.json`` changes nothing: removing a hook's files
  while the hook stays would leave a hook that runs a script no longer there.
- A temporary copy that a process killed mid-write left beside a file is removed by the
  next install or uninstall that writes or removes that file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from component_catalogue import files_under

from skill_retriever.components.install import apply, install, target_lock, uninstall
from skill_retriever.components.install.plan import InstallError
from skill_retriever.stores.index import Index

S = "sample_catalogue"
RECORD = ".claude/.skill-retriever/installed.json"
IDS = ["fastapi-service-scaffold", "api-reviewer", f"{S}/hooks/format-on-save.json", "deploy-control"]


def killed_after_writes(index: Index, target: Path, writes: int) -> None:
    """Install ``IDS`` in another process that dies (no cleanup, as SIGKILL) right after
    its ``writes``-th file."""
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from skill_retriever.components.install import apply
        from skill_retriever.stores.index import Index
        real, done = apply.write_atomic, []
        def write_then_die(*args, **kwargs):
            real(*args, **kwargs)
            done.append(1)
            if len(done) == {writes}:
                os._exit(9)
        apply.write_atomic = write_then_die
        apply.install(Index.open({str(index.path)!r}), {IDS!r}, Path({str(target)!r}))
    """)
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr


@pytest.fixture()
def target(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".claude").mkdir(parents=True)
    (folder / ".claude/settings.json").write_text('{"model": "opus"}\n')
    return folder


def test_what_a_killed_install_wrote_is_recorded_and_uninstall_takes_it_back(sample_index: Index, target: Path) -> None:
    before = files_under(target)
    killed_after_writes(sample_index, target, 2)
    written = set(files_under(target)) - set(before) - {RECORD, ".claude/.skill-retriever/.gitignore"}
    assert len(written) == 2  # it did die half-way: two files, no hook, no server
    assert "hooks" not in json.loads((target / ".claude/settings.json").read_text())
    recorded = json.loads((target / RECORD).read_text())["components"]
    assert written <= {p for e in recorded.values() for p in e.get("files", {})}
    report = uninstall(IDS, target)
    assert report.ok, report.lines()
    assert report.gone  # what was planned but never written: nothing to take back
    assert files_under(target) == before


def test_installing_again_completes_a_killed_install(sample_index: Index, target: Path) -> None:
    before = files_under(target)
    killed_after_writes(sample_index, target, 1)
    plan = install(sample_index, IDS, target)
    assert plan.ok and plan.applied
    settings = json.loads((target / ".claude/settings.json").read_text())
    assert settings["model"] == "opus" and "PostToolUse" in settings["hooks"]
    assert "deploy-control" in json.loads((target / ".mcp.json").read_text())["mcpServers"]
    report = uninstall(IDS, target)
    assert report.ok and not report.gone, report.lines()
    assert files_under(target) == before  # settings.json byte for byte too


def test_two_installs_at_once_keep_both_hooks_and_records(
    sample_index: Index, target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = apply.write_json
    hooks = [f"{S}/hooks/format-on-save.json", f"{S}/hooks/test-on-stop.json"]

    def slow_write(*args, **kwargs):  # type: ignore[no-untyped-def]
        threading.Event().wait(0.5)  # the other install reads settings.json meanwhile
        real(*args, **kwargs)

    monkeypatch.setattr(apply, "write_json", slow_write)
    with ThreadPoolExecutor(2) as pool:
        plans = list(pool.map(lambda hook: install(sample_index, [hook], target), hooks))
    assert all(p.applied for p in plans)
    settings = json.loads((target / ".claude/settings.json").read_text())
    assert {"PostToolUse", "Stop"} <= set(settings["hooks"])
    assert set(hooks) <= set(json.loads((target / RECORD).read_text())["components"])


def test_an_install_waits_for_another_then_says_so(
    sample_index: Index, target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(target_lock, "WAIT_S", 0.3)
    before = files_under(target)
    with (
        target_lock.holding(target),  # another install, as far as this one can tell
        pytest.raises(InstallError, match="another install or uninstall into .* is running"),
    ):
        install(sample_index, ["api-reviewer"], target)
    assert files_under(target) == before


def test_uninstall_changes_nothing_while_settings_json_is_unreadable(sample_index: Index, target: Path) -> None:
    hook = f"{S}/hooks/format-on-save.json"
    assert install(sample_index, [hook], target).applied  # with the skill it requires
    settings = target / ".claude/settings.json"
    settings.write_text(settings.read_text()[:-5])  # a typo: cut short
    held = files_under(target)
    with pytest.raises(InstallError, match=r"settings.json is not valid JSON .*run uninstall again; nothing removed"):
        uninstall([hook], target)
    assert files_under(target) == held


def test_an_install_that_fails_before_its_first_file_leaves_the_record_as_it_was(
    sample_index: Index, target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record is saved before the files; should the first file fail (a disk full), it
    must not go on listing what was never written."""
    assert install(sample_index, ["api-reviewer"], target).applied
    before = files_under(target)

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device", str(target / "x"))

    monkeypatch.setattr(apply, "write_atomic", disk_full)
    with pytest.raises(InstallError, match="No space left on device.*nothing written"):
        install(sample_index, ["fastapi-service-scaffold"], target)
    assert files_under(target) == before  # the record too, byte for byte
    fresh = target.parent / "fresh"
    with pytest.raises(InstallError, match="nothing written"):
        install(sample_index, ["fastapi-service-scaffold"], fresh)
    assert not fresh.exists()  # the folder it made goes too


def test_a_copy_killed_mid_write_is_cleared_by_the_next_install_or_uninstall(sample_index: Index, target: Path) -> None:
    """A process killed between writing a file's temporary copy and renaming it left the
    copy (``.SKILL.md.<random>.tmp``, 1.5 GB for a 1.5 GB file) for good: installing
    again and uninstalling both went on without it (found in a walkthrough)."""
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from skill_retriever.components.install import install
        from skill_retriever.stores.index import Index
        os.replace = lambda *args: os._exit(9)  # dies after the copy is written, before the rename
        install(Index.open({str(sample_index.path)!r}), {IDS!r}, Path({str(target)!r}))
    """)
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr
    (left,) = [p for p in files_under(target) if p.endswith(".tmp")]
    mine = target / left.rsplit("/", 1)[0] / ".notes.tmp"  # a file of the user's, named alike: kept
    mine.write_text("mine\n")
    assert install(sample_index, IDS, target).ok
    assert [p for p in files_under(target) if p.endswith(".tmp")] == [str(mine.relative_to(target))]
    assert uninstall(IDS, target).ok


def test_a_copy_left_beside_an_installed_file_goes_with_it(sample_index: Index, target: Path) -> None:
    assert install(sample_index, ["fastapi-service-scaffold"], target).ok
    skill = target / ".claude/skills/fastapi-service-scaffold/SKILL.md"
    (skill.parent / ".SKILL.md.k7_x2q9a.tmp").write_text("half a copy")
    assert uninstall(["fastapi-service-scaffold"], target).ok
    assert not skill.parent.exists()  # the folder emptied, the copy with it


def test_a_failed_write_names_the_file_not_its_temporary_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from skill_retriever import fsutil

    def refuse(src: str, dst: object) -> None:
        raise PermissionError(1, "Operation not permitted", src)

    monkeypatch.setattr(fsutil.os, "replace", refuse)
    dest = tmp_path / "SKILL.md"
    with pytest.raises(PermissionError) as caught:
        fsutil.write_atomic(dest, "x")
    assert caught.value.filename == str(dest)
    assert list(tmp_path.iterdir()) == []  # the copy is gone too
