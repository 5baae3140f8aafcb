"""What the MCP tools say about ids that answer to nothing, through a real MCP client
connected in-process, as a user walkthrough found it wanting:

- ``check_dependencies`` (and ``install_components``) given 5,000 made-up ids answered
  with a 109,000-character error, every one named, all of it into the agent's context:
  the first ten are named, the rest counted;
- ``get_component`` with a typo said only "call search_components", where
  ``install_components`` offers the close names (never one the caller may not see);
- ``search_components`` with ``kinds: "plugin"`` said only which kinds it takes: it now
  says where plugins are found;
- a null argument was refused in pydantic's words only: it now says to leave it out;
- the handshake gave the server's version as the empty string.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from cli_calls import run
from mcp import Client
from mcp_in_process import tool_errors

from skill_retriever import __version__
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

SECRET = "ruff-formatter-internal"


def _md(name: str, *front: str) -> str:
    more = "".join(f"{line}\n" for line in front)
    return f"---\nname: {name}\ndescription: The {name} skill.\n{more}---\n\nBody of {name}.\n"


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "cat"
    for name, front in (("ruff-format", ()), (SECRET, ("access: [secops]",))):
        path = root / f"skills/{name}/SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(_md(name, *front), encoding="utf-8")
    folder = tmp_path / "ix"
    code, _, err = run(capsys, "index", root, "--index-dir", folder, "--embedder", "hashing-64")
    assert code == 0, err
    return folder


def test_thousands_of_unknown_ids_name_ten_and_count_the_rest(ix: Path, tmp_path: Path) -> None:
    ids = [f"made-up-{i}" for i in range(5000)]
    check, plan = tool_errors(ix, ["alice"], [
        ("check_dependencies", {"ids": ids}),
        ("install_components", {"ids": [*ids, "ruff-format"], "target": str(tmp_path)}),
    ])  # fmt: skip
    for said in (check, plan):
        assert len(said) < 1000, said[:300]
        assert "no component 'made-up-0'" in said and "no component 'made-up-9'" in said
        assert "'made-up-10'" not in said
        assert ", and 4,990 more name(s) that answer to nothing; call search_components" in said
    assert not (tmp_path / ".claude").exists()


def test_get_component_offers_the_close_names_the_caller_may_see(ix: Path) -> None:
    typo, secret_typo = tool_errors(ix, ["alice"], [
        ("get_component", {"id": "ruff-formt"}),
        ("get_component", {"id": "ruff-formatter-internl"}),
    ])  # fmt: skip
    assert typo.endswith(
        "no component 'ruff-formt'; call search_components with the task to find ids, then pass one "
        "of them as id, or one of these close names: ruff-format"
    ), typo
    assert SECRET not in typo and SECRET not in secret_typo  # hidden: never offered
    assert "ruff-formatter-internl" in secret_typo  # the caller's own words come back


def test_plugins_asked_of_search_components_are_sent_to_search(ix: Path) -> None:
    (as_string, in_list) = tool_errors(ix, ["alice"], [
        ("search_components", {"query": "format python", "kinds": "plugin"}),
        ("search_components", {"query": "format python", "kinds": ["skill", "plugin"]}),
    ])  # fmt: skip
    for said in (as_string, in_list):
        assert "a plugin is found with search (kinds plugin) and installed whole by its id" in said, said


def test_the_server_says_its_version_at_the_handshake(ix: Path) -> None:
    """A client shows the server's version beside its name (Claude Code's ``/mcp``); it
    was sent as the empty string."""
    index = Index.open(ix)
    server = build_server(index, retriever=Retriever(index, reranker=None), principals=["alice"])

    async def go() -> tuple[str, str]:
        async with Client(server) as client:
            return client.server_info.name, client.server_info.version

    try:
        assert asyncio.run(go()) == ("skill-retriever", __version__)
    finally:
        index.close()



def test_a_null_argument_is_refused_with_what_to_do(ix: Path, tmp_path: Path) -> None:
    """A model that fills optional arguments with null read "k: input should be a valid
    integer" and had to guess; the refusal now says to leave the argument out (null is
    never read as a default: a switch read so once turned a dry run into an install)."""
    calls: list[tuple[str, dict[str, Any]]] = [
        ("search_components", {"query": "format python", "k": None}),
        ("search", {"query": "format python", "detail": None}),
        ("install_components", {"ids": ["ruff-format"], "target": str(tmp_path), "dry_run": None}),
        ("search_components", {"query": None}),
    ]
    k, detail, dry_run, query = tool_errors(ix, ["alice"], calls)
    assert k.endswith("k: input should be a valid integer; null is not a value here: leave k out for its default")
    assert detail.endswith("; null is not a value here: leave detail out for its default"), detail
    assert "dry_run: input should be a valid boolean; null is not a value here: leave dry_run out" in dry_run
    assert query.endswith("query: input should be a valid string; null is not a value here: pass one"), query
    assert not (tmp_path / ".claude").exists()
