"""Two components of one install that would write one path (a file, or an ``.mcp.json``
server) with different content: the set is refused whole, before anything is written,
naming both components and the path, with what to do; as a conflict is, but
``allow_conflicts`` does not lift it (both files cannot sit at one path). They may be
asked for, pulled in as a dependency, or members of a plugin asked for. Before, the first
was written and the second "kept": a project half-installed by a request known to fail.

Byte-identical copies (one agent re-hosted by two plugins, see `components.dedup`) are no
clash: the file is written once, by the first, and the other says whose copy it is.
Through Python, the CLI (text, ``--json``, ``--dry-run``) and the MCP tool.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import build_index, files_under

from skill_retriever.cli import main
from skill_retriever.components.install import (
    Clash,
    InstallError,
    apply_plan,
    install,
    plan_install,
    uninstall,
)
from skill_retriever.stores.index import Index

M = "market/plugins"
ALPHA_SETUP, BETA_SETUP = f"{M}/alpha/agents/setup.md", f"{M}/beta/agents/setup.md"
ALPHA_REVIEWER, BETA_REVIEWER = f"{M}/alpha/agents/reviewer.md", f"{M}/beta/agents/reviewer.md"
BETA_TOOL = f"{M}/beta/skills/beta-tool/SKILL.md"
SERVER_A, SERVER_B = "servers-a/.mcp.json#metrics", "servers-b/.mcp.json#metrics"
SETUP = ".claude/agents/setup.md"
REVIEWER = "---\nname: reviewer\ndescription: Reviews diffs.\n---\n\nReview the diff.\n"
ADVICE = "leave one of each pair out, or install them into separate targets"


def _server(port: str) -> str:
    return json.dumps({"mcpServers": {"metrics": {"command": "metrics-mcp", "args": ["--port", port]}}})


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    """Plugins alpha and beta (both ship an agents/setup.md, which installs at one path,
    and the same reviewer agent byte for byte; beta-tool requires beta's setup; a
    commands/setup.md of each would not clash: a plugin's commands go into a folder of its
    name, see test_install_command_folders), and three
    repositories with an MCP server ``metrics``: b configured differently, c as a."""
    src = tmp_path / "src"
    files = {
        f"{M}/alpha/agents/setup.md": "---\ndescription: Set up alpha.\n---\n\nSet up alpha.\n",
        f"{M}/alpha/agents/reviewer.md": REVIEWER,
        f"{M}/beta/agents/setup.md": "---\ndescription: Set up beta.\n---\n\nSet up beta.\n",
        f"{M}/beta/agents/reviewer.md": REVIEWER,
        BETA_TOOL: "---\nname: beta-tool\ndescription: Beta tooling.\nrequires: [setup]\n---\n\nUse beta.\n",
        "servers-a/.mcp.json": _server("0"),
        "servers-b/.mcp.json": _server("1"),
        "servers-c/.mcp.json": _server("0"),
    }
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    repos = ("market", "servers-a", "servers-b", "servers-c")
    built = build_index(tmp_path / "index", tuple(src / r for r in repos))
    yield built
    built.close()


def _refused(plan: object, first: str, second: str, path: str) -> None:
    from skill_retriever.components.install import InstallPlan

    assert isinstance(plan, InstallPlan)
    assert plan.clashes == (Clash(path, first, second),)
    assert not plan.ok and not plan.applied and plan.refused_whole and plan.written() == []
    text = "\n".join(plan.lines())
    assert "(refused: two components would write one path; nothing written)" in plan.lines()[0]
    assert f"({first}) and " in text and f"({second}) would both write {path}" in text
    assert "nothing written: 1 clash(es)" in text and ADVICE in text and "--force" not in text
    d = plan.to_dict()
    assert d["ok"] is False and d["applied"] is False and d["written"] == []
    assert [(c["path"], c["first"], c["second"]) for c in d["clashes"]] == [(path, first, second)]


@pytest.mark.parametrize(
    ("ids", "first", "second", "path"),
    [
        ([ALPHA_SETUP, BETA_SETUP], ALPHA_SETUP, BETA_SETUP, SETUP),  # both asked for
        ([ALPHA_SETUP, BETA_TOOL], ALPHA_SETUP, BETA_SETUP, SETUP),  # one a dependency
        ([f"{M}/alpha", f"{M}/beta"], ALPHA_SETUP, BETA_SETUP, SETUP),  # plugin members
        ([SERVER_A, SERVER_B], SERVER_A, SERVER_B, ".mcp.json#metrics"),  # two servers
    ],
)
def test_a_clash_refuses_the_set_whole_and_writes_nothing(
    index: Index, tmp_path: Path, ids: list[str], first: str, second: str, path: str
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("mine\n", encoding="utf-8")
    for dry_run in (True, False):
        for allow_conflicts in (False, True):  # a clash is no conflict to allow
            plan = install(index, ids, project, dry_run=dry_run, allow_conflicts=allow_conflicts)
            _refused(plan, first, second, path)
    assert files_under(project) == {"README.md": b"mine\n"}  # not even the .claude folder
    with pytest.raises(InstallError, match=rf"\({first}\) and .*{ADVICE}; nothing written"):
        apply_plan(plan_install(index, ids, project))
    assert files_under(project) == {"README.md": b"mine\n"}
    for one, where in ((first, "one"), (second, "two")):  # separate targets: each installs
        assert install(index, [one], tmp_path / where).ok


def test_two_plugins_sharing_a_byte_identical_agent_is_no_clash(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    plan = install(index, [ALPHA_REVIEWER, BETA_REVIEWER], project)
    assert plan.ok and plan.applied and plan.clashes == ()
    first, second = plan.components
    assert (first.status, first.files[0].action) == ("install", "create")
    assert (second.status, second.files[0].action) == ("unchanged", "unchanged")
    assert ALPHA_REVIEWER in second.files[0].reason and "written once" in second.files[0].reason
    assert plan.written() == [".claude/agents/reviewer.md"]
    assert plan.lines()[-1] == (
        f"  unchanged .claude/agents/reviewer.md: the same as the copy of {ALPHA_REVIEWER}, "
        "written once"
    )
    assert (project / ".claude/agents/reviewer.md").read_text(encoding="utf-8") == REVIEWER
    assert uninstall([ALPHA_REVIEWER, BETA_REVIEWER], project).ok
    assert files_under(project) == {}
    # the plugins clash on setup.md only, not on the reviewer they share
    (clash,) = plan_install(index, [f"{M}/alpha", f"{M}/beta"], project).clashes
    assert clash.path == SETUP


def test_an_identical_server_from_two_repositories_is_written_once(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    plan = install(index, ["servers-a/.mcp.json#metrics", "servers-c/.mcp.json#metrics"], project)
    assert plan.ok and plan.written() == [".mcp.json#metrics"]
    servers = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert servers == {"metrics": {"command": "metrics-mcp", "args": ["--port", "0"]}}


def test_a_file_of_yours_that_differs_is_still_kept_not_a_clash(
    index: Index, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    (project / SETUP).parent.mkdir(parents=True)
    (project / SETUP).write_text("my own setup\n", encoding="utf-8")
    plan = install(index, [ALPHA_SETUP, ALPHA_REVIEWER], project)
    assert plan.clashes == () and not plan.ok and plan.applied  # the reviewer is written
    assert f"  kept {SETUP}: exists and differs; force overwrites it" in plan.lines()
    assert (project / SETUP).read_text(encoding="utf-8") == "my own setup\n"


def test_the_cli_refuses_a_clash_with_exit_1_in_text_json_and_dry_run(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(index.path)
    index.close()  # the command opens it itself
    project = tmp_path / "proj"
    argv = ["install", ALPHA_SETUP, BETA_SETUP, "--target", str(project), "--index-dir", index_dir]
    for extra in ([], ["--dry-run"], ["--allow-conflicts"]):
        assert main([*argv, *extra]) == 1
        out = capsys.readouterr().out.splitlines()
        assert out[0].endswith("(refused: two components would write one path; nothing written)")
        assert f"  clash {SETUP}: {ALPHA_SETUP} installs the same path, with different content" in out
        assert out[-2] == (
            f"clash: setup ({ALPHA_SETUP}) and setup ({BETA_SETUP}) would both write {SETUP}, "
            "with different content"
        )
        assert out[-1] == (
            "nothing written: 1 clash(es), two components writing one path with different "
            f"content; {ADVICE}"
        )
    for extra in ([], ["--dry-run"]):
        assert main([*argv, "--json", *extra]) == 1
        data = json.loads(capsys.readouterr().out)
        assert data["ok"] is False and data["applied"] is False and data["written"] == []
        assert data["clashes"] == [{
            "path": SETUP, "first": ALPHA_SETUP, "first_name": "setup",
            "second": BETA_SETUP, "second_name": "setup",
        }]  # fmt: skip
        assert data["components"][1]["files"][0]["action"] == "blocked"
        assert data["refused"] == f"1 clash(es), two components writing one path with different content; {ADVICE}"
    assert not project.exists()


def test_the_mcp_tool_returns_a_clash_as_it_returns_a_conflict(
    index: Index, tmp_path: Path
) -> None:
    from skill_retriever.adapters.mcp_server import build_server
    from skill_retriever.retriever import Retriever

    server = build_server(index, retriever=Retriever(index, reranker=None))
    project = tmp_path / "proj"
    args = {"ids": [ALPHA_SETUP, BETA_SETUP], "target": str(project)}
    for dry_run in (True, False):
        call = server.call_tool("install_components", {**args, "dry_run": dry_run})
        got = asyncio.run(call).structured_content
        assert got["ok"] is False and got["applied"] is False and "next" not in got
        assert [(c["path"], c["first"], c["second"]) for c in got["clashes"]] == [
            (SETUP, ALPHA_SETUP, BETA_SETUP)
        ]
        assert not any(line.startswith("clash: ") for line in got["summary"])  # said once
        assert ADVICE in got["summary"][-1]
    full = asyncio.run(server.call_tool("install_components", {**args, "detail": "full"}))
    assert full.structured_content["clashes"][0]["path"] == SETUP
    assert not project.exists()
