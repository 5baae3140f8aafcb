"""The MCP tool ``uninstall_components``, driven through the official SDK's stdio client
against ``skill-retriever mcp`` on a real index (the hashing embedder) and real installs
into ``tmp_path``: a dry run by default, the files, the ``settings.json`` hook and the
``.mcp.json`` server taken back, a file the user changed kept unless ``force``, and a
component the caller may not see never removed nor named."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from files import write_skill
from mcp import ClientSession, StdioServerParameters, stdio_client

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}
SECRET = "WOMBAT-VAULT-MARKER"
SKILL = "acme/skills/lint-rules/SKILL.md"
HOOK = "acme/hooks/format-on-save.json"
PRIVATE = "acme/skills/vault-admin/SKILL.md"
ROTATE = "acme/skills/rotate-keys/SKILL.md"
SKILL_FILE = ".claude/skills/lint-rules/SKILL.md"
#: The user's own settings, beside which the hook is merged.
USER_SETTINGS = {"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]}}


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("mcp-uninstall")
    acme = root / "acme"
    write_skill(acme, "lint-rules", "Lint Python with the house rules.")
    write_skill(acme, "vault-admin", f"{SECRET} unseal the vault.", access=["secops"])
    write_skill(acme, "rotate-keys", "Rotate the service keys.", requires=["vault-admin"])
    (acme / "hooks").mkdir()
    (acme / "hooks/format-on-save.json").write_text(json.dumps({
        "name": "format-on-save", "description": "Format Python files after every edit.",
        "event": "PostToolUse", "matcher": "Edit|Write", "command": "ruff format $CLAUDE_FILE_PATHS",
    }), encoding="utf-8")  # fmt: skip
    index = Index.open(root / "index", embedder=HashingEmbedder(64), create=True)
    try:
        run = index_sources(index, [acme], "skills", calibrate=False)
        assert not [p for s in run.sources for p in s.problems]
        assert {SKILL, HOOK, PRIVATE, ROTATE} <= set(index.snapshot().nodes)
    finally:
        index.close()
    yield root / "index"


def serve(index_dir: Path, script: Callable[[ClientSession], Awaitable[None]], principals: str = "*") -> str:
    """Start ``skill-retriever mcp --principals <principals>`` and run ``script`` as its
    client; returns the server's instructions."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(index_dir), "--principals", principals],
        env=ENV,
    )

    said: list[str] = []

    async def run() -> None:
        with anyio.fail_after(240):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                said.append((await session.initialize()).instructions or "")
                await script(session)

    anyio.run(run)
    return said[0]


async def call(session: ClientSession, tool: str, args: dict[str, Any]) -> dict[str, Any] | str:
    """A tool's answer: its JSON, or its error's text."""
    result = await session.call_tool(tool, args)
    if result.is_error:
        return str(result.content[0].text)
    data = result.structured_content
    assert isinstance(data, dict) and json.loads(result.content[0].text) == data
    return data


