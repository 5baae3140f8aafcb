"""Command hooks with the fields Claude Code's hooks reference lists beyond ``async`` and
``statusMessage``: ``asyncRewake`` (run in the background, wake the model on exit 2),
``shell`` (``bash`` or ``powershell``), ``once`` and ``args`` (exec form: the command is
spawned with these arguments, no shell). Such a hook was skipped as having "fields Claude
Code does not read"; it installs as written, a bad value of one of them is refused with
the field named, and a hook the installer would have to rewrite (its script pointed at the
copy) that runs without a POSIX shell (``args``, ``shell: powershell``) is skipped with the
reason, since ``"$CLAUDE_PROJECT_DIR"/...`` means nothing there."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from claude_schema import settings_problems
from hook_repos import hooks_index, post_edit

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HOOKS: dict[str, dict[str, Any]] = {
    "rewake": {"type": "command", "command": "npm test", "asyncRewake": True, "timeout": 120},
    "pwsh": {"type": "command", "command": "Write-Host hi", "shell": "powershell"},
    "bash-shell": {"type": "command", "command": "echo hi", "shell": "bash", "once": True},
    "exec-form": {"type": "command", "command": "npx", "args": ["prettier", "--check", "."]},
    # the form the hooks reference advises for a path placeholder: substituted by Claude
    # Code into one argument, no shell; quoting it as shell text would keep the quotes
    "exec-placeholder": {"type": "command", "command": "${CLAUDE_PROJECT_DIR}/tools/lint",
                         "args": ["--root", "${CLAUDE_PROJECT_DIR}"]},
    "fish-shell": {"type": "command", "command": "echo hi", "shell": "fish"},
    "text-rewake": {"type": "command", "command": "echo hi", "asyncRewake": "yes"},
    "args-not-list": {"type": "command", "command": "npx", "args": "prettier ."},
    "text-once": {"type": "command", "command": "echo hi", "once": "true"},
    "exec-script": {"type": "command", "command": "python3", "args": ["check.py"]},
    "pwsh-script": {"type": "command", "command": "& ./check.ps1", "shell": "powershell"},
}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    idx = hooks_index(tmp_path, post_edit(HOOKS), {"check.py": "print('ok')\n", "check.ps1": "Write-Host ok\n"})
    yield idx
    idx.close()


def test_command_hook_fields_install_as_written(index: Index, tmp_path: Path) -> None:
    by_name = {n.name: n.id for n in index.nodes.values()}
    project = tmp_path / "project"
    plan = install(index, [by_name[n] for n in HOOKS], project)
    status = {c.name: c for c in plan.components}
    assert {n for n, c in status.items() if c.status == "install"} == {"rewake", "pwsh", "bash-shell", "exec-form", "exec-placeholder"}
    assert "shell must be 'bash' or 'powershell', got 'fish'" in status["fish-shell"].reason
    assert "asyncRewake must be true or false" in status["text-rewake"].reason
    assert "args must be a list of strings" in status["args-not-list"].reason
    assert "once must be true or false" in status["text-once"].reason
    for name in ("exec-script", "pwsh-script"):
        assert "without a POSIX shell" in status[name].reason, status[name].reason
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert settings_problems(settings) == []
    written = [h for g in settings["hooks"]["PostToolUse"] for h in g["hooks"]]
    assert sorted(written, key=json.dumps) == sorted(
        (HOOKS[n] for n in ("rewake", "pwsh", "bash-shell", "exec-form", "exec-placeholder")), key=json.dumps
    )
    # `once` is honoured only in a skill's frontmatter: in settings.json it runs every time
    assert "once: true" in status["bash-shell"].reason and "every time" in status["bash-shell"].reason
    again = install(index, [by_name[n] for n in ("rewake", "pwsh", "bash-shell", "exec-form")], project)
    assert again.ok and again.written() == []


def test_an_exec_form_hook_whose_args_the_index_redacted_needs_its_file(tmp_path: Path) -> None:
    """The index keeps ``args`` redacted; with the source file gone, the hook is skipped
    rather than installed with ``[redacted]`` as an argument."""
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    hook = {"type": "command", "command": "notify", "args": ["--api-key", "sk-live-abcdef1234567890"]}
    doc = {"description": "notify", "hooks": {"Stop": [{"hooks": [hook]}]}}
    (repo / "hooks/notify.json").write_text(json.dumps(doc))
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [repo], "skills")
    (repo / "hooks/notify.json").unlink()
    (node_id,) = [n.id for n in index.nodes.values() if n.name == "notify"]
    plan = install(index, [node_id], tmp_path / "project")
    (c,) = plan.components
    assert c.status == "skipped" and "redacted" in c.reason
    assert not (tmp_path / "project/.claude/settings.json").exists()
    index.close()
