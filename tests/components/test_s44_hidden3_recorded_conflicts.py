"""A hidden hook or MCP server that declares ``conflicts``, installed into a project by
``secops``: its entry in ``settings.json`` or ``.mcp.json`` keeps no ``conflicts``, so
``alice``, who may not see it, installed a public component it conflicts with unwarned.
The install record now keeps, per component, the names it declares in its own
``conflicts`` (`declared_conflicts`), and `unseen_conflicts` reads them for the record's
components she cannot see: the install is refused, the other side named only as
`UNSEEN_NAME`; a search and ``check_dependencies`` with that target say the same."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from files import write_file, write_skill
from mcp import ClientSession, StdioServerParameters, stdio_client

from skill_retriever.components import ComponentService
from skill_retriever.components.install import install, plan_install, uninstall
from skill_retriever.components.install.errors import InstallError
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.layout import RECORD_FILE
from skill_retriever.components.install.plan import InstallPlan
from skill_retriever.components.install.unseen import UNSEEN, UNSEEN_NAME
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SECRET = "OTTER-MARKER"
HOOK, SERVER = "secops-guard", "secops-vault"
HOOK_ID, SERVER_ID = "src/hooks/secops-guard.json", "src/mcps/servers.json#secops-vault"
LINTER = "src/skills/public-linter/SKILL.md"
HIDDEN = (HOOK, SERVER, HOOK_ID, SERVER_ID, "nowhere-tool", SECRET)
LINT = "lint python code with semgrep rules"
ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}


def _write_sources(src: Path) -> None:
    write_skill(src, "public-linter", "Lint python code with semgrep rules.")
    write_skill(src, "other-linter", "Lint python code with pylint.")
    # the public side declares it (its own file names the hidden hook)
    write_skill(src, "spell-check", "Spell check markdown prose.", conflicts=[HOOK])
    write_file(src, "hooks/secops-guard.json", json.dumps({
        "name": HOOK, "description": f"{SECRET} guard.", "access": ["secops"],
        "conflicts": ["public-linter"], "event": "PreToolUse", "matcher": "Edit", "command": "guard-check",
    }))  # fmt: skip
    write_file(src, "hooks/fmt-on-save.json", json.dumps({
        "name": "fmt-on-save", "description": "Format after edits.",
        "event": "PostToolUse", "matcher": "Edit", "command": "ruff format .",
    }))  # fmt: skip
    write_file(src, "mcps/servers.json", json.dumps({"mcpServers": {SERVER: {
        "command": "vault-mcp", "description": f"{SECRET} vault.", "access": ["secops"],
        "conflicts": ["public-linter", "nowhere-tool"],
    }}}))  # fmt: skip


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("s44-hidden3")
    _write_sources(root / "src")
    index = Index.open(root / "index", embedder=HashingEmbedder(64), create=True)
    try:
        run = index_sources(index, [root / "src"], "skills", calibrate=False)
        assert not [p for s in run.sources for p in s.problems]
    finally:
        index.close()
    yield root


@pytest.fixture
def index(built: Path) -> Iterator[Index]:
    idx = Index.open(built / "index", embedder=HashingEmbedder(64))
    yield idx
    idx.close()


def _project(index: Index, tmp_path: Path, hidden: str) -> Path:
    """A project where secops installed ``hidden`` (a hook or an MCP server)."""
    root = tmp_path / f"proj-{'hook' if hidden == HOOK else 'server'}"  # the path is in answers
    root.mkdir()
    done = install(index, [hidden], root, principals=["secops"])
    assert done.ok and done.applied
    return root


def _said(plan: InstallPlan) -> str:
    return "\n".join(plan.lines()) + json.dumps(plan.to_dict()) + json.dumps(plan.brief()) + repr(plan)


def _hides_everything(text: str) -> None:
    for word in HIDDEN:
        assert word not in text


def test_the_record_keeps_what_each_component_itself_declares(index: Index, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert install(index, [HOOK, SERVER], root, principals=["secops"]).applied
    data = json.loads((root / RECORD_FILE).read_text(encoding="utf-8"))["components"]
    assert data[HOOK_ID]["conflicts"] == ["public-linter"]  # resolved: its own edge
    assert data[SERVER_ID]["conflicts"] == ["public-linter", "nowhere-tool"]  # resolves nowhere
    # never what another item declares against it: public-linter declares nothing itself
    plan = plan_install(index, ["public-linter"], root, principals=["secops"], allow_conflicts=True)
    assert plan.declares == {LINTER: ()}
    assert {c.sides for c in plan.conflicts} == {(HOOK_ID, LINTER), (SERVER_ID, LINTER)}  # named for secops
    install(index, ["public-linter"], root, principals=["secops"], allow_conflicts=True)
    data = json.loads((root / RECORD_FILE).read_text(encoding="utf-8"))["components"]
    assert "conflicts" not in data[LINTER]  # written only when there are some
    assert InstallRecord.load(root).components[SERVER_ID].conflicts == ["public-linter", "nowhere-tool"]


def test_an_older_record_without_conflicts_loads_and_a_bad_one_is_named(tmp_path: Path) -> None:
    root = tmp_path / "old"
    entry = {"kind": "hook", "name": "x", "files": {}, "hooks": [], "mcp_servers": {}}
    write_file(root, RECORD_FILE, json.dumps({"format": 1, "components": {"a": entry}}))
    assert InstallRecord.load(root).components["a"].conflicts == []
    write_file(root, RECORD_FILE, json.dumps({"format": 1, "components": {"a": {**entry, "conflicts": "y"}}}))
    with pytest.raises(InstallError, match=r"'conflicts' must be a list of names\); fix or move it first"):
        InstallRecord.load(root)


@pytest.mark.parametrize("hidden", [HOOK, SERVER])
def test_alice_is_refused_with_the_other_side_unnamed(index: Index, tmp_path: Path, hidden: str) -> None:
    project = _project(index, tmp_path, hidden)
    plan = install(index, ["public-linter"], project, principals=["alice"])
    assert not plan.ok and not plan.applied and plan.refused_for_conflicts
    (c,) = plan.conflicts
    assert (c.source, c.target, c.installed) == (UNSEEN, LINTER, None)
    assert c.reason.startswith("the installed one names public-linter in its own conflicts (the install record keeps them);")
    assert plan.names[UNSEEN] == UNSEEN_NAME
    assert not (project / ".claude/skills/public-linter").exists()
    _hides_everything(_said(plan))
    allowed = install(index, ["public-linter"], project, principals=["alice"], allow_conflicts=True)
    assert allowed.ok and allowed.applied and [x.sides for x in allowed.conflicts] == [(UNSEEN, LINTER)]
    assert (project / ".claude/skills/public-linter/SKILL.md").is_file()
    _hides_everything(_said(allowed))
    # other components are not touched by it
    assert not plan_install(index, ["other-linter"], project, principals=["alice"]).conflicts


def test_a_visible_hook_installed_beside_it_does_not_hide_it(index: Index, tmp_path: Path) -> None:
    """Every hook without scripts is recorded at one path, ``settings.json``: alice's own
    hook there must not pass for the hidden one."""
    project = _project(index, tmp_path, HOOK)
    assert install(index, ["fmt-on-save"], project, principals=["alice"]).applied
    (c,) = plan_install(index, ["public-linter"], project, principals=["alice"]).conflicts
    assert c.sides == (UNSEEN, LINTER)
    # nor for a conflict her component declares against it (judged from the record's name)
    (c,) = plan_install(index, ["spell-check"], project, principals=["alice"]).conflicts
    assert c.sides == ("src/skills/spell-check/SKILL.md", UNSEEN)


def test_once_uninstalled_nothing_is_left_to_refuse(index: Index, tmp_path: Path) -> None:
    project = _project(index, tmp_path, SERVER)
    uninstall([SERVER_ID], project)
    assert plan_install(index, ["public-linter"], project, principals=["alice"]).ok


@pytest.mark.parametrize("hidden", [HOOK, SERVER])
def test_search_and_check_dependencies_carry_it(index: Index, tmp_path: Path, hidden: str) -> None:
    project = _project(index, tmp_path, hidden)
    service = ComponentService(index, principals=["alice"])
    resp = service.search(LINT, k=2, target=project)
    assert resp.results[0].name == "public-linter"
    (c,) = resp.conflicts
    assert c.sides == (UNSEEN, LINTER) and resp.results[0].conflicts == (c,)
    assert not resp.results[1].conflicts  # other-linter
    report = service.check_dependencies([LINTER], target=project)
    (checked,) = report["conflicts"]
    assert (checked["source"], checked["not_shown"]) == (UNSEEN, UNSEEN_NAME)
    assert checked["reason"] == c.reason
    dropped = service.search(LINT, k=1, target=project, drop_conflicts=True)
    assert [r.name for r in dropped.results] == ["other-linter"]
    _hides_everything(json.dumps(resp.to_dict()) + json.dumps(report) + json.dumps(dropped.to_dict()))


def test_over_mcp_alice_is_told_of_it_and_nothing_more(built: Path, tmp_path: Path) -> None:
    index = Index.open(built / "index", embedder=HashingEmbedder(64))
    try:
        project = _project(index, tmp_path, SERVER)
    finally:
        index.close()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(built / "index"), "--principals", "alice"],
        env=ENV,
    )
    calls = {
        "search": ("search_components", {"query": LINT, "k": 1, "target": str(project)}),
        "check": ("check_dependencies", {"ids": [LINTER], "target": str(project)}),
    }
    out: dict[str, Any] = {}

    async def run() -> None:
        with anyio.fail_after(240):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                for name, (tool, args) in calls.items():
                    result = await session.call_tool(tool, args)
                    assert not result.is_error, result.content
                    out[name] = result.structured_content

    anyio.run(run)
    (top,) = out["search"]["results"]
    assert top["name"] == "public-linter" and top["conflicts_with"] == [UNSEEN_NAME]
    (checked,) = out["check"]["conflicts"]
    assert (checked["source"], checked["target"], checked["not_shown"]) == (UNSEEN, LINTER, UNSEEN_NAME)
    _hides_everything(json.dumps(out))
