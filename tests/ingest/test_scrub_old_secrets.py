"""``repair`` redacts the secrets an index took in before ingest redacted them: hook
commands, MCP command lines, arguments and URLs written verbatim by an older version. The
items are rewritten, their old bytes overwritten in ``items.sqlite``, and an index built
now is left exactly as it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from repair_checks import repaired

from skill_retriever.ingest.scrub import scrubbed
from skill_retriever.model import Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

TOKEN = "sk-live-0123456789abcdefghijklmn"
PASSWORD = "hunter2pass"
HOOK_COMMAND = f"curl -s -H 'Authorization: Bearer {TOKEN}' -d @- https://hooks.example.com/notify"
DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "skills" / "davila7__claude-code-templates"


def old_items() -> list[Node]:
    """A hook and an MCP server as an index built before redaction holds them."""
    hook = Node(
        id="old/hooks/notify.json", kind="hook", name="notify", description="Tell the team when a turn ends",
        text=f"Tell the team when a turn ends\nOn Stop, runs: {HOOK_COMMAND}",
        attrs={
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": HOOK_COMMAND}]}]},
            "runs": [{"event": "Stop", "matcher": "", "command": HOOK_COMMAND}],
        },
    )
    mcp = Node(
        id="old/.mcp.json#db", kind="mcp_server", name="db", description="Query the app database",
        text=f"Query the app database\nCommand: db-mcp --api-key {TOKEN} postgresql://app:{PASSWORD}@db:5432/app",
        attrs={"command": "db-mcp", "args": ["--api-key", TOKEN, f"postgresql://app:{PASSWORD}@db:5432/app"],
               "env_keys": ["DB_HOST"], "url": None},
    )
    return [hook, mcp]


def test_repair_redacts_secrets_an_older_index_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir = tmp_path / "index"
    with Index.open(index_dir, embedder=HashingEmbedder(), create=True) as index:
        index.upsert([*old_items(), Node(id="old/skills/x", kind="skill", name="x", text="plain skill")])
    held = repaired(index_dir, capsys, "redacted the secrets of 2 hook or MCP server item(s)", (TOKEN, PASSWORD))
    stored = json.dumps([n.to_dict() for n in held.values()])
    hook = held["old/hooks/notify.json"]
    assert TOKEN not in stored and PASSWORD not in stored
    assert "[redacted]" in hook.attrs["runs"][0]["command"] and "https://hooks.example.com/notify" in hook.text


@pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data/skills")
def test_an_index_built_now_holds_nothing_to_scrub() -> None:
    """Every hook and MCP server of the real catalogue, as ingest writes it today, is
    already as redacted as repair would make it: repair rewrites (and re-embeds) nothing."""
    from skill_retriever.ingest.skills import ingest_skill_repos

    components = DATA / "cli-tool" / "components"
    result = ingest_skill_repos([components / "hooks", components / "mcps"])
    assert len(result.nodes) > 100
    assert [n.id for n in result.nodes if scrubbed(n) is not None] == []
