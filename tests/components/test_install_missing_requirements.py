"""A component written while something it requires (directly or transitively) will not be
in the target says so on its own entry: in the text plan, in ``--json`` and in the MCP
tool's brief answer. A requirement kept as the user's own file (blocked) is there: no
note. Statuses and what is written do not change."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

REFUSED_WHY = "outside its source root"


@pytest.fixture
def graph(tmp_path: Path) -> Path:
    """report -> helper -> thief (its source outside the root: refused); report -> kept;
    tool -> srv (an MCP server: skipped with --user)."""
    key = tmp_path / "elsewhere" / "id_fake"
    key.parent.mkdir()
    key.write_text("not a component\n")
    root = tmp_path / "graph"
    for rel, text in {
        "skills/report/SKILL.md": "---\nname: report\ndescription: reports\n---\nreport\n",
        "skills/tool/SKILL.md": "---\nname: tool\ndescription: tools\n---\ntool\n",
        "agents/helper.md": "---\nname: helper\n---\nthe helper\n",
        "agents/kept.md": "---\nname: kept\n---\nthe kept agent\n",
        "mcp/srv.json": "{}\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)

    def node(i: str, kind: str, source: Path, **attrs: Any) -> dict[str, Any]:
        return {
            "id": f"g/{i}",
            "kind": kind,
            "name": i,
            "text": f"a {kind}",
            "source": str(source),
            "attrs": attrs,
        }

    def dep(a: str, b: str) -> dict[str, str]:
        return {"source": f"g/{a}", "target": f"g/{b}", "kind": "DEPENDS_ON"}

    nodes = [
        node("report", "skill", root / "skills/report/SKILL.md"),
        node("tool", "skill", root / "skills/tool/SKILL.md"),
        node("helper", "agent", root / "agents/helper.md"),
        node("kept", "agent", root / "agents/kept.md"),
        node("thief", "agent", key),
        node("srv", "mcp_server", root / "mcp/srv.json", command="srv-mcp"),
    ]
    edges = [
        dep("report", "helper"),
        dep("helper", "thief"),
        dep("report", "kept"),
        dep("tool", "srv"),
    ]
    (root / "components.json").write_text(json.dumps({"nodes": nodes, "edges": edges}))
    return root / "components.json"


@pytest.fixture
def index(tmp_path: Path, graph: Path) -> Iterator[Index]:
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(idx, [graph], "json", calibrate=False)
    assert not [p for s in run.sources for p in s.problems]
    yield idx
    idx.close()


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_a_refused_requirement_is_noted_on_who_requires_it(index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    target.mkdir()
    (target / ".claude/agents").mkdir(parents=True)
    (target / ".claude/agents/kept.md").write_text("---\nname: kept\n---\nmy own kept agent\n")
    plan = install(index, ["g/report"], target)
    by = {c.id: c for c in plan.components}
    # statuses as before: the refused agent does not stop the others
    assert {i: c.status for i, c in by.items()} == {
        "g/report": "install",
        "g/helper": "install",
        "g/kept": "blocked",
        "g/thief": "refused",
    }
    assert files_under(target) == {
        ".claude/skills/report/SKILL.md",
        ".claude/agents/helper.md",
        ".claude/agents/kept.md",
        ".claude/.skill-retriever/installed.json",
        ".claude/.skill-retriever/.gitignore",
    }
    assert "my own" in (target / ".claude/agents/kept.md").read_text()
    # helper requires thief directly, report through helper; kept (blocked: there) is no note
    (direct,) = by["g/helper"].missing
    (through,) = by["g/report"].missing
    assert (direct.id, direct.status, direct.via) == ("g/thief", "refused", ())
    assert (through.id, through.status, through.via) == ("g/thief", "refused", ("g/helper",))
    assert REFUSED_WHY in direct.reason and direct.reason == by["g/thief"].reason
    assert not by["g/thief"].missing and not by["g/kept"].missing
    # the text plan: a note line right under each component's own line
    lines = plan.lines()
    at = lines.index(next(line for line in lines if line.startswith("[skill] report")))
    note = lines[at + 1]
    assert note.startswith(
        "  note: requires thief (g/thief, via helper), which is not being installed (refused: "
    )
    assert REFUSED_WHY in note and note.endswith("it may not work until thief is there")
    at = lines.index(next(line for line in lines if line.startswith("[agent] helper")))
    assert lines[at + 1].startswith(
        "  note: requires thief (g/thief), which is not being installed (refused: "
    )
    assert not any("kept" in line for line in lines if "note:" in line)
    # --json
    comps = {c["id"]: c for c in plan.to_dict()["components"]}
    (missing,) = comps["g/report"]["missing_requirements"]
    assert (
        missing["id"] == "g/thief"
        and missing["status"] == "refused"
        and missing["via"] == ["g/helper"]
    )
    assert REFUSED_WHY in missing["reason"] and missing["note"] == through.note
    assert (
        "missing_requirements" not in comps["g/kept"]
        and "missing_requirements" not in comps["g/thief"]
    )


def test_the_mcp_tool_brief_answer_carries_the_note(index: Index, tmp_path: Path) -> None:
    server = build_server(index, retriever=Retriever(index, reranker=None))
    target = tmp_path / "project"
    target.mkdir()
    args = {"ids": ["g/helper"], "target": str(target)}
    answer = asyncio.run(server.call_tool("install_components", args)).structured_content
    notes = [line for line in answer["summary"] if "note:" in line]
    assert (
        len(notes) == 1
        and "requires thief (g/thief), which is not being installed (refused: " in notes[0]
    )
    assert files_under(target) == set()  # a dry run


def test_a_skipped_requirement_is_noted_and_the_component_still_installs(
    index: Index, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    plan = install(index, ["g/tool"], user=True, home=home)
    by = {c.id: c for c in plan.components}
    assert by["g/tool"].status == "install" and by["g/srv"].status == "skipped"
    (missing,) = by["g/tool"].missing
    assert missing.status == "skipped" and missing.reason == by["g/srv"].reason
    assert missing.note.startswith(
        f"requires srv (g/srv), which is not being installed (skipped: {missing.reason})"
    )
    assert (home / ".claude/skills/tool/SKILL.md").is_file()


def test_no_deps_notes_a_requirement_the_target_does_not_have(index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    target.mkdir()
    plan = install(index, ["g/report"], target, dry_run=True, with_dependencies=False)
    (c,) = plan.components
    assert c.status == "install"
    assert {m.id: m.status for m in c.missing} == {"g/helper": "left out", "g/kept": "left out"}
    assert c.missing[0].note == (
        "requires helper (g/helper), which this install leaves out (--no-deps, "
        "with_dependencies=false) and the target does not have: it may not work until helper is there"
    )
    # once the target holds them (by name), nothing is said
    install(index, ["g/helper", "g/kept"], target, with_dependencies=False)
    (c,) = install(index, ["g/report"], target, dry_run=True, with_dependencies=False).components
    assert c.status == "install" and c.missing == ()


def test_nothing_missing_says_nothing(index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    target.mkdir()
    plan = install(index, ["g/kept"], target)
    assert plan.ok and all(not c.missing for c in plan.components)
    assert "missing_requirements" not in json.dumps(plan.to_dict())
    assert not any("note:" in line for line in plan.lines())
