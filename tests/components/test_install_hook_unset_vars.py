"""A hook command that reads an environment variable Claude Code never sets says so in the
plan (walkthrough of davila7/claude-code-templates: 19 of its 62 hooks read
``$CLAUDE_TOOL_FILE_PATH`` or ``$CLAUDE_TOOL_NAME``). Claude Code hands a command hook the
tool call as JSON on stdin and sets no such variable
(https://github.com/anthropics/claude-code/issues/5489, /23742), so ``format-javascript-files``
installed without a word and then formatted nothing. It is still written as its author wrote it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hook_repos import hooks_index, post_edit

from skill_retriever.components.install import install
from skill_retriever.stores.index import Index

#: format-javascript-files' command, as davila7/claude-code-templates ships it.
PRETTIER = ('if [[ "$CLAUDE_TOOL_FILE_PATH" =~ \\.(js|ts|jsx|tsx)$ ]]; then npx prettier --write '
            '"$CLAUDE_TOOL_FILE_PATH" 2>/dev/null || true; fi')
HOOKS = {
    "format-javascript-files": {"type": "command", "command": PRETTIER},
    "command-logger": {"type": "command", "command": 'echo "$(date) ${CLAUDE_TOOL_NAME}" >> ~/.claude/tools.log'},
    "from-stdin": {"type": "command", "command": "jq -r .tool_input.file_path | xargs npx prettier --write"},
    "project-dir": {"type": "command", "command": 'bash "$CLAUDE_PROJECT_DIR"/scripts/fmt.sh'},
}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    idx = hooks_index(tmp_path, post_edit(HOOKS))
    yield idx
    idx.close()


def test_a_hook_reading_a_variable_claude_code_never_sets_says_so(index: Index, tmp_path: Path) -> None:
    by_name = {n.name: n.id for n in index.nodes.values()}
    project = tmp_path / "project"
    plan = install(index, [by_name[n] for n in HOOKS], project)
    assert plan.ok
    said = {c.name: c.reason for c in plan.components}
    assert ("reads $CLAUDE_TOOL_FILE_PATH, which Claude Code does not set: a hook gets the tool call as "
            "JSON on stdin (jq -r .tool_input.file_path for $CLAUDE_TOOL_FILE_PATH)") in said["format-javascript-files"], said
    # each variable with where stdin holds it: .tool_name, not the file path (QA)
    assert ("reads $CLAUDE_TOOL_NAME, which Claude Code does not set: a hook gets the tool call as JSON on "
            "stdin (jq -r .tool_name for $CLAUDE_TOOL_NAME)") in said["command-logger"], said
    assert "does not set" not in said["from-stdin"] + said["project-dir"], said
    written = [h["command"] for g in json.loads((project / ".claude/settings.json").read_text())["hooks"]["PostToolUse"]
               for h in g["hooks"]]
    assert PRETTIER in written  # as its author wrote it
