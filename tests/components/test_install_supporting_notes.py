"""A hook's ``supportingFiles`` entry that install does not follow as written is said in
the plan. A destination outside ``.claude/`` (``../../x.py``, ``/tmp/x.py``) was ignored,
with the script put in ``.claude/hooks/`` without a word, and a source outside the
repository (``../../.ssh/id_rsa``) was dropped without one, while the README says such
files are refused with a reason (found in a walkthrough; nothing was ever written
outside the target)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HOOKS = {  # name -> (source, destination)
    "escape": ("escape.py", "../../escaped.py"),
    "absolute": ("absolute.py", "/tmp/absolute-hook.py"),
    "outside": ("../../secret/id_rsa", ".claude/hooks/key.txt"),
    "fine": ("fine.py", ".claude/scripts/fine.py"),
}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    repo = tmp_path / "catalogue" / "repo"
    (repo / "hooks").mkdir(parents=True)
    (tmp_path / "catalogue/secret").mkdir()
    (tmp_path / "catalogue/secret/id_rsa").write_text("PRIVATE KEY\n")
    for name, (src, dest) in HOOKS.items():
        script = dest if dest.startswith(".claude/") else f".claude/hooks/{src}"
        command = "echo hi" if src.startswith("..") else f"python3 {script}"
        (repo / "hooks" / f"{name}.json").write_text(json.dumps({
            "description": f"the {name} hook",
            "supportingFiles": [{"source": src, "destination": dest}],
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]},
        }))
        if not src.startswith(".."):
            (repo / "hooks" / src).write_text("print('ok')\n")
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(idx, [repo], "skills")
    yield idx
    idx.close()


def test_each_entry_not_followed_is_said_and_nothing_leaves_the_target(index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    plan = install(index, [f"repo/hooks/{n}.json" for n in HOOKS], target)
    keys = [f.path for c in plan.components for f in c.files if f.hook is not None]
    assert len(set(keys)) == len(HOOKS)  # one event and matcher, four commands: a key each (`hook_keys`)
    untagged = {c.name: sorted(re.sub(r" @[0-9a-f]{8}$", "", f.path) for f in c.files) for c in plan.components}
    said = {c.name: (c.reason, untagged[c.name]) for c in plan.components}
    assert said["escape"] == (
        ("supportingFiles destination ../../escaped.py of escape.py is outside .claude/: the script goes to "
         ".claude/hooks/ instead"), [".claude/hooks/escape.py", ".claude/settings.json#hooks.PreToolUse[Bash]"])
    assert said["absolute"][0] == ("supportingFiles destination /tmp/absolute-hook.py of absolute.py is outside "
                                   ".claude/: the script goes to .claude/hooks/ instead")
    assert said["outside"] == (
        ("supportingFiles source ../../secret/id_rsa not copied: it is not a file of the hook's repository "
         "(outside it, or missing)"), [".claude/settings.json#hooks.PreToolUse[Bash]"])
    assert said["fine"] == ("", [".claude/scripts/fine.py", ".claude/settings.json#hooks.PreToolUse[Bash]"])
    assert not (tmp_path / "escaped.py").exists() and not Path("/tmp/absolute-hook.py").exists()
    written = [p for p in target.rglob("*") if p.is_file()]
    assert all("PRIVATE KEY" not in p.read_text(errors="replace") for p in written)
