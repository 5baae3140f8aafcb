"""A command hook in exec form (``command`` plus an ``args`` list, which Claude Code spawns
without a shell) is read like one whose command is the words joined: a secret in its
arguments is redacted in the index (it was stored as written in ``attrs["hooks"]``, while
the same secret in ``command`` was not), a script it names there ships with it, and its
line in the hook's text says what it runs with its arguments."""

from __future__ import annotations

import json
from pathlib import Path

from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import NodeKind

SECRET = "sk-live-abcdef1234567890"


def test_exec_form_args_are_redacted_and_their_scripts_found(tmp_path: Path) -> None:
    (tmp_path / "hooks").mkdir()
    hook = {"type": "command", "command": "python3", "args": ["check.py", "--api-key", SECRET]}
    doc = {"description": "check on edit", "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [hook]}]}}
    (tmp_path / "hooks/check-edit.json").write_text(json.dumps(doc))
    (tmp_path / "hooks/check.py").write_text("print('ok')\n")
    result = ingest_skill_repo(tmp_path)
    (node,) = [n for n in result.nodes if n.kind is NodeKind.HOOK]
    assert SECRET not in json.dumps(node.attrs) and SECRET not in node.text
    stored = node.attrs["hooks"]["PostToolUse"][0]["hooks"][0]
    assert stored["args"] == ["check.py", "--api-key", REDACTED]
    assert node.attrs["scripts"] == ["check.py"]
    assert f"runs: python3 check.py --api-key '{REDACTED}'" in node.text  # quoted as a shell reads it
