"""A hook an uninstall keeps (changed since) or leaves (another component installed it too)
is named by what it runs, as a removed one is (`uninstall_report.said`).

Its line said ``kept hook PreToolUse (tools matching Bash) in .claude/settings.json`` (and,
for two of one event and matcher, ``command @<tag>``, a hash): which of the user's hooks to
remove by hand could not be told from it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

GUARD = "jq -r .tool_input.command | grep -qv rm"
SAID = f"hook PreToolUse (tools matching Bash, runs {GUARD}) in .claude/settings.json"


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[Path]:
    src = tmp_path / "src" / "cat"
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": GUARD}]}]}
    write_file(src, "hooks/guards.json", {"description": "Guard bash calls.", "hooks": hooks})
    write_file(src, "hooks/guards-too.json", {"description": "Guard bash calls as well.", "hooks": hooks})
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    built.close()
    yield tmp_path / "index"


def test_a_hook_left_for_another_component_and_one_kept_changed_say_what_they_run(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    code, out, err = run(capsys, "install", "guards", "guards-too", "--target", project, "--index-dir", index_dir)
    assert code == 0, out + err
    code, out, err = run(capsys, "uninstall", "guards", "--target", project, "--json")
    assert code == 0, out + err
    data = json.loads(out)
    (key,) = data["left_shared"]
    assert data["hooks_run"] == {key: GUARD} and data["removed_hooks_run"] == {}, data
    # (the same run in words; uninstall it on a fresh install to see the line)
    code, out, err = run(capsys, "install", "guards", "--target", project, "--index-dir", index_dir)
    assert code == 0, out + err
    code, out, err = run(capsys, "uninstall", "guards", "--target", project)
    assert code == 0 and f"left {SAID}: guards-too installed it too, and stays" in out, out + err
    settings = project / ".claude/settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 5  # changed, its command still there
    settings.write_text(json.dumps(data))
    code, out, err = run(capsys, "uninstall", "guards-too", "--target", project)
    assert code == 1, out + err
    assert f"kept {SAID}: changed since it was installed (its command is still there)" in out, out
