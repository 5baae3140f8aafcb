"""Credentials in MCP server configs never reach the index: not after a secret-looking
flag, not inside ``--flag=value``, not in the user info or query of a URL passed as an
argument (how the official postgres server is configured). A server rebuilt from the
index at install time says which value to fill in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PG_URL = "postgresql://dbuser:S3cretPass@prod-db:5432/app"
#: The marker the install path looks for (`skill_configs.REDACTED`).
REDACTED = "[redacted]"


def _write_servers(folder: Path, servers: dict[str, Any]) -> Path:
    path = folder / "mcps" / "secret.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def test_postgres_url_argument_loses_its_credentials(tmp_path: Path) -> None:
    args = ["-y", "@modelcontextprotocol/server-postgres", PG_URL]
    _write_servers(tmp_path / "sec", {"pgargs": {"description": "postgres", "command": "npx", "args": args}})
    result = ingest_skill_repo(tmp_path / "sec" / "mcps")
    (node,) = result.nodes
    assert result.problems == []
    assert node.attrs["args"] == [
        "-y",
        "@modelcontextprotocol/server-postgres",
        f"postgresql://{REDACTED}@prod-db:5432/app",
    ]
    dump = json.dumps(node.to_dict())
    assert "S3cretPass" not in dump and "dbuser" not in dump
    assert f"postgresql://{REDACTED}@prod-db:5432/app" in node.text  # host and database stay


def test_every_copied_field_is_redacted(tmp_path: Path) -> None:
    server = {
        "description": "Reads mysql://admin:PW1@db/shop for you.",
        "command": "psql postgresql://u:PW2@h/db",
        "args": [
            "--password=PW3",
            "--api-key=PW4",
            "--db=mysql://root:PW5@h/x?sslmode=require&password=PW6",
            "https://ghp_PW7@github.com/o/r.git",  # a token as the user name
            "https://api.example/sse?client=me&access_token=PW8",
            "--token",
            "PW9",
            "https://registry.npmjs.org/@scope/pkg",  # an @ in the path is no user info
        ],
        "env": {"PG": "postgresql://u:PW10@h/db"},
        "url": "https://u:PW11@remote.example/mcp?key=PW12",
    }
    _write_servers(tmp_path / "repo", {"all": server})
    result = ingest_skill_repo(tmp_path / "repo")
    (node,) = result.nodes
    assert node.attrs["args"] == [
        f"--password={REDACTED}",
        f"--api-key={REDACTED}",
        f"--db=mysql://{REDACTED}@h/x?sslmode=require&password={REDACTED}",
        f"https://{REDACTED}@github.com/o/r.git",
        f"https://api.example/sse?client=me&access_token={REDACTED}",
        "--token",
        REDACTED,
        "https://registry.npmjs.org/@scope/pkg",
    ]
    assert node.attrs["command"] == f"psql postgresql://{REDACTED}@h/db"
    assert node.attrs["url"] == "https://remote.example/mcp"
    assert node.description == f"Reads mysql://{REDACTED}@db/shop for you."
    dump = json.dumps(node.to_dict())
    assert [f"PW{i}" for i in range(1, 13) if f"PW{i}" in dump] == []


def test_redact_urls_leaves_text_without_credentials_alone() -> None:
    from skill_retriever.ingest.skill_configs import REDACTED as MARKER
    from skill_retriever.ingest.skill_configs import redact_urls

    assert MARKER == REDACTED
    for text in ("npx", "https://example.com/a?b=c#d", "user@example.com", "a=b&token=x"):
        assert redact_urls(text) == text


def test_a_server_rebuilt_from_the_index_says_to_fill_in_the_password(tmp_path: Path) -> None:
    """Installed from its file the entry is the user's own (password included); rebuilt
    from the index (file gone) it holds the marker and the plan says to set it."""
    source = _write_servers(
        tmp_path / "sec",
        {"pgargs": {"description": "postgres", "command": "npx", "args": ["-y", "pg", PG_URL]}},
    )
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        run = index_sources(index, [tmp_path / "sec"], "skills", calibrate=False)
        assert [p for s in run.sources for p in s.problems] == []
        (node_id,) = index.snapshot().nodes
        source.unlink()
        plan = install(index, [node_id], tmp_path / "project")
    finally:
        index.close()
    written = (tmp_path / "project" / ".mcp.json").read_text(encoding="utf-8")
    assert "S3cretPass" not in written
    entry = json.loads(written)["mcpServers"]["pgargs"]
    assert entry["args"] == ["-y", "pg", f"postgresql://{REDACTED}@prod-db:5432/app"]
    (component,) = plan.components
    assert "redacted in the index: set it in .mcp.json" in component.reason


def test_a_token_pasted_into_a_server_description_is_redacted_and_repair_agrees(tmp_path: Path) -> None:
    from skill_retriever.ingest.scrub import scrubbed

    token = "sk-" + "a1B2c3D4" * 4  # an OpenAI-style key, a format that is a secret anywhere
    hook = "https://hooks.zapier.com/hooks/catch/123456/abcdef/"
    server = {"description": f"Search docs. Use key {token}; alerts go to {hook}", "command": "npx", "args": ["srv"]}
    _write_servers(tmp_path / "repo", {"docs": server})
    (node,) = ingest_skill_repo(tmp_path / "repo").nodes
    assert node.description == (
        f"Search docs. Use key {REDACTED}; alerts go to https://hooks.zapier.com/hooks/catch/{REDACTED}/"
    )
    assert token not in json.dumps(node.to_dict()) and "abcdef" not in node.text
    assert scrubbed(node) is None  # what ingest wrote, repair finds nothing more to take out
