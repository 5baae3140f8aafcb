"""What an uninstall says a hook ran is redacted as the index redacts it.

Install never shows a hook's secrets, but uninstall read each hook back from
``settings.json`` and said what it ran in full: ``would remove hook Stop (runs
GH_TOKEN=ghp_... gh api ...)`` in its lines, in ``--json``'s ``hooks_run`` and
``removed_hooks_run``, and through the MCP server's ``uninstall_components`` into an
agent's context (seen: a QA run this session). Every value here is invented.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file
from mcp import Client

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

TOKEN = "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
PASSWORD = "Xk9s2mQz7Lp"
NOTIFY = f"GH_TOKEN={TOKEN} gh api /notify"
PING = f"curl -fsS -u admin:{PASSWORD} https://status.example.com/ping"
PROMPT = f"Check the deploy; the staging password is {PASSWORD}."


@pytest.fixture
def project(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    src = tmp_path / "src" / "cat"
    stop = [{"hooks": [{"type": "command", "command": NOTIFY}, {"type": "command", "command": PING}]}]
    write_file(src, "hooks/notify.json", {"description": "Notify on stop.", "hooks": {"Stop": stop}})
    write_file(
        src, "hooks/judge.json",
        {"description": "Judge a stop.", "hooks": {"SubagentStop": [{"hooks": [{"type": "prompt", "prompt": PROMPT}]}]}},
    )
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    built.close()
    proj = tmp_path / "proj"
    yield tmp_path / "index", proj


def _installed(capsys: pytest.CaptureFixture[str], index_dir: Path, proj: Path) -> None:
    code, out, err = run(capsys, "install", "notify", "judge", "--target", proj, "--index-dir", index_dir)
    assert code == 0, out + err
    assert TOKEN in (proj / ".claude/settings.json").read_text()  # install writes the source's command


def _no_secret(text: str) -> None:
    assert TOKEN not in text and PASSWORD not in text, text
    assert "[redacted]" in text, text


def test_the_lines_and_the_json_say_what_ran_without_its_secrets(
    project: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir, proj = project
    _installed(capsys, index_dir, proj)
    code, out, err = run(capsys, "uninstall", "notify", "judge", "--target", proj, "--dry-run")
    assert code == 0, out + err
    _no_secret(out + err)
    assert "runs GH_TOKEN=[redacted] gh api /notify" in out, out  # still told apart by what it runs
    code, out, err = run(capsys, "uninstall", "notify", "judge", "--target", proj, "--json")
    assert code == 0, out + err
    _no_secret(out + err)
    data = json.loads(out)
    assert sorted(data["removed_hooks_run"].values()) == sorted(data["hooks_run"].values())
    assert "GH_TOKEN=[redacted] gh api /notify" in data["hooks_run"].values(), data
    assert "Check the deploy; the staging password is [redacted]." in data["hooks_run"].values(), data
    settings = proj / ".claude/settings.json"
    assert not settings.exists() or TOKEN not in settings.read_text()  # removed for real this time


def test_the_mcp_tool_says_it_without_its_secrets(project: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, proj = project
    _installed(capsys, index_dir, proj)
    index = Index.open(index_dir)
    server = build_server(index, retriever=Retriever(index, reranker=None), principals=["*"])

    async def go() -> str:
        async with Client(server) as client:
            result = await client.call_tool("uninstall_components", {"ids": ["notify", "judge"], "target": str(proj)})
            assert not result.is_error
            return " ".join(getattr(c, "text", "") for c in result.content)

    try:
        text = asyncio.run(go())
    finally:
        index.close()
    _no_secret(text)
    assert TOKEN in (proj / ".claude/settings.json").read_text()  # a dry run (the tool's default) changed nothing
