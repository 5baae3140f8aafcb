"""A command that runs subagents by name, installed without them: the plan says so.

wshobson's ``/full-review`` runs three agents of its plugin by ``subagent_type``; installed
alone it failed at its first step, the plan silent (the agents are MENTIONS, not
requirements). Now each name neither this install writes nor the target holds (by
frontmatter name, the user's own agents too), nor Claude Code has built in, is noted, with
what to type to install it: only what the caller may see (`subagent_refs`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.components.install.subagent_refs import subagents_named

HASHING = ("--embedder", "hashing-64")
COMMAND = """---
description: Review everything.
---
1. Run `subagent_type`: the selected role, as below.
Task: subagent_type: "rev-code", prompt: "review"
Task: subagent_type: "general-purpose"
Task: subagent_type: "rev-secret"
"""


def _agent(name: str, *more: str) -> str:
    extra = "".join(f"{line}\n" for line in more)
    return f"---\nname: {name}\ndescription: The {name} agent.\n{extra}---\nGo.\n"


@pytest.fixture
def index_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    repo = tmp_path / "repo"
    for rel, text in {
        "plugins/reviews/commands/full-review.md": COMMAND,
        "plugins/reviews/agents/rev-code.md": _agent("rev-code"),
        "plugins/secret/agents/rev-secret.md": _agent("rev-secret", "access: [secops]"),
    }.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    return ix


def _plan(capsys: pytest.CaptureFixture[str], ix: Path, target: Path, *ids: str, who: str = "alice") -> str:
    code, out, err = run(capsys, "install", *ids, "--target", target, "--index-dir", ix, "--dry-run", "--principals", who)
    assert code == 0, out + err
    return next(line for line in out.splitlines() if line.startswith("[command] full-review"))


def test_the_subagents_a_command_runs_are_named_when_they_will_not_be_there(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    line = _plan(capsys, index_dir, target, "full-review")
    assert "its text runs the subagent(s) rev-code, rev-secret (subagent_type), which the target will not hold" in line
    assert "install them too (rev-code)" in line  # the private one is not offered to alice
    assert "secret/agents" not in line and "general-purpose" not in line and "the," not in line
    line = _plan(capsys, index_dir, target, "full-review", who="secops")
    assert "install them too (rev-code rev-secret)" in line


def test_agents_brought_or_already_there_count(index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "proj"
    (target / ".claude/agents").mkdir(parents=True)
    (target / ".claude/agents/my-secret.md").write_text(_agent("rev-secret"))  # the user's own, by that name
    assert "subagent" not in _plan(capsys, index_dir, target, "full-review", "rev-code")
    line = _plan(capsys, index_dir, target, "full-review")
    assert "runs the subagent(s) rev-code (subagent_type)" in line


def test_the_names_read() -> None:
    text = b'| `subagent_type` | `rev` |\n**subagent_type**: foo\nsubagent_type: "team:lead"\nsubagent_type: "<name>"\n'
    assert subagents_named(text) == ["rev", "foo"]