def files_under(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_tool_is_listed_with_install_components_conventions(index_dir: Path) -> None:
    async def script(session: ClientSession) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        tool = tools["uninstall_components"]
        schema = tool.input_schema
        assert set(schema["properties"]) == {"ids", "target", "dry_run", "force", "detail"}
        assert set(schema["required"]) == {"ids", "target"}
        assert schema["properties"]["dry_run"]["default"] is True
        assert schema["properties"]["force"]["default"] is False
        assert schema["additionalProperties"] is False
        # (each tool's own help for it aside: uninstall's ids are those installed)
        installs = tools["install_components"].input_schema["properties"]["ids"]
        assert {**schema["properties"]["ids"], "description": ""} == {**installs, "description": ""}
        text = tool.description or ""
        assert text.startswith("Take back what install_components wrote")
        assert "\n        " not in text and "\n    ids: " in text  # dedented, Args indented once
        refused = await call(session, "uninstall_components", {"ids": [SKILL], "target": "/tmp", "dry_run": "false"})
        assert isinstance(refused, str) and "dry_run" in refused

    instructions = serve(index_dir, script)
    assert "uninstall_components takes back what it wrote" in instructions


def test_dry_run_then_uninstall_takes_back_files_and_the_hook(index_dir: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude/settings.json").write_text(json.dumps(USER_SETTINGS), encoding="utf-8")

    async def script(session: ClientSession) -> None:
        done = await call(session, "install_components", {"ids": [SKILL, HOOK], "target": str(project), "dry_run": False})
        assert isinstance(done, dict) and done["applied"] is True, done
        settings = json.loads((project / ".claude/settings.json").read_text(encoding="utf-8"))
        assert settings["hooks"]["PostToolUse"] and settings["model"] == "opus"
        installed = files_under(project)
        assert SKILL_FILE in installed

        plan = await call(session, "uninstall_components", {"ids": [SKILL, "format-on-save"], "target": str(project)})
        assert isinstance(plan, dict), plan
        assert plan["applied"] is False and plan["ok"] is True and plan["target"] == str(project)
        assert f"would remove {SKILL_FILE}" in plan["summary"]
        assert any(line.startswith("would remove hook PostToolUse") for line in plan["summary"])
        assert plan["summary"][-1].startswith("dry run, nothing changed; would be 2 removed")
        assert "dry_run false" in plan["next"]
        assert files_under(project) == installed  # nothing changed, nothing left behind

        full = await call(session, "uninstall_components",
                          {"ids": [SKILL, HOOK], "target": str(project), "detail": "full"})  # fmt: skip
        assert isinstance(full, dict) and full["applied"] is False and full["target"] == str(project)
        assert SKILL_FILE in full["removed"] and full["kept"] == {} and full["ids"] == [SKILL, HOOK]

        real = await call(session, "uninstall_components", {"ids": [SKILL, HOOK], "target": str(project), "dry_run": False})
        assert isinstance(real, dict) and real["applied"] is True and real["ok"] is True, real
        assert real["summary"] == [line.replace("would remove", "removed") for line in plan["summary"][:-1]] + [
            "2 removed, 0 restored, 0 kept"
        ]
        assert f"removed {SKILL_FILE}" in real["summary"]
        assert "next" not in real

    serve(index_dir, script)
    assert not (project / ".claude/skills").exists()
    assert not (project / ".claude/.skill-retriever/installed.json").exists()
    assert json.loads((project / ".claude/settings.json").read_text(encoding="utf-8")) == USER_SETTINGS


def test_a_file_the_user_changed_is_kept_unless_force(index_dir: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    target = str(project)

    async def script(session: ClientSession) -> None:
        done = await call(session, "install_components", {"ids": [SKILL], "target": target, "dry_run": False})
        assert isinstance(done, dict) and done["applied"] is True
        (project / SKILL_FILE).write_text("my own notes\n", encoding="utf-8")

        kept = await call(session, "uninstall_components", {"ids": [SKILL], "target": target, "dry_run": False})
        assert isinstance(kept, dict) and kept["applied"] is True and kept["ok"] is False, kept
        assert f"kept {SKILL_FILE}: changed since it was installed" in kept["summary"]
        assert "pass force true" in kept["next"]
        assert (project / SKILL_FILE).read_text(encoding="utf-8") == "my own notes\n"

        plan = await call(session, "uninstall_components", {"ids": [SKILL], "target": target, "force": True})
        assert isinstance(plan, dict) and plan["applied"] is False
        assert f"would remove {SKILL_FILE}: changed since it was installed, removed as it is (force)" in plan["summary"]
        assert (project / SKILL_FILE).is_file()

        forced = await call(session, "uninstall_components",
                            {"ids": [SKILL], "target": target, "dry_run": False, "force": True})  # fmt: skip
        assert isinstance(forced, dict) and forced["ok"] is True, forced

    serve(index_dir, script)
    assert not (project / SKILL_FILE).exists()
    assert not (project / ".claude/.skill-retriever/installed.json").exists()


def test_a_private_id_is_no_component_and_nothing_is_removed(index_dir: Path, tmp_path: Path) -> None:
    """A record made by an install as ``*`` holds a private component; a caller without
    ``secops`` gets, for it, the answer an unknown id gets, and for a public component
    whose install brought it, a refusal that names it not; nothing is removed."""
    project = tmp_path / "proj"
    project.mkdir()
    with Index.open(index_dir, embedder=HashingEmbedder(64), create=False) as index:
        assert install(index, [ROTATE, SKILL], project, principals=["*"]).applied  # brings vault-admin
    before = files_under(project)
    assert ".claude/skills/vault-admin/SKILL.md" in before
    assert PRIVATE in json.loads(before[".claude/.skill-retriever/installed.json"])["components"]
    answers: dict[str, dict[str, Any] | str] = {}

    async def script(session: ClientSession) -> None:
        for name, ref in {"unknown": "acme/skills/no-such/SKILL.md", "private": PRIVATE,
                          "unknown_name": "no-such", "private_name": "vault-admin"}.items():  # fmt: skip
            for dry_run in (True, False):
                args = {"ids": [ref], "target": str(project), "dry_run": dry_run, "force": True}
                answers[f"{name}/{dry_run}"] = await call(session, "uninstall_components", args)
        answers["brought"] = await call(
            session, "uninstall_components", {"ids": [ROTATE], "target": str(project), "dry_run": False}
        )
        answers["not_installed"] = await call(session, "uninstall_components", {"ids": [HOOK], "target": str(project)})

    serve(index_dir, script, principals="team-a")
    assert files_under(project) == before  # the record too
    for dry_run in (True, False):
        unknown, private = answers[f"unknown/{dry_run}"], answers[f"private/{dry_run}"]
        assert isinstance(unknown, str) and isinstance(private, str)
        assert private.replace(PRIVATE, "X") == unknown.replace("acme/skills/no-such/SKILL.md", "X")
        assert "no component" in private
        named_unknown, named_private = answers[f"unknown_name/{dry_run}"], answers[f"private_name/{dry_run}"]
        assert isinstance(named_private, str) and isinstance(named_unknown, str)
        assert named_private.replace("vault-admin", "X") == named_unknown.replace("no-such", "X")
    brought = answers["brought"]
    assert isinstance(brought, str) and "nothing removed" in brought
    not_installed = answers["not_installed"]
    assert isinstance(not_installed, str) and "'format-on-save' not installed in" in not_installed
    assert ROTATE in not_installed and SKILL in not_installed
    for answer in (brought, not_installed):
        assert "vault-admin" not in answer and SECRET not in answer

    async def secops(session: ClientSession) -> None:  # one who may see it takes it back along
        answers["secops"] = await call(
            session, "uninstall_components", {"ids": [ROTATE], "target": str(project), "dry_run": False}
        )

    serve(index_dir, secops, principals="secops")
    done = answers["secops"]
    assert isinstance(done, dict) and done["ok"] is True, done
    assert "taken back too, as the install brought them: vault-admin" in done["summary"]
    assert set(files_under(project)) == {".claude/.skill-retriever/installed.json", SKILL_FILE,
                                         ".claude/.skill-retriever/.gitignore"}  # fmt: skip


def test_a_target_that_is_not_there_or_relative_is_refused(index_dir: Path, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-project"
    answers: dict[str, dict[str, Any] | str] = {}

    async def script(session: ClientSession) -> None:
        for target in (str(missing), "proj", ""):
            answers[target] = await call(
                session, "uninstall_components", {"ids": [SKILL], "target": target, "dry_run": False}
            )

    serve(index_dir, script)
    assert isinstance(answers[str(missing)], str) and "is not an existing folder" in answers[str(missing)]
    assert isinstance(answers["proj"], str) and "is a relative path" in answers["proj"]
    assert isinstance(answers[""], str) and "target folder is empty" in answers[""]
    assert not missing.exists()
