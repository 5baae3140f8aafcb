"""`skill-retriever mcp` driven through the official SDK's stdio client: list the tools,
call each, read the status resource. The index is built here with the real bundled model."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from component_catalogue import build_index, sid, write_catalogue
from mcp import ClientSession, StdioServerParameters, stdio_client

from skill_retriever.adapters.mcp_server import STATUS_URI
from skill_retriever.algorithms.budget import token_counter
from skill_retriever.components.results import BRIEF_TOKENS
from skill_retriever.stores.embedder import SentenceTransformerEmbedder

pytestmark = pytest.mark.slow

TOOLS = {"search", "search_components", "get_component", "check_dependencies", "install_components",
         "uninstall_components"}


def _json(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data = result.structured_content
    assert isinstance(data, dict)
    assert json.loads(result.content[0].text) == data  # the text form says the same
    return data


async def _drive(index_dir: Path, project: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(index_dir)],
        env={"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"},
        cwd=str(project.parent),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        assert init.server_info.name == "skill-retriever"

        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == TOOLS
        assert set(tools["search_components"].input_schema["properties"]) >= {
            "query",
            "kinds",
            "k",
            "budget",
        }
        assert tools["install_components"].input_schema["properties"]["dry_run"]["default"] is True

        found = _json(await session.call_tool(
            "search_components", {"query": "scaffold a python web service with json logging", "k": 1}
        ))  # fmt: skip
        count = token_counter()
        assert all(count(json.dumps(r)) <= BRIEF_TOKENS for r in found["results"])
        top, *rest = found["results"]
        assert top["id"] == sid("web-scaffold") and top["role"] == "match" and top["rank"] == 1
        assert top["score"] > 0 and top["tokens"] > 0 and top["why"].startswith("found by")
        assert "brings api-style, json-logging, redact-pii" in top["why"]
        assert top["requires"] == ["api-style", "json-logging"]
        deps = {r["id"]: r for r in rest}
        assert set(deps) == {sid("api-style"), sid("json-logging"), sid("redact-pii")}
        assert all(r["role"] == "dependency" for r in rest)
        assert deps[sid("redact-pii")]["required_by"] == ["web-scaffold"]
        assert deps[sid("api-style")]["other_sources"] == 1
        full = _json(await session.call_tool(
            "search_components",
            {"query": "scaffold a python web service with json logging", "k": 1, "detail": "full"},
        ))  # fmt: skip
        fdeps = {r["id"]: r for r in full["results"]}
        assert sid("api-style", "mirror-skills") in fdeps[sid("api-style")]["also_at"]
        assert "Required by web-scaffold" in fdeps[sid("redact-pii")]["reason"]
        assert "text" not in fdeps[sid("redact-pii")]["rationale"]  # the reason is said once

        formats = _json(await session.call_tool(
            "search_components", {"query": "format python code with ruff or black", "k": 3, "kinds": ["skill"]}
        ))  # fmt: skip
        pair = {sid("ruff-lint"), sid("black-style")}
        assert {r["kind"] for r in formats["results"]} == {"skill"}
        assert [{c["source"], c["target"]} for c in formats["conflicts"]] == [pair]
        assert formats["conflicts"][0]["reason"] == "both rewrite Python files in different styles"
        text = json.dumps(formats["results"])
        assert "both rewrite" not in text  # the reason is given once, with the conflict
        budgeted = _json(await session.call_tool(
            "search_components", {"query": "scaffold a python web service with json logging", "k": 1, "budget": 60}
        ))  # fmt: skip
        assert budgeted["results"] == [] and budgeted["dropped"][0]["why"] == "budget"

        comp = _json(await session.call_tool("get_component", {"id": sid("json-logging")}))
        assert comp["name"] == "json-logging" and "request_id" in comp["text"]
        assert comp["requires"] == [{"id": sid("redact-pii"), "name": "redact-pii"}]
        assert comp["required_by"] == [{"id": sid("web-scaffold"), "name": "web-scaffold"}]
        bad = await session.call_tool("get_component", {"id": "no/such/component"})
        assert bad.is_error
        assert bad.content[0].text.endswith(
            "get_component: no component 'no/such/component'; call search_components with the "
            "task to find ids, then pass one of them as id"
        )
        twice = await session.call_tool(
            "install_components", {"ids": ["api-style"], "target": str(project)}
        )
        said = twice.content[0].text
        assert twice.is_error and "2 components are named 'api-style': the skill api-style" in said, said
        assert said.endswith("; pass the id of the one you want as ids")

        checked = _json(
            await session.call_tool(
                "check_dependencies", {"ids": [sid("cycle-a"), sid("ruff-lint")]}
            )
        )
        assert checked["cycles"] == [[sid("cycle-a"), sid("cycle-b"), sid("cycle-a")]]
        assert checked["added"][0]["id"] == sid("cycle-b") and checked["added"][0][
            "required_by"
        ] == [sid("cycle-a")]

        plan = _json(
            await session.call_tool(
                "install_components", {"ids": [sid("web-scaffold")], "target": str(project)}
            )
        )
        assert plan["applied"] is False and plan["ok"] is True and not any(project.iterdir())
        assert any(
            "would create .claude/skills/web-scaffold/SKILL.md" in line for line in plan["summary"]
        )
        done = _json(await session.call_tool(
            "install_components",
            {"ids": [sid("web-scaffold")], "target": str(project), "dry_run": False, "detail": "full"},
        ))  # fmt: skip
        assert done["applied"] is True and done["ok"] is True
        assert (project / ".claude/skills/redact-pii/SKILL.md").is_file()
        assert ".claude/skills/web-scaffold/templates/app.py" in done["written"]
        refused = _json(await session.call_tool(
            "install_components",
            {"ids": [sid("ruff-lint"), sid("black-style")], "target": str(project), "dry_run": False},
        ))  # fmt: skip
        assert refused["ok"] is False and refused["applied"] is False
        assert {refused["conflicts"][0]["source"], refused["conflicts"][0]["target"]} == pair
        assert not (project / ".claude/skills/ruff-lint").exists()

        resources = (await session.list_resources()).resources
        assert [str(r.uri) for r in resources] == [STATUS_URI]
        status = json.loads((await session.read_resource(STATUS_URI)).contents[0].text)
        assert status["nodes"] == 14 and status["node_kinds"]["skill"] == 10


def test_mcp_server_over_stdio(tmp_path: Path, real_embedder: SentenceTransformerEmbedder) -> None:
    catalogue = write_catalogue(tmp_path / "catalogue")
    index = build_index(tmp_path / "index", catalogue, embedder=real_embedder)
    index.close()
    (tmp_path / "project").mkdir()  # the tools refuse a project folder that is not there

    async def run() -> None:
        with anyio.fail_after(180):
            await _drive(tmp_path / "index", tmp_path / "project")

    anyio.run(run)
