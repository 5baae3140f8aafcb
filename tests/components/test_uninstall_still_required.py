"""Uninstalling what an installed component that stays still requires is refused, as a
package manager refuses it: nothing removed, the components that require it named, and
the two ways on (uninstall them too, in one call; or force). On the sample catalogue:
the hook ``block-secrets-in-commits`` requires the skill ``secret-scanning``, a member of
the plugin ``security-kit``. The CLI and the MCP tool (through a real MCP client,
in-process) say it alike; a set that holds both the requirer and the required goes in
one call."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import files_under
from mcp import Client

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, StillRequiredError, install, uninstall
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

HOOK = "sample_catalogue/hooks/block-secrets-in-commits.json"
SCANNING = "sample_catalogue/plugins/security-kit/skills/secret-scanning/SKILL.md"


@pytest.fixture
def project(sample_index: Index, tmp_path: Path) -> Path:
    """The plugin, then the hook that requires one of its skills, installed."""
    root = tmp_path / "proj"
    root.mkdir()
    assert install(sample_index, ["security-kit"], root).ok
    assert install(sample_index, ["block-secrets-in-commits"], root).ok
    return root


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("dry_run", [False, True])
def test_the_cli_refuses_naming_the_hook_and_the_ways_on(
    project: Path, capsys: pytest.CaptureFixture[str], dry_run: bool
) -> None:
    before = files_under(project)
    code, said = _cli(["uninstall", "security-kit", "--target", str(project), *(["--dry-run"] if dry_run else [])], capsys)
    assert code == 2 and files_under(project) == before
    assert "secret-scanning is required by block-secrets-in-commits, which stays installed" in said
    assert "nothing removed" in said
    together = f"skill-retriever uninstall security-kit block-secrets-in-commits --target {project}"
    assert together in said and "or add --force to remove it anyway" in said


def test_the_advised_call_takes_both_back(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, said = _cli(["uninstall", "security-kit", "block-secrets-in-commits", "--target", str(project)], capsys)
    assert code == 0, said
    assert "still requires" not in said and files_under(project) == {}


def test_force_removes_it_and_notes_what_lacks_it(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, said = _cli(["uninstall", "security-kit", "--target", str(project), "--force"], capsys)
    assert code == 0, said
    assert "note: block-secrets-in-commits still requires secret-scanning, which is gone" in said
    assert ".claude/hooks/scan_staged.py" in files_under(project)
    assert not (project / ".claude/skills/secret-scanning").exists()


def test_the_api_names_every_component_that_would_lack_it(project: Path) -> None:
    """The skill alone is required by the plugin's agent too; the advised call names both."""
    with pytest.raises(StillRequiredError) as caught:
        uninstall(["secret-scanning"], project)
    assert isinstance(caught.value, InstallError)  # one except catches every install refusal (README)
    assert set(caught.value.required[SCANNING]) == {HOOK, "sample_catalogue/plugins/security-kit/agents/security-reviewer.md"}
    assert "uninstall(['secret-scanning', " in str(caught.value) and "pass force=True" in str(caught.value)
    assert uninstall([*caught.value.asked, *caught.value.refs], project).ok  # the advice, followed
    assert not (project / ".claude/skills/secret-scanning").exists()


def _mcp(index: Index, calls: list[dict[str, Any]]) -> list[tuple[bool, str]]:
    """Each ``uninstall_components`` call's (is_error, text), through a real MCP client."""
    server = build_server(index, retriever=Retriever(index, reranker=None), principals=["*"])

    async def go() -> list[tuple[bool, str]]:
        async with Client(server) as client:
            out = []
            for args in calls:
                result = await client.call_tool("uninstall_components", args)
                out.append((result.is_error, " ".join(getattr(c, "text", "") for c in result.content)))
            return out

    return asyncio.run(go())


def test_the_mcp_tool_refuses_alike_and_force_goes_on(sample_index: Index, project: Path) -> None:
    before = files_under(project)
    plugin = "sample_catalogue/plugins/security-kit"
    refused, dry = _mcp(sample_index, [
        {"ids": [plugin], "target": str(project), "dry_run": False},
        {"ids": [plugin], "target": str(project)},
    ])
    assert files_under(project) == before
    for is_error, text in (refused, dry):
        assert is_error and "secret-scanning is required by block-secrets-in-commits" in text
        assert f"pass ids {json.dumps([plugin, HOOK])}" in text and "or pass force true" in text
    (both, forced) = _mcp(sample_index, [
        {"ids": [plugin, HOOK], "target": str(project)},  # the advised call (a dry run)
        {"ids": [plugin], "target": str(project), "dry_run": False, "force": True},
    ])
    assert not both[0] and json.loads(both[1])["ok"]
    assert not forced[0] and "block-secrets-in-commits still requires secret-scanning" in forced[1]
    assert ".claude/hooks/scan_staged.py" in files_under(project)
