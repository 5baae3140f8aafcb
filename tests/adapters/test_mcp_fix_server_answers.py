"""What the MCP tools answer, as a walkthrough with a real MCP client found it wanting:

- ``k`` had no upper bound: ``k: 100000`` returned the whole index (360 KB). It is now at
  most `MAX_K`, said in the schema (``maximum``) and refused by name above it.
- ``search_components``' nothing-fits note said "these are the closest" naming none.
- No argument had a ``description`` in its JSON Schema, and no tool had annotations;
  plugins, which ``search_components`` does not rank, were nowhere said to be found with
  ``search``.
- ``get_component {"id": ""}`` said "no component ''"; a conflict written without a
  reason showed ``"reason": ""``.
- An install dry run and the real run must agree about a target that does not exist.

The bundled sample catalogue, indexed with the hashing embedder, served in process.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from skill_retriever.adapters.mcp_arguments import MAX_K
from skill_retriever.adapters.mcp_schemas import arg_descriptions
from skill_retriever.adapters.mcp_server import INSTRUCTIONS, build_server
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _server(index: Index) -> Any:
    return build_server(index, retriever=Retriever(index, reranker=None))


def _answer(server: Any, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = asyncio.run(server.call_tool(tool, args))
    assert not result.is_error, result.content
    answer: dict[str, Any] = result.structured_content
    return answer


def _error(server: Any, tool: str, args: dict[str, Any]) -> str:
    async def run() -> str:
        try:
            result = await server.call_tool(tool, args)
        except Exception as exc:  # noqa: BLE001 - the SDK raises a tool's refusal; its text is the answer
            return str(exc)
        return f"no error: {result}"

    return asyncio.run(run())


@pytest.mark.parametrize("tool", ["search", "search_components"])
def test_k_over_the_most_is_refused_by_name(sample_index: Index, tool: str) -> None:
    server = _server(sample_index)
    for k in (MAX_K + 1, 100000, 10**30):
        said = _error(server, tool, {"query": "format python", "k": k})
        assert said.endswith(
            f"k must be at most {MAX_K} (every result goes into your context), got {k}; "
            "narrow the query or kinds to reach the others"
        ), said
    assert _answer(server, tool, {"query": "format python", "k": MAX_K})["results"]


@pytest.mark.parametrize("tool", ["search", "search_components"])
def test_the_schema_says_the_bounds_of_k(sample_index: Index, tool: str) -> None:
    schema = next(t.input_schema for t in asyncio.run(_server(sample_index).list_tools()) if t.name == tool)
    k = schema["properties"]["k"]
    assert (k["minimum"], k["maximum"], k["default"]) == (1, MAX_K, 5)
    assert f"1 to {MAX_K}" in k["description"]
    jsonschema.validate({"query": "x", "k": MAX_K}, schema)
    with pytest.raises(jsonschema.ValidationError, match="is greater than the maximum"):
        jsonschema.validate({"query": "x", "k": MAX_K + 1}, schema)


def test_every_argument_is_described_in_its_schema(sample_index: Index) -> None:
    tools = asyncio.run(_server(sample_index).list_tools())
    assert len(tools) == 6
    for tool in tools:
        props = tool.input_schema["properties"]
        helps = arg_descriptions(tool.description)
        assert set(helps) == set(props), tool.name  # every argument has its Args line, and no other
        for name, prop in props.items():
            assert prop["description"] == helps[name] and "  " not in prop["description"], (tool.name, name)
    search = next(t for t in tools if t.name == "search")
    # a continuation line is joined: the kinds list follows "any of:"
    assert search.input_schema["properties"]["kinds"]["description"].endswith(", skill, tool.")


def test_the_tools_are_annotated(sample_index: Index) -> None:
    hints = {
        t.name: t.annotations.model_dump(by_alias=True, exclude_none=True)
        for t in asyncio.run(_server(sample_index).list_tools())
        if t.annotations is not None
    }
    reads = {"readOnlyHint": True, "openWorldHint": False}
    writes = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": False}
    assert hints == {
        "search": reads,
        "search_components": reads,
        "get_component": reads,
        "check_dependencies": reads,
        "install_components": writes,
        "uninstall_components": writes,
    }


def test_plugins_are_found_with_search_as_the_instructions_say(sample_index: Index, tmp_path: Path) -> None:
    """``search_components`` ranks installable components only; a plugin, which
    install_components takes whole, is found by ``search`` with kinds plugin."""
    assert "for a plugin" in INSTRUCTIONS and "call search with kinds plugin" in INSTRUCTIONS
    server = _server(sample_index)
    tools = {t.name: t for t in asyncio.run(server.list_tools())}
    assert "For plugins call search with kinds plugin." in tools["search_components"].description
    assert "kinds[0]: input should be 'skill'" in _error(server, "search_components", {"query": "x", "kinds": ["plugin"]})
    found = _answer(server, "search", {"query": "secret scanning security review", "kinds": "plugin", "k": 1})
    top = found["results"][0]
    assert (top["kind"], top["name"]) == ("plugin", "security-kit")
    plan = _answer(server, "install_components", {"ids": [top["id"]], "target": str(tmp_path)})
    assert plan["ok"] and any("secret" in line for line in plan["summary"])


@pytest.mark.parametrize("detail", ["brief", "full"])
def test_nothing_fits_names_the_closest_components(sample_index: Index, detail: str) -> None:
    server = _server(sample_index)
    answer = _answer(server, "search_components", {"query": "bake sourdough bread at home", "k": 3, "detail": detail})
    assert answer["nothing_fits"] is True
    names = [r["name"] for r in answer["results"]]
    if detail == "brief":
        assert answer["note"] == (
            f"nothing in the catalogue fits this well; the closest: {', '.join(names)}; nothing they need was added"
        )
        assert "these are the closest" not in answer["note"]
    else:  # the full answer's warnings name them as the search said it
        assert f"the closest: {', '.join(names)}" in " ".join(answer["warnings"])


def test_an_empty_id_is_said_to_be_empty(sample_index: Index, tmp_path: Path) -> None:
    server = _server(sample_index)
    fix = "pass an id from search or search_components (or a unique name)"
    assert _error(server, "get_component", {"id": ""}).endswith(f"id is empty; {fix}")
    assert _error(server, "get_component", {"id": "   "}).endswith(f"id is empty; {fix}")
    assert _error(server, "check_dependencies", {"ids": ["ruff-format", ""]}).endswith(f"ids[1] is empty; {fix}")
    said = _error(server, "install_components", {"ids": [""], "target": str(tmp_path)})
    assert said.endswith(f"ids[0] is empty; {fix}") and "no component" not in said
    assert _error(server, "uninstall_components", {"ids": [""], "target": str(tmp_path)}).endswith(f"ids[0] is empty; {fix}")


@pytest.fixture(scope="module")
def unreasoned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """Two skills, one declaring a conflict with the other without a reason (as the
    walkthrough's secret-scan did), and one conflict with a reason."""
    root = tmp_path_factory.mktemp("unreasoned")
    skills = {
        "tab-indent": "conflicts: [space-indent]\n",
        "space-indent": "",
        "loud-logger": "conflicts:\n  - name: quiet-logger\n    reason: both own the log level\n",
        "quiet-logger": "",
    }
    for name, extra in skills.items():
        (root / "src" / "skills" / name).mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: Indent or log code the {name} way.\n{extra}---\n# {name}\n"
        (root / "src" / "skills" / name / "SKILL.md").write_text(text, encoding="utf-8")
    index = Index.open(root / "index", embedder=HashingEmbedder(64), create=True)
    index_sources(index, [root / "src"], "skills")
    yield index
    index.close()


def _conflicts(answer: Any) -> list[dict[str, Any]]:
    """Every conflict anywhere in ``answer``."""
    if isinstance(answer, dict):
        own = answer["conflicts"] if isinstance(answer.get("conflicts"), list) else []
        return [c for c in own if isinstance(c, dict)] + [x for v in answer.values() for x in _conflicts(v)]
    return [x for v in answer for x in _conflicts(v)] if isinstance(answer, list) else []


def test_a_conflict_without_a_reason_has_no_empty_reason(unreasoned: Index, tmp_path: Path) -> None:
    server = _server(unreasoned)
    got = _answer(server, "get_component", {"id": "tab-indent"})
    assert [c["name"] for c in got["conflicts"]] == ["space-indent"] and "reason" not in got["conflicts"][0]
    reasoned = _answer(server, "get_component", {"id": "quiet-logger"})["conflicts"]
    assert [c["reason"] for c in reasoned] == ["both own the log level"]
    ids = {"ids": ["tab-indent", "space-indent", "loud-logger", "quiet-logger"]}
    answers = {
        "check_dependencies": _answer(server, "check_dependencies", ids),
        "install brief": _answer(server, "install_components", {**ids, "target": str(tmp_path)}),
        "install full": _answer(server, "install_components", {**ids, "target": str(tmp_path), "detail": "full"}),
        "search brief": _answer(server, "search_components", {"query": "indent code log code", "k": 4}),
        "search full": _answer(server, "search_components", {"query": "indent code log code", "k": 4, "detail": "full"}),
    }
    for name, answer in answers.items():
        found = _conflicts(answer)
        assert len(found) == 2 and all(c.get("reason") != "" for c in found), (name, answer)
        assert sorted(c.get("reason", "none") for c in found) == ["both own the log level", "none"], name


def test_a_dry_run_refuses_a_missing_target_as_the_real_run_does(sample_index: Index, tmp_path: Path) -> None:
    server = _server(sample_index)
    deep = tmp_path / "newproj" / "deep"  # its folder does not exist either
    args = {"ids": ["ruff-format"], "target": str(deep)}
    dry, real = _error(server, "install_components", args), _error(server, "install_components", {**args, "dry_run": False})
    assert dry == real and dry.endswith(f"target {str(deep)!r} is not an existing folder; pass the project folder's absolute path")
    assert not (tmp_path / "newproj").exists()


@pytest.mark.parametrize("detail", ["brief", "full"])
def test_a_dry_run_says_it_would_make_the_target_folder(sample_index: Index, tmp_path: Path, detail: str) -> None:
    """One new folder inside an existing one is made, as the CLI makes it; the dry run
    says so, so that a mistyped project path does not pass for an empty project."""
    server = _server(sample_index)
    new = tmp_path / "newproj"
    args = {"ids": ["ruff-format"], "target": str(new), "detail": detail}
    plan = _answer(server, "install_components", args)
    assert plan["new_folder"] == (
        f"{new} does not exist yet: a real run makes it, in {tmp_path}; if you meant an existing project, check the path"
    )
    assert not new.exists()
    done = _answer(server, "install_components", {**args, "dry_run": False})
    assert done["applied"] and "new_folder" not in done
    assert (new / ".claude" / "skills" / "ruff-format" / "SKILL.md").is_file()
    assert "new_folder" not in _answer(server, "install_components", args)  # it exists now
