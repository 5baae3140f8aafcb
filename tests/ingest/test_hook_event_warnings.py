"""A hook file under an event Claude Code does not know (``NotAnEvent``, ``preToolUse``)
was indexed without a word, and only ``install`` refused it later; index now says so the
moment it reads the file, in the words install uses, and still indexes the hook (search
may show it; its file is the user's to fix)."""

from __future__ import annotations

import json
from pathlib import Path

from files import write_file

from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import NodeKind


def _hook(event: str) -> str:
    return json.dumps({"description": "format on edit", "hooks": {event: [{"hooks": [{"type": "command", "command": "ruff format"}]}]}})


def test_an_unknown_event_is_a_problem_and_the_hook_is_still_indexed(tmp_path: Path) -> None:
    write_file(tmp_path, "hooks/format.json", _hook("preToolUse"))
    result = ingest_skill_repo(tmp_path)
    (problem,) = result.problems
    assert "format.json" in str(problem.path)
    assert "install will not write it" in problem.message
    assert "'preToolUse' is not a hook event Claude Code knows" in problem.message
    assert "PreToolUse" in problem.message  # the case-sensitive hint names the right one
    assert [n.kind for n in result.nodes] == [NodeKind.HOOK]


def test_a_known_event_says_nothing(tmp_path: Path) -> None:
    write_file(tmp_path, "hooks/format.json", _hook("PostToolUse"))
    result = ingest_skill_repo(tmp_path)
    assert result.problems == []
    assert [n.kind for n in result.nodes] == [NodeKind.HOOK]
