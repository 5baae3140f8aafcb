"""A skill repository whose texts read the environment, ingested: one skill (its body and
frontmatter as given), hooks running code, an MCP server's arguments, and optionally an
agent with the same body. The secret tests of environment reads and their defaults
(test_env_reference_values.py, test_env_default_values.py) build theirs with it."""

from __future__ import annotations

import json
from pathlib import Path

from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import Node


def ingest_code_repo(root: Path, body: str, frontmatter: str, hooks: dict[str, str], args: dict[str, list[str]],
                     *, agent: bool = False) -> dict[str, Node]:
    """Write the repository under ``root``, ingest it (no problem allowed) and return its
    items by name (the skill ``demo``, the agent ``db``, each hook and server by its name)."""
    folder = root / "skills" / "demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: demo\ndescription: A demo.\n{frontmatter}---\n{body}", encoding="utf-8")
    if agent:
        (root / "agents").mkdir()
        (root / "agents" / "db.md").write_text(f"---\nname: db\ndescription: Talks to the database.\n---\n{body}",
                                               encoding="utf-8")
    (root / "hooks").mkdir()
    for name, command in hooks.items():
        hook = {"name": name, "description": "Runs code.", "event": "Stop", "command": command}
        (root / "hooks" / f"{name}.json").write_text(json.dumps(hook), encoding="utf-8")
    (root / "mcps").mkdir()
    servers = {name: {"description": "Code.", "command": "node", "args": a} for name, a in args.items()}
    (root / "mcps" / "code.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    result = ingest_skill_repo(root)
    assert result.problems == []
    return {n.name: n for n in result.nodes}
