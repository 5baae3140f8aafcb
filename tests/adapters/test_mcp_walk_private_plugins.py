"""A plugin folder whose every member is private is private too, through a real MCP client.

Found in a privacy walk: trailofbits/skills with ``access: [bob]`` in every Markdown file's
frontmatter, indexed, showed a caller without principals 42 public ``plugin`` nodes, each
named after its folder (most often the private skill's own name): in search, in the status
resource's counts, and as ids that ``get_component``, ``check_dependencies`` and an install
plan took. A plugin that gives no ``access`` now takes its members' (`ingest.plugin_access`),
and an index run or `remove-source` that changes its members' labels derives it again.
Real data (a copy of ../shared/data/skills/trailofbits__skills), the hashing embedder.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.sources import remove_source
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

DATA = next((p for p in (Path(__file__).resolve().parents[3] / "shared/data/skills/trailofbits__skills",
                         Path("/work/shared/data/skills/trailofbits__skills")) if p.is_dir()), None)
pytestmark = pytest.mark.skipif(DATA is None, reason="shared skills data not present")
SOURCE = "trailofbits__skills"
PLUGIN = f"{SOURCE}/plugins/property-based-testing"
SKILL = "plugins/property-based-testing/skills/property-based-testing/SKILL.md"
REVIEW = f"{SOURCE}/plugins/differential-review"
PRIVATE = "---\naccess: [bob]\n"


def _private_copy(root: Path) -> Path:
    assert DATA is not None
    repo = shutil.copytree(DATA, root / SOURCE)
    for path in repo.rglob("*.md"):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("---\n"), path  # every component file there has frontmatter
        path.write_text(PRIVATE + text[4:], encoding="utf-8")
    return repo


def _index(repo: Path, ix: Path) -> None:
    index = Index.open(ix, embedder=HashingEmbedder(), create=not ix.exists())
    try:
        index_sources(index, [repo], "skills")
    finally:
        index.close()


def _calls(ix: Path, principals: list[str], calls: dict[str, tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The status resource, then each named call's answer (or its error text), as a
    caller holding ``principals`` gets them through the SDK's client."""
    index = Index.open(ix)
    server = build_server(index, retriever=Retriever(index, reranker=None), principals=principals)

    async def go() -> dict[str, Any]:
        async with Client(server) as client:
            out = {"status": json.loads((await client.read_resource("skill-retriever://status")).contents[0].text)}
            for name, (tool, args) in calls.items():
                result = await client.call_tool(tool, args)
                out[name] = (" ".join(getattr(c, "text", "") for c in result.content) if result.is_error
                             else result.structured_content)
            return out

    try:
        return asyncio.run(go())
    finally:
        index.close()


def _plugin_calls(target: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    return {
        "search": ("search", {"query": "property based testing", "kinds": "plugin", "k": 5}),
        "components": ("search_components", {"query": "property based testing plugin", "k": 5}),
        "get": ("get_component", {"id": PLUGIN}),
        "deps": ("check_dependencies", {"ids": [PLUGIN]}),
        "plan": ("install_components", {"ids": [PLUGIN], "target": str(target)}),
    }


@pytest.fixture(scope="module")
def private_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("private-plugins")
    _index(_private_copy(root), root / "index")
    return root / "index"


def test_a_caller_without_principals_sees_no_plugin_of_private_members(private_index: Path, tmp_path: Path) -> None:
    public = _calls(private_index, [], _plugin_calls(tmp_path / "project"))
    assert public["status"]["nodes"] == 0 and public["status"]["node_kinds"] == {}
    assert public["search"]["results"] == []
    assert all(r["kind"] != "plugin" for r in public["components"]["results"])
    for name in ("get", "deps", "plan"):
        assert f"no component '{PLUGIN}'" in public[name], public[name]


def test_a_caller_who_may_see_the_members_sees_their_plugins(private_index: Path, tmp_path: Path) -> None:
    bob = _calls(private_index, ["bob"], _plugin_calls(tmp_path / "project"))
    assert bob["status"]["node_kinds"]["plugin"] == 42
    assert bob["search"]["results"][0]["id"] == PLUGIN
    assert bob["get"]["kind"] == "plugin" and "property-based-testing (skill)" in bob["get"]["text"]
    assert bob["plan"]["ok"] is True
    assert any("[skill] property-based-testing" in line for line in bob["plan"]["summary"])
    other = _calls(private_index, ["alice"], {"get": ("get_component", {"id": PLUGIN})})
    assert other["status"]["nodes"] == 0 and f"no component '{PLUGIN}'" in other["get"]


def _make_public(path: Path) -> None:
    path.write_text("---\n" + path.read_text(encoding="utf-8").removeprefix(PRIVATE), encoding="utf-8")


def test_a_member_made_public_or_private_again_derives_its_plugin_again(tmp_path: Path) -> None:
    repo, ix = _private_copy(tmp_path), tmp_path / "index"
    _index(repo, ix)
    skill = repo / SKILL
    _make_public(skill)
    _make_public(repo / "plugins/differential-review/commands/diff-review.md")  # of a skill, an agent and it
    _index(repo, ix)  # public now: so are their plugins, and only they
    shown = _calls(ix, [], {**_plugin_calls(tmp_path / "project"), "review": (
        "install_components", {"ids": [REVIEW], "target": str(tmp_path / "project"), "detail": "full"})})
    assert shown["status"]["node_kinds"] == {"plugin": 2, "skill": 1, "command": 1}
    assert [r["id"] for r in shown["search"]["results"]] in ([PLUGIN], [PLUGIN, REVIEW])
    assert shown["plan"]["ok"] is True
    # the plugin's private members stay hidden: its plan holds the public command alone
    assert [c["id"] for c in shown["review"]["components"]] == [f"{REVIEW}/commands/diff-review.md"]
    skill.write_text(PRIVATE + skill.read_text(encoding="utf-8")[4:], encoding="utf-8")
    _index(repo, ix)  # private again: its plugin too, where the command keeps its own public
    hidden = _calls(ix, [], {"get": ("get_component", {"id": PLUGIN})})
    assert hidden["status"]["node_kinds"] == {"plugin": 1, "command": 1} and f"no component '{PLUGIN}'" in hidden["get"]
    index = Index.open(ix)
    try:
        assert PLUGIN in remove_source(index, SOURCE)
    finally:
        index.close()
    assert _calls(ix, ["*"], {})["status"]["nodes"] == 0
