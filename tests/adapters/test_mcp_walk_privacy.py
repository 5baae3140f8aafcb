"""The MCP tools' ``detail="full"`` answers copy an item's ``attrs``, whose ``frontmatter``
holds the public file's ``requires:``/``conflicts:`` as written (found in a user
walkthrough): a public skill requiring a private one named it, and the conflict's reason
too, to a caller who may not see it. Those names are now left out, the visible ones kept.

A real index (the hashing embedder) of skills read from files, one behind
``access: [secops]``, served in process to callers with and without ``secops``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PUBLIC = """---
name: rotate-passwords
description: Rotate database passwords on a schedule using the team tooling.
requires: [vault-admin, audit-log]
conflicts:
  - name: vault-admin
    reason: both rotate the keys WOMBATREASON
  - name: noisy-logger
    reason: both write the audit file
allowed-tools: [Bash, mcp__vault-admin__unseal]
---
# Rotate database passwords
"""
SKILLS = {
    "rotate-passwords": PUBLIC,
    "vault-admin": "---\nname: vault-admin\ndescription: Unseal the vault.\naccess: [secops, admins]\n---\nunseal\n",
    "audit-log": "---\nname: audit-log\ndescription: Write an audit log of commands.\n---\naudit\n",
    "noisy-logger": "---\nname: noisy-logger\ndescription: Log every command loudly.\n---\nlog\n",
}
HIDDEN = ("vault-admin", "WOMBATREASON", "admins")
QUERY = "rotate database passwords"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    root = tmp_path_factory.mktemp("walk-privacy")
    for name, text in SKILLS.items():
        (root / "src" / "skills" / name).mkdir(parents=True)
        (root / "src" / "skills" / name / "SKILL.md").write_text(text, encoding="utf-8")
    idx = Index.open(root / "index", embedder=HashingEmbedder(64), create=True)
    index_sources(idx, [root / "src"], "skills")
    yield idx
    idx.close()


def answers(index: Index, principals: list[str]) -> dict[str, dict[str, Any]]:
    """The full answers of the three tools that copy ``attrs``, as JSON."""
    server = build_server(index, retriever=Retriever(index, reranker=None), principals=principals)

    async def run() -> dict[str, dict[str, Any]]:
        calls = {
            "get_component": {"id": "rotate-passwords", "detail": "full"},
            "search": {"query": QUERY, "k": 4, "detail": "full"},
            "search_components": {"query": QUERY, "k": 4, "detail": "full"},
        }
        out = {}
        for tool, args in calls.items():
            result = await server.call_tool(tool, args)
            assert not result.is_error, result.content
            out[tool] = result.structured_content
        return out

    return asyncio.run(run())


def _frontmatter(answer: dict[str, Any]) -> dict[str, Any]:
    """The rotate-passwords skill's frontmatter as an answer shows it."""
    item = answer if "attrs" in answer else next(r for r in answer["results"] if r["name"] == "rotate-passwords")
    front: dict[str, Any] = item["attrs"]["frontmatter"]
    return front


def test_a_caller_without_the_label_never_reads_the_private_name(index: Index) -> None:
    got = answers(index, ["alice"])
    for tool, answer in got.items():
        text = json.dumps(answer)
        assert not [h for h in HIDDEN if h in text], f"{tool}: {text[:2000]}"
    front = _frontmatter(got["get_component"])
    assert front["requires"] == ["audit-log"]  # the visible requirement stays
    assert front["conflicts"] == [{"name": "noisy-logger", "reason": "both write the audit file"}]
    assert front["allowed-tools"] == ["Bash"]  # the hidden MCP server's tool is left out
    assert _frontmatter(got["search"]) == front  # search's full result copies attrs too
    assert "unresolved_requires" not in got["get_component"]["attrs"]


def test_a_caller_holding_the_label_reads_it(index: Index) -> None:
    got = answers(index, ["secops"])
    front = _frontmatter(got["get_component"])
    assert front["requires"] == ["vault-admin", "audit-log"]
    assert front["conflicts"][0] == {"name": "vault-admin", "reason": "both rotate the keys WOMBATREASON"}
    assert got["get_component"]["conflicts"][0]["name"] == "vault-admin"  # the structured field agrees


def test_a_caller_who_sees_everything_gets_the_frontmatter_as_written(index: Index) -> None:
    front = _frontmatter(answers(index, ["*"])["get_component"])
    assert front["allowed-tools"] == ["Bash", "mcp__vault-admin__unseal"]
    assert len(front["conflicts"]) == 2
