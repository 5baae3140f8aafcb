"""What an install leaves out, and how it says so.

- A dependency is written for what requires it: when none of that is written (refused for
  a malformed ``settings.json``, blocked, skipped), the dependency is skipped too, saying
  why, instead of being left behind recorded as nobody's (`orphans`).
- A component asked for by name and skipped (an MCP server in user scope) makes the plan
  not ok: the CLI exits 1 and says where the reason is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from component_catalogue import files_under

from skill_retriever.cli import main
from skill_retriever.components.install import install, uninstall
from skill_retriever.stores.index import Index

S = "sample_catalogue"
HOOK = f"{S}/hooks/format-on-save.json"


def test_the_dependency_of_a_refused_hook_is_left_out(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    (target / ".claude/settings.json").write_text("[1, 2")  # the user's typo
    before = files_under(target)
    plan = install(sample_index, [HOOK], target)
    status = {c.name: (c.status, c.reason) for c in plan.components}
    assert status["format-on-save"][0] == "refused"
    assert status["ruff-format"] == ("skipped", "left out: it is here for format-on-save (refused), which is not installed")
    assert not plan.ok and files_under(target) == before  # nothing of either written
    # once the user fixes the file, both install, and uninstalling the hook takes both back
    (target / ".claude/settings.json").write_text("{}\n")
    assert install(sample_index, [HOOK], target).ok
    assert uninstall([HOOK], target).ok
    assert set(files_under(target)) == {".claude/settings.json"}


def test_a_dependency_something_written_still_needs_stays(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    (target / ".claude/settings.json").write_text("[1, 2")
    plan = install(sample_index, [HOOK, "ruff-format"], target)  # asked for by name too
    assert {c.name: c.status for c in plan.components}["ruff-format"] == "install"


def test_a_component_asked_for_and_skipped_is_not_ok(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # the CLI's --user: never the real home
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    plan = install(sample_index, ["deploy-control"], user=True, home=home)
    (c,) = plan.components
    assert c.status == "skipped" and not plan.ok
    index_dir = str(sample_index.path)
    sample_index.close()  # the CLI opens it itself
    code = main(["install", "deploy-control", "--user", "--index-dir", index_dir])
    last = capsys.readouterr().out.splitlines()[-1]
    assert code == 1 and last == (
        "some files were not written: see 'skipped' above (it says why this install cannot place what you asked for)"
    ), last  # only the word the lines above use: no 'kept' / 'refused' where nothing was
