"""What a caller who may not see ``secops``' private components learns over MCP (a real
stdio server and client).

- ``search_components`` with a ``target`` where a hidden component is installed carries
  the conflict the install plan refuses for, its other side ``not shown`` (`UNSEEN_NAME`).
- ``get_component`` of a public component that requires a hidden one listed nothing more
  than what the caller sees, as if it required nothing; it now says how many it requires
  that the index does not show (``requires_not_shown``), in the plan's words and with no
  name, and a name no source has reads alike.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from files import write_skill
from mcp import ClientSession, StdioServerParameters, stdio_client

from skill_retriever.components.conflicts import UNSEEN, UNSEEN_NAME
from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}
SECRET = "NUMBAT-MARKER"
#: The private items; ``Zanzibar-Vault`` is how the public file spells the last one.
HIDDEN = ("private-linter", "zanzibar-vault", "key-escrow")
LINT = "lint python code with semgrep rules"


def _id(name: str) -> str:
    return f"src/skills/{name}/SKILL.md"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("s44-mcp")
    src = root / "src"
    write_skill(src, "private-linter", f"{SECRET} lint.", access=["secops"], conflicts=["public-linter"])
    write_skill(src, "public-linter", "Lint python code with semgrep rules.")
    write_skill(src, "zanzibar-vault", f"{SECRET} vault.", access=["secops"])
    write_skill(src, "key-escrow", f"{SECRET} escrow.", access=["secops"])
    write_skill(src, "secret-scan", "Scan for leaks.", requires=["Zanzibar-Vault"])
    write_skill(src, "two-hidden", "Rotate keys.", requires=["Zanzibar-Vault", "key-escrow", "public-linter"])
    write_skill(src, "ghost-user", "Needs a thing nobody has.", requires=["no-such-thing"])
    index = Index.open(root / "index", embedder=HashingEmbedder(64), create=True)
    try:
        run = index_sources(index, [src], "skills", calibrate=False)
        assert not [p for s in run.sources for p in s.problems if "no-such-thing" not in p.message]
        proj = root / "proj"
        proj.mkdir()
        assert install(index, ["private-linter"], proj, principals=["secops"]).applied
    finally:
        index.close()
    yield root


def _serve(root: Path, principals: str, calls: dict[str, tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(root / "index"), "--principals", principals],
        env=ENV,
    )
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
    return out


@pytest.fixture(scope="module")
def alice(built: Path) -> dict[str, Any]:
    target = str(built / "proj")
    return _serve(built, "alice", {
        "search": ("search_components", {"query": LINT, "k": 1, "target": target}),
        "search_full": ("search_components", {"query": LINT, "k": 1, "target": target, "detail": "full"}),
        "check": ("check_dependencies", {"ids": [_id("public-linter")], "target": target}),
        "scan": ("get_component", {"id": "secret-scan"}),
        "scan_full": ("get_component", {"id": "secret-scan", "detail": "full"}),
        "two": ("get_component", {"id": "two-hidden"}),
        "ghost": ("get_component", {"id": "ghost-user"}),
        "linter": ("get_component", {"id": "public-linter", "detail": "full"}),
    })  # fmt: skip


def test_everything_alice_is_told_hides_the_private_items(alice: dict[str, Any]) -> None:
    text = json.dumps(alice)
    for name in HIDDEN:
        assert name not in text
    assert SECRET not in text and "Zanzibar-Vault" not in text  # nor the public file's spelling


def test_search_components_flags_the_conflict_with_the_hidden_installed_one(alice: dict[str, Any]) -> None:
    (top,) = alice["search"]["results"]
    assert top["name"] == "public-linter" and top["conflicts_with"] == [UNSEEN_NAME]
    (c,) = alice["search"]["conflicts"]
    (checked,) = alice["check"]["conflicts"]  # what check_dependencies (and the plan) say
    assert c == checked and (c["source"], c["not_shown"]) == (UNSEEN, UNSEEN_NAME)
    assert "ask whoever installed the other" in c["reason"]
    (full,) = alice["search_full"]["results"]
    assert full["conflicts_with"] == [UNSEEN] and f"Conflicts with {UNSEEN_NAME}" in full["reason"]


def test_get_component_says_how_many_it_requires_that_are_not_shown(alice: dict[str, Any]) -> None:
    for answer in (alice["scan"], alice["scan_full"]):
        assert answer["requires"] == []
        assert answer["requires_not_shown"] == {
            "count": 1,
            "note": "requires 1 component that the index does not show you (no source has it, or only "
            "others may see it), besides those listed: it may not work until that one is there; "
            "install it by hand, ask someone who may see it to install it, or index a source that "
            "has it (check_dependencies notes each by the name this component's file gives)",
        }
    two = alice["two"]
    assert two["requires"] == [{"id": _id("public-linter"), "name": "public-linter"}]
    assert two["requires_not_shown"]["count"] == 2
    assert two["requires_not_shown"]["note"].startswith("requires 2 components that the index does not show you")
    # a name no source has reads alike: telling them apart would tell the hidden one exists
    assert alice["ghost"]["requires_not_shown"] == alice["scan"]["requires_not_shown"]
    assert "requires_not_shown" not in alice["linter"]


def test_one_who_sees_everything_is_told_plainly(built: Path) -> None:
    said = _serve(built, "*", {
        "scan": ("get_component", {"id": "secret-scan"}),
        "ghost": ("get_component", {"id": "ghost-user"}),
    })  # fmt: skip
    assert said["scan"]["requires"] == [{"id": _id("zanzibar-vault"), "name": "zanzibar-vault"}]
    assert "requires_not_shown" not in said["scan"]
    note = said["ghost"]["requires_not_shown"]["note"]
    assert note.startswith("requires 1 component that no source of the index has, besides those listed")
