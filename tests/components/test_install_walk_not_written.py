"""What a refused component's files say as data, and the 'hooks' key that holds a list.

- A hook refused because ``.claude/settings.json`` cannot be merged into listed its script
  with ``"action": "create"`` in ``--json`` and the MCP tool's "full" plan, though nothing
  was written (the text said "not written ... (refused)"). The data now says "not written"
  too, and ``nothing_written`` says that the applied install wrote nothing at all
  (``applied`` still means: not a dry run, not refused whole).
- ``{"hooks": []}`` was refused with "has no 'hooks' object": now it says the key holds a
  list, not an object, and how to fix it; following that advice installs the hook.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import files_under

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.cli import main
from skill_retriever.components.install import InstallPlan, install
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HOOK = "acme/hooks/lint-on-save.json"
SCRIPT = ".claude/hooks/lint_hook.py"
ENTRY = ".claude/settings.json#hooks.PostToolUse[Edit|Write]"
BROKEN = b'{"a": 1,,}'


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    """A hook that runs a script of its source (the script is installed with it), and a skill."""
    acme = tmp_path / "acme"
    (acme / "hooks").mkdir(parents=True)
    (acme / "hooks/lint-on-save.json").write_text(json.dumps({
        "name": "lint-on-save", "description": "Lint each edited file.",
        "event": "PostToolUse", "matcher": "Edit|Write", "command": "python3 lint_hook.py",
    }))  # fmt: skip
    (acme / "hooks/lint_hook.py").write_text("print('lint')\n")
    (acme / "skills/notes").mkdir(parents=True)
    (acme / "skills/notes/SKILL.md").write_text("---\nname: notes\ndescription: Take notes.\n---\n\nNotes.\n")
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(idx, [acme], "skills", calibrate=False)
    yield idx
    idx.close()


def _project(tmp_path: Path, settings: bytes) -> Path:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude/settings.json").write_bytes(settings)
    return project


def _files(plan: dict[str, Any], name: str) -> dict[str, dict[str, str]]:
    (c,) = (c for c in plan["components"] if c["name"] == name)
    return {f["path"]: f for f in c["files"]}


def _agrees_with_the_text(plan: InstallPlan) -> None:
    """Each file the text calls "not written" is "not written" in the data, and back."""
    lines = plan.lines()
    for c in plan.to_dict()["components"]:
        for f in c["files"]:
            said = f"  not written {f['path']} ({c['status']})" in lines
            assert said == (f["action"] == "not written"), (f, lines)


def test_a_refused_hook_says_its_script_was_not_written(index: Index, tmp_path: Path) -> None:
    project = _project(tmp_path, BROKEN)
    plan = install(index, [HOOK], project)
    assert plan.applied and not plan.ok
    data = plan.to_dict()
    assert data["nothing_written"] is True and data["written"] == []
    files = _files(data, "lint-on-save")
    assert files[SCRIPT] == {"path": SCRIPT, "action": "not written", "reason": "its component is refused"}
    assert files[ENTRY]["action"] == "refused" and "is not valid JSON" in files[ENTRY]["reason"]
    assert plan.lines()[0] == f"target: {project}  (nothing written)"
    _agrees_with_the_text(plan)
    assert files_under(project) == {".claude/settings.json": BROKEN}  # truly nothing written


def test_a_partly_written_install_is_not_nothing_written(index: Index, tmp_path: Path) -> None:
    """The skill is written, the hook refused: each says what happened to it."""
    project = _project(tmp_path, BROKEN)
    plan = install(index, [HOOK, "notes"], project)
    data = plan.to_dict()
    assert not plan.ok and data["applied"] is True and data["nothing_written"] is False
    assert _files(data, "notes")[".claude/skills/notes/SKILL.md"]["action"] == "create"
    assert _files(data, "lint-on-save")[SCRIPT]["action"] == "not written"
    assert plan.lines()[0] == f"target: {project}"
    _agrees_with_the_text(plan)
    # installed again, unchanged: nothing written, and that is fine (no "(nothing written)" alarm)
    (project / ".claude/settings.json").write_text("{}")
    assert install(index, [HOOK, "notes"], project).ok
    again = install(index, [HOOK, "notes"], project)
    assert again.ok and again.to_dict()["nothing_written"] is True
    assert again.lines()[0] == f"target: {project}"


def test_the_cli_json_and_the_mcp_full_plan_say_not_written(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, BROKEN)
    server = build_server(index, retriever=Retriever(index, reranker=None))
    args = {"ids": [HOOK], "target": str(project), "dry_run": False}
    full = asyncio.run(server.call_tool("install_components", {**args, "detail": "full"})).structured_content
    assert full["applied"] is True and full["ok"] is False and full["nothing_written"] is True
    assert _files(full, "lint-on-save")[SCRIPT]["action"] == "not written"
    brief = asyncio.run(server.call_tool("install_components", args)).structured_content
    assert brief["nothing_written"] is True and f"  not written {SCRIPT} (refused)" in brief["summary"]
    index_dir = str(index.path)
    index.close()  # the command opens it itself
    code = main(["install", HOOK, "--target", str(project), "--index-dir", index_dir, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1  # as before: something asked for was not written
    assert out["nothing_written"] is True and _files(out, "lint-on-save")[SCRIPT]["action"] == "not written"
    assert files_under(project) == {".claude/settings.json": BROKEN}


A_LIST = "'hooks' in the existing .claude/settings.json holds a list, not an object; "


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        (b'{"hooks": []}', A_LIST + "replace the empty list with {}, or move the file first"),
        (
            b'{"hooks": ["PostToolUse"]}',
            A_LIST + 'rewrite it as an object such as {"PostToolUse": [...]}, or move the file first',
        ),
    ],
)
def test_hooks_holding_a_list_says_so_and_how_to_fix_it(
    index: Index, tmp_path: Path, settings: bytes, said: str
) -> None:
    project = _project(tmp_path, settings)
    plan = install(index, [HOOK], project)
    files = _files(plan.to_dict(), "lint-on-save")
    assert files[ENTRY] == {"path": ENTRY, "action": "refused", "reason": said}
    assert f"  refused hook PostToolUse (tools matching Edit|Write) in .claude/settings.json: {said}" in plan.lines()
    assert files_under(project) == {".claude/settings.json": settings}
    # the advice works: an object there, and the hook goes in
    (project / ".claude/settings.json").write_text('{"hooks": {}}')
    assert install(index, [HOOK], project).ok
    hooks = json.loads((project / ".claude/settings.json").read_text())["hooks"]
    assert list(hooks) == ["PostToolUse"] and (project / SCRIPT).is_file()


def test_mcp_servers_holding_a_list_is_said_the_same_way(tmp_path: Path) -> None:
    acme = tmp_path / "acme"
    acme.mkdir()
    (acme / ".mcp.json").write_text(json.dumps({"mcpServers": {"db": {"command": "db-mcp"}}}))
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(index, [acme], "skills", calibrate=False)
        project = tmp_path / "proj"
        project.mkdir()
        (project / ".mcp.json").write_text('{"mcpServers": "db"}')
        plan = install(index, ["db"], project)
    finally:
        index.close()
    (c,) = plan.components
    assert c.status == "refused" and c.files[0].reason == (
        "'mcpServers' in the existing .mcp.json holds a string, not an object; rewrite it as "
        'an object such as {"<server>": {...}}, or move the file first'
    )
