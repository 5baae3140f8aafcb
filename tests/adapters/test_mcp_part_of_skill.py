"""Every MCP tool that lists an item says which skill it is part of, as ``search`` does.

A SKILL.md nested in another skill's folder is an item of its own (sickn33's
``game-development/2d-games/SKILL.md``, ``app-builder/templates/SKILL.md``). ``search``
said "part of skill game-development" for it (`render.explain`), but ``search_components``
(its ``why`` and ``reason`` come from the component rationale), ``get_component``, the
install plan and ``search``'s own full answer (``query --json`` has ``part_of``) said nothing, so an agent took 2d-games for a skill of its own. Each now
says it with the same owner (`owning_skill`: the outermost skill the caller sees), and a
private outer skill is never named to a caller who may not see it.

A real index (the hashing embedder) of files; the calls go through the SDK's client.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from files import write_file
from mcp_in_process import tool_answers

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

GAMES = "repo/skills/game-development/SKILL.md"
TWO_D = "repo/skills/game-development/2d-games/SKILL.md"
BUILDER = "repo/skills/app-builder/SKILL.md"
TEMPLATES = "repo/skills/app-builder/templates/SKILL.md"


def _skill(name: str, description: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody of {name}. {description}\n"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("part-of")
    repo = root / "repo"
    write_file(repo, "skills/game-development/SKILL.md", _skill("game-development", "Game development orchestrator."))
    write_file(repo, "skills/game-development/2d-games/SKILL.md",
               _skill("2d-games", "2D game principles. Sprites, tilemaps, camera."))
    write_file(repo, "skills/tilemap-editor/SKILL.md", _skill("tilemap-editor", "Edit 2D sprites and tilemaps."))
    # a private outer skill; its nested skill is seen by bob too (a wider label set)
    write_file(repo, "skills/app-builder/SKILL.md", _skill("app-builder", "Application orchestrator.", "access: [alice]\n"))
    write_file(repo, "skills/app-builder/templates/SKILL.md",
               _skill("templates", "Project scaffolding templates.", "access: [alice, bob]\n"))
    index = Index.open(root / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [repo], "skills", calibrate=False)
    assert not [p for s in run.sources for p in s.problems]
    index.close()
    return root / "index"


def _calls(ids: str, query: str, target: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    return {
        "brief": ("search_components", {"query": query, "k": 5}),
        "full": ("search_components", {"query": query, "k": 5, "detail": "full"}),
        "search": ("search", {"query": query, "k": 5}),
        "search_full": ("search", {"query": query, "k": 5, "detail": "full"}),
        "item": ("get_component", {"id": ids}),
        "plan": ("install_components", {"ids": [ids], "target": str(target)}),
        "plan_full": ("install_components", {"ids": [ids], "target": str(target), "detail": "full"}),
    }


def _by_id(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in answer["results"]}


def test_every_tool_says_the_skill_a_nested_skill_is_part_of(index_dir: Path, tmp_path: Path) -> None:
    got = tool_answers(index_dir, [], _calls("2d-games", "2D game sprites tilemaps", tmp_path / "p"))
    owner = {"id": GAMES, "name": "game-development"}
    brief, full = _by_id(got["brief"]), _by_id(got["full"])
    assert brief[TWO_D]["part_of"] == "game-development"  # its own key: the budget never cuts it
    assert full[TWO_D]["part_of"] == owner
    assert full[TWO_D]["reason"].startswith("Part of skill game-development. Matched by")
    assert _by_id(got["search"])[TWO_D]["reason"].startswith("part of skill game-development; ")
    assert _by_id(got["search_full"])[TWO_D]["part_of"] == owner  # as `query --json` gives it
    assert _by_id(got["search_full"])[GAMES]["part_of"] is None
    # a skill of its own, and the outer skill itself, are part of none
    for skill in ("repo/skills/tilemap-editor/SKILL.md", GAMES):
        if skill in full:
            assert full[skill]["part_of"] is None and "part_of" not in brief[skill]
    assert "repo/skills/tilemap-editor/SKILL.md" in full
    assert got["item"]["part_of"] == owner
    assert "[skill] 2d-games  " + TWO_D + " (part of skill game-development): install" in got["plan"]["summary"]
    assert got["plan_full"]["components"][0]["part_of"] == owner


def test_a_private_outer_skill_is_named_only_to_its_callers(index_dir: Path, tmp_path: Path) -> None:
    calls = _calls("templates", "project scaffolding templates", tmp_path / "p")
    bob = tool_answers(index_dir, ["bob"], calls)
    assert _by_id(bob["full"])[TEMPLATES]["part_of"] is None
    assert "part_of" not in _by_id(bob["brief"])[TEMPLATES]
    assert bob["item"]["part_of"] is None
    assert _by_id(bob["search_full"])[TEMPLATES]["part_of"] is None
    assert "part_of" not in bob["plan_full"]["components"][0]
    # its id, source and attrs.path are its path: the outer skill's folder is in them
    said = json.dumps(bob).replace("/app-builder/templates/SKILL.md", "")
    assert "app-builder" not in said
    alice = tool_answers(index_dir, ["alice"], calls)
    owner = {"id": BUILDER, "name": "app-builder"}
    assert _by_id(alice["full"])[TEMPLATES]["part_of"] == owner
    assert _by_id(alice["brief"])[TEMPLATES]["part_of"] == "app-builder"
    assert _by_id(alice["search"])[TEMPLATES]["reason"].startswith("part of skill app-builder")
    assert alice["item"]["part_of"] == owner
    assert _by_id(alice["search_full"])[TEMPLATES]["part_of"] == owner
    assert alice["plan_full"]["components"][0]["part_of"] == owner
