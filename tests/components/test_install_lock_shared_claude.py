"""Installs into projects that share one ``.claude`` through links run one after the other.

Two projects in different folders whose ``.claude`` links to one shared folder write one
``settings.json`` and one install record: an install into each, at once, took the lock
of its own project's parent and both read-merged-wrote the shared files, one losing the
other's entries (`target_lock`). Each now locks the folder above the shared one too, in
one order, so they wait on each other; nothing is left in the user's tree. Real processes
throughout: ``flock`` is between open files, so a second lock in one process proves little.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import files_under

from skill_retriever.components.install import target_lock
from skill_retriever.components.install.plan import InstallError
from skill_retriever.stores.index import Index

S = "sample_catalogue"
RECORD = ".claude/.skill-retriever/installed.json"


@pytest.fixture
def two_projects(tmp_path: Path) -> tuple[Path, Path, Path]:
    """``a/proj`` and ``b/proj``, each ``.claude`` a link to ``shared/claude``."""
    shared = tmp_path / "shared/claude"
    shared.mkdir(parents=True)
    (shared / "settings.json").write_text('{"model": "opus"}\n')
    projects = []
    for side in ("a", "b"):
        project = tmp_path / side / "proj"
        project.mkdir(parents=True)
        (project / ".claude").symlink_to(shared, target_is_directory=True)
        projects.append(project)
    return projects[0], projects[1], shared


@contextlib.contextmanager
def _holder(root: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding ``root``'s install lock until its stdin closes."""
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from skill_retriever.components.install.target_lock import holding
        with holding(Path({str(root)!r})):
            print("held", flush=True)
            sys.stdin.readline()
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield proc
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=60)


@pytest.mark.parametrize("first", [0, 1])
def test_projects_linking_one_claude_folder_wait_on_each_other(two_projects: tuple[Path, Path, Path], first: int) -> None:
    projects = two_projects[:2]
    before = files_under(two_projects[0].parent.parent)
    with (
        _holder(projects[first]),
        pytest.raises(InstallError, match="another install or uninstall into .* is running"),
        target_lock.holding(projects[1 - first], wait_s=0.3),
    ):
        pass
    with target_lock.holding(projects[1 - first], wait_s=0.3):  # let go: free again
        pass
    assert files_under(two_projects[0].parent.parent) == before  # no lock file anywhere


def test_the_project_that_owns_the_shared_claude_folder_waits_too(tmp_path: Path) -> None:
    owner = tmp_path / "team/main"
    (owner / ".claude").mkdir(parents=True)
    other = tmp_path / "elsewhere/proj"
    other.mkdir(parents=True)
    (other / ".claude").symlink_to(owner / ".claude", target_is_directory=True)
    with _holder(owner), pytest.raises(InstallError, match="is running"), target_lock.holding(other, wait_s=0.3):
        pass
    with _holder(other), pytest.raises(InstallError, match="is running"), target_lock.holding(owner, wait_s=0.3):
        pass


def test_projects_apart_still_run_at_once(tmp_path: Path) -> None:
    one, two = tmp_path / "a/proj", tmp_path / "b/proj"
    for p in (one, two):
        (p / ".claude").mkdir(parents=True)
    with _holder(one), target_lock.holding(two, wait_s=0.3):  # no shared file: no wait
        pass


def test_a_folder_reached_by_two_paths_is_locked_once(tmp_path: Path) -> None:
    """A project whose ``.claude`` links to a sibling project's: both locks are one folder
    (``tmp_path``), taken once, else this process would wait on itself."""
    (tmp_path / "main/.claude").mkdir(parents=True)
    (tmp_path / "side").mkdir()
    (tmp_path / "side/.claude").symlink_to(tmp_path / "main/.claude", target_is_directory=True)
    assert target_lock.lock_folders(tmp_path / "side") == [tmp_path.resolve()]
    with target_lock.holding(tmp_path / "side", wait_s=0.3):
        pass


def test_two_processes_installing_into_linked_projects_keep_both_hooks(
    sample_index: Index, two_projects: tuple[Path, Path, Path]
) -> None:
    """Each install slowed between reading and writing the shared ``settings.json``: run
    at once in two processes, both hooks and both record entries stay."""
    a, b, shared = two_projects
    hooks = {a: f"{S}/hooks/format-on-save.json", b: f"{S}/hooks/test-on-stop.json"}
    script = textwrap.dedent("""
        import sys, time
        from pathlib import Path
        from skill_retriever.components.install import apply
        from skill_retriever.stores.index import Index
        real = apply.write_json
        def slow(*args, **kwargs):
            time.sleep(0.5)  # the other install reads settings.json meanwhile
            real(*args, **kwargs)
        apply.write_json = slow
        plan = apply.install(Index.open(sys.argv[1]), [sys.argv[2]], Path(sys.argv[3]))
        assert plan.applied, plan.lines()
    """)
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(sample_index.path), hook, str(root)], stderr=subprocess.PIPE, text=True)
        for root, hook in hooks.items()
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    settings = json.loads((shared / "settings.json").read_text())
    assert settings["model"] == "opus" and {"PostToolUse", "Stop"} <= set(settings["hooks"])
    assert set(hooks.values()) <= set(json.loads((a / RECORD).read_text())["components"])
