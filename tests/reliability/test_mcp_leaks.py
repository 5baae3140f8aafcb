"""Access control at the MCP layer and in install plans: over many random principal /
query / action triples, no answer of any MCP tool or of the status resource, and no file
an install writes, holds anything of an item the caller may not see: its id, its name
(unless a visible item has the same name), its command, arguments, environment names,
hook command, body, or the reason of a conflict it is a side of. Counts in the status
resource are those of the visible items, and no warning hints that hidden ones exist.

The tools are called in-process through the server object (``server.call_tool``); the
issue's own scenario and a few random actions also go through a real stdio client.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from reliability_support import FULL, LABELS, VOCAB, count

from skill_retriever.adapters.mcp_server import STATUS_URI, build_server
from skill_retriever.components.conflicts import UNSEEN, UNSEEN_NAME
from skill_retriever.components.install import install
from skill_retriever.filters import Filters
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

TRIPLES = int(os.environ.get("RELIABILITY_MCP_TRIPLES", "3000" if FULL else "1000"))
PRINCIPAL_SETS: list[list[str] | None] = [
    None,
    [],
    ["red"],
    ["blue"],
    ["red", "blue"],
    ["nobody"],
    ["*"],
]
KINDS = [NodeKind.SKILL, NodeKind.AGENT, NodeKind.COMMAND, NodeKind.HOOK, NodeKind.MCP_SERVER]
SYLLABLES = ["zor", "kel", "vim", "dax", "pru", "quon", "lith", "mera", "tosk", "bry"]
SHARED = 4  # names held by one public and one private item each


def _attrs(i: int, kind: NodeKind) -> dict[str, Any]:
    if kind is NodeKind.MCP_SERVER:
        return {
            "command": f"cmdtok-{i:03d}",
            "args": [f"argtok-{i:03d}"],
            "env_keys": [f"ENVTOK_{i:03d}"],
        }
    if kind is NodeKind.HOOK:
        hook = {"type": "command", "command": f"hooktok-{i:03d} run"}
        return {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
    return {}


def build_world(path: Path, seed: int = 12) -> tuple[Index, list[Node], list[Edge]]:
    """60 components and 3 plugins, most behind labels, with requirements, conflicts
    (their reasons carry tokens) and plugin membership across access levels."""
    rng = random.Random(seed)
    nodes: list[Node] = []
    for i in range(60):
        kind = KINDS[i % len(KINDS)]
        roll = rng.random()
        access = () if roll < 0.4 else tuple(sorted(rng.sample(LABELS, 1 if roll < 0.85 else 2)))
        name = f"{rng.choice(SYLLABLES)}{rng.choice(SYLLABLES)}-{i:03d}"
        if i < 2 * SHARED:  # pairs: one public, one private, one name
            name, access = f"shared-name-{i // 2}", (() if i % 2 == 0 else ("red",))
        words = rng.sample(VOCAB, 6)
        nodes.append(
            Node(
                id=f"cmp-{i:03d}",
                kind=kind,
                name=name,
                description=f"{name} helps with {words[0]} and {words[1]}",
                text=" ".join(words) + f" bodytok-{i:03d}",
                access=access,
                attrs=_attrs(i, kind),
            )
        )
    plugins = [
        Node(
            id=f"plg-{j}",
            kind=NodeKind.PLUGIN,
            name=f"plugin-{j}",
            text=f"plugin {j} bundle",
            access=(() if j else ("blue",)),
        )
        for j in range(3)
    ]
    edges: dict[str, Edge] = {}
    for n in nodes:
        for other in rng.sample(nodes, rng.randint(0, 2)):
            if other.id != n.id:
                e = Edge(n.id, other.id, EdgeKind.DEPENDS_ON)
                edges[e.id] = e
        edges.update({(e := Edge(n.id, rng.choice(plugins).id, EdgeKind.PART_OF)).id: e})
    for _ in range(18):
        a, b = rng.sample(nodes, 2)
        e = Edge(a.id, b.id, EdgeKind.CONFLICTS_WITH, description=f"whytok-{a.id}-{b.id}")
        edges[e.id] = e
    # the issue's case: a public skill that requires a private MCP server
    skill = next(n for n in nodes[2 * SHARED :] if n.kind is NodeKind.SKILL and not n.access)
    server = next(n for n in nodes if n.kind is NodeKind.MCP_SERVER and n.access)
    edges.update({(e := Edge(skill.id, server.id, EdgeKind.DEPENDS_ON)).id: e})
    index = Index.open(path, embedder=HashingEmbedder(32), create=True)
    index.upsert(nodes + plugins, list(edges.values()))
    return index, nodes + plugins, list(edges.values())


def hidden_tokens(nodes: list[Node], edges: list[Edge], principals: list[str] | None) -> set[str]:
    f = Filters(principals=principals)
    visible = {n.id for n in nodes if f.can_see(n)}
    seen_names = {n.name for n in nodes if n.id in visible}
    out: set[str] = set()
    for n in nodes:
        if n.id in visible:
            continue
        out.add(n.id)
        if n.name not in seen_names:
            out.add(n.name)
        tail = n.id.split("-")[-1]
        if n.kind is not NodeKind.PLUGIN:
            out.update(
                {
                    f"bodytok-{tail}",
                    f"cmdtok-{tail}",
                    f"argtok-{tail}",
                    f"ENVTOK_{tail}",
                    f"hooktok-{tail}",
                }
            )
    out.update(
        e.description for e in edges if e.description and not {e.source, e.target} <= visible
    )
    return out


def files_text(root: Path) -> str:
    if not root.exists():
        return ""
    return "\n".join(
        f"{p.relative_to(root).as_posix()}\n{p.read_text('utf-8', 'replace') if p.is_file() else ''}"
        for p in sorted(root.rglob("*"))
    )


class World:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.index, self.nodes, self.edges = build_world(tmp / "index")
        retriever = Retriever(self.index, reranker=None, cache_size=0)
        self.servers = {
            json.dumps(p): build_server(self.index, retriever=retriever, principals=p)
            for p in PRINCIPAL_SETS
        }
        self.hidden = {
            json.dumps(p): hidden_tokens(self.nodes, self.edges, p) for p in PRINCIPAL_SETS
        }
        # targets that already hold private components (installed by someone who sees them)
        self.held: list[Path] = []
        private = [n.id for n in self.nodes if n.access and n.kind in KINDS]
        rng = random.Random(3)
        for t in range(3):
            target = tmp / f"held-{t}"
            install(
                self.index,
                rng.sample(private, 4),
                target,
                principals=["*"],
                allow_conflicts=True,
                force=True,
            )
            self.held.append(target)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Any:
    w = World(tmp_path_factory.mktemp("mcp-leaks"))
    yield w
    w.index.close()


def random_action(rng: random.Random, w: World, fresh: Path) -> tuple[str, dict[str, Any]]:
    """One tool call (or ``status``) with random arguments; private ids and names included."""
    some = rng.sample(w.nodes, rng.randint(1, 3))
    refs = [n.id if rng.random() < 0.6 else n.name for n in some]
    target = str(rng.choice(w.held)) if rng.random() < 0.4 else str(fresh)
    tool = rng.choice(
        [
            "search_components",
            "search_components",
            "search",
            "get_component",
            "check_dependencies",
            "install_components",
            "install_components",
            "status",
        ]
    )
    if tool == "search_components":
        words = [
            n.name if rng.random() < 0.5 else f"bodytok-{n.id[-3:]}" for n in some
        ] + rng.sample(VOCAB, 2)
        args: dict[str, Any] = {
            "query": " ".join(words),
            "k": rng.randint(1, 6),
            "detail": rng.choice(["brief", "full"]),
        }
        if rng.random() < 0.5:
            args["target"] = target
        if rng.random() < 0.3:
            args["drop_conflicts"] = True
        if rng.random() < 0.2:
            args["budget"] = rng.randint(20, 400)
        return tool, args
    if tool == "search":  # any kind: the same words, with a kind now and then
        args = {
            "query": " ".join([n.name if rng.random() < 0.5 else f"bodytok-{n.id[-3:]}" for n in some]),
            "k": rng.randint(1, 6),
            "detail": rng.choice(["brief", "full"]),
        }
        if rng.random() < 0.3:
            args["kinds"] = [rng.choice(some).kind.value]
        if rng.random() < 0.2:
            args["budget"] = rng.randint(20, 400)
        return tool, args
    if tool == "get_component":
        return tool, {"id": refs[0], "detail": rng.choice(["brief", "full"])}
    if tool == "check_dependencies":
        return tool, {"ids": refs, **({"target": target} if rng.random() < 0.6 else {})}
    if tool == "install_components":
        if rng.random() < 0.15:
            refs = [f"plg-{rng.randint(0, 2)}"]
        return tool, {
            "ids": refs,
            "target": target,
            "dry_run": rng.random() < 0.5,
            "allow_conflicts": rng.random() < 0.5,
            "detail": rng.choice(["brief", "full"]),
        }
    return "status", {}


async def call(server: Any, tool: str, args: dict[str, Any]) -> str:
    """The answer as text: the result's JSON, or the error message."""
    if tool == "status":
        contents = list(await server.read_resource(STATUS_URI))
        return "\n".join(str(c.content) for c in contents)
    try:
        result = await server.call_tool(tool, args)
    except Exception as exc:  # noqa: BLE001 - a tool error is an answer too: its text is checked
        return f"error: {exc}"
    return json.dumps(result.model_dump(mode="json"), ensure_ascii=False)


def without_echoes(answer: str, args: dict[str, Any]) -> str:
    """The answer less the two places that repeat what the caller typed: the ``query``
    field, and ``'ref'`` in a "no component" message (worded alike for a private id and
    one that does not exist). A typed private id that comes back any other way (as a
    result's ``"id"``, in a path, a plan line) is still found."""
    if isinstance(args.get("query"), str):
        answer = answer.replace(json.dumps(json.dumps(args["query"]))[1:-1], "")
        answer = answer.replace(json.dumps(args["query"], ensure_ascii=False), "")
    refs = [args["id"]] if isinstance(args.get("id"), str) else list(args.get("ids") or [])
    for ref in refs:
        answer = answer.replace(f"no component {ref!r}", "no component <typed>")
    return answer


def leaks_in(text: str, hidden: set[str]) -> list[str]:
    return sorted(t for t in hidden if t in text)


def test_no_private_item_leaks_through_mcp_tools_or_installs(world: World) -> None:
    rng = random.Random(int(os.environ.get("RELIABILITY_SEED", "7")))
    leaks: list[str] = []
    kinds_seen: set[str] = set()

    async def run() -> None:
        for n in range(TRIPLES):
            principals = rng.choice(PRINCIPAL_SETS)
            key = json.dumps(principals)
            fresh = world.tmp / "fresh" / f"t{n}"
            fresh.mkdir(parents=True)  # a project folder: install refuses one that is not there
            tool, args = random_action(rng, world, fresh)
            answer = without_echoes(await call(world.servers[key], tool, args), args)
            kinds_seen.add(tool if not answer.startswith("error:") else f"{tool}:error")
            bad = leaks_in(answer, world.hidden[key])
            bad += [f"file:{t}" for t in leaks_in(files_text(fresh), world.hidden[key])]
            if "not visible" in answer or "hidden" in answer:
                bad.append("a warning about hidden items")
            if tool == "status":
                visible = [x for x in world.nodes if Filters(principals=principals).can_see(x)]
                if json.loads(answer)["nodes"] != len(visible):
                    bad.append("status counts what the caller may not see")
            if bad:
                leaks.append(f"#{n} {principals} {tool} {args}: {bad[:5]}")
            count("mcp_leak_triples")

    anyio.run(run)
    assert {
        "search",
        "search_components",
        "get_component",
        "check_dependencies",
        "install_components",
        "status",
    } <= kinds_seen
    assert (
        "install_components:error" in kinds_seen or "get_component:error" in kinds_seen
    )  # refusals were met
    assert not leaks, leaks[:10]


def test_no_principals_and_empty_principals_answer_alike(world: World) -> None:
    rng = random.Random(5)
    none, empty = world.servers[json.dumps(None)], world.servers[json.dumps([])]

    async def run() -> None:
        for n in range(60):
            tool, args = random_action(rng, world, world.tmp / "alike" / f"t{n}")
            if tool == "install_components":
                args["dry_run"] = True
            assert await call(none, tool, args) == await call(empty, tool, args), (tool, args)

    anyio.run(run)


# -- through a real stdio client -------------------------------------------------------
def _scenario(path: Path) -> Index:
    """The issue's case: a public skill that requires a private MCP server, a name held
    by a public and a private skill, a private skill that conflicts with a public one."""
    public = [
        Node(
            id="pub/deploy-helper",
            kind="skill",
            name="deploy-helper",
            text="deploy helper for releases",
        ),
        Node(id="pub/formatter", kind="skill", name="formatter", text="format python code"),
        Node(id="pub/lint-rules", kind="skill", name="lint-rules", text="lint rules for python"),
    ]
    private = [
        Node(
            id="priv/vault-secrets", kind="mcp_server", name="vault-secrets", text="vault secrets server",
            access=("red",), attrs={"command": "vault-mcp-cmd", "args": ["--token-file", "/secret/vault-path"]},
        ),
        Node(id="priv/formatter", kind="skill", name="formatter", text="private formatter", access=("red",)),
        Node(id="priv/secret-lint", kind="skill", name="secret-lint", text="secret lint rules", access=("red",)),
    ]  # fmt: skip
    edges = [
        Edge("pub/deploy-helper", "priv/vault-secrets", EdgeKind.DEPENDS_ON),
        Edge(
            "priv/secret-lint",
            "pub/lint-rules",
            EdgeKind.CONFLICTS_WITH,
            description="secret reason xyz",
        ),
    ]
    index = Index.open(path, embedder=HashingEmbedder(32), create=True)
    index.upsert(public + private, edges)
    return index


SECRETS = [
    "vault-secrets",
    "vault-mcp-cmd",
    "/secret/vault-path",
    "priv/",
    "secret-lint",
    "secret reason",
]


def _text(result: Any) -> str:
    return json.dumps(result.model_dump(mode="json"), ensure_ascii=False)


async def _drive_scenario(index_dir: Path, tmp: Path, world: World) -> list[str]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    found: list[str] = []
    held, fresh = tmp / "held", tmp / "fresh"
    fresh.mkdir()  # a project folder: install refuses one that is not there

    def params(index: Path, principals: str) -> StdioServerParameters:
        return StdioServerParameters(
            command=sys.executable,
            args=[
                "-m",
                "skill_retriever.cli",
                "mcp",
                "--index-dir",
                str(index),
                "--principals",
                principals,
            ],
            env={"HF_HUB_OFFLINE": "1", "OPENBLAS_NUM_THREADS": "1"},
        )

    async with stdio_client(params(index_dir, "alice")) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        answers = {
            "plan": await s.call_tool("install_components", {"ids": ["deploy-helper"], "target": str(fresh)}),
            "done": await s.call_tool(
                "install_components", {"ids": ["deploy-helper"], "target": str(fresh), "dry_run": False, "detail": "full"}
            ),
            "check": await s.call_tool("check_dependencies", {"ids": ["lint-rules"], "target": str(held)}),
            "search": await s.call_tool("search_components", {"query": "lint rules secret lint", "target": str(held), "detail": "full"}),
            "deploy": await s.call_tool("search_components", {"query": "deploy helper vault secrets", "detail": "full"}),
            "get": await s.call_tool("get_component", {"id": "formatter", "detail": "full"}),
        }  # fmt: skip
        status = json.loads((await s.read_resource(STATUS_URI)).contents[0].text)
        texts = {k: _text(v) for k, v in answers.items()} | {"status": json.dumps(status)}
        found += [f"{k}: {t}" for k, v in texts.items() for t in SECRETS if t in v]
        found += [f"{k} failed" for k, v in answers.items() if v.is_error]
        if (
            not answers["get"].is_error
            and answers["get"].structured_content["id"] != "pub/formatter"
        ):
            found.append("get_component answered another formatter")
        if status["nodes"] != 3:
            found.append(f"status counts {status['nodes']} nodes, 3 are visible")
        if (fresh / ".mcp.json").exists() or not (
            fresh / ".claude/skills/deploy-helper/SKILL.md"
        ).is_file():
            found.append("the install wrote the private server, or not the public skill")
        found += [f"file: {t}" for t in SECRETS if t in files_text(fresh)]
        # The private skill's own conflict is in the install record, so it is reported,
        # but only as "not shown": never its id, name or reason (SECRETS above).
        check = answers["check"].structured_content
        if check["installed"] or any(
            (c["source"], c.get("not_shown")) != (UNSEEN, UNSEEN_NAME) for c in check["conflicts"]
        ):
            found.append("check_dependencies saw the private installed skill")
        if [c["target"] for c in check["conflicts"]] != ["pub/lint-rules"]:
            found.append("check_dependencies missed the conflict the private skill declares")

    # a few random actions of the random world, for a caller holding "blue"
    rng = random.Random(9)
    hidden = world.hidden[json.dumps(["blue"])]
    async with stdio_client(params(world.index.path, "blue")) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        for n in range(12):
            tool, args = random_action(rng, world, tmp / "world" / f"t{n}")
            if tool == "status":
                answer = (await s.read_resource(STATUS_URI)).contents[0].text
            else:
                answer = _text(await s.call_tool(tool, args))
            found += [f"world {tool}: {t}" for t in leaks_in(without_echoes(answer, args), hidden)]
    return found


def test_the_issue_case_and_random_actions_over_stdio(world: World, tmp_path: Path) -> None:
    index = _scenario(tmp_path / "index")
    try:
        # the target already holds the private skill (installed by someone who sees it)
        install(index, ["priv/secret-lint"], tmp_path / "held", principals=["*"])
        assert (tmp_path / "held/.claude/skills/secret-lint/SKILL.md").is_file()

        async def run() -> list[str]:
            with anyio.fail_after(120):
                return await _drive_scenario(tmp_path / "index", tmp_path, world)

        found = anyio.run(run)
    finally:
        index.close()
    assert not found, found


def test_the_install_command_enforces_its_principals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skill_retriever.cli import main

    _scenario(tmp_path / "index").close()  # the command opens it itself
    target = tmp_path / "project"
    base = ["--target", str(target), "--index-dir", str(tmp_path / "index"), "--json"]
    assert main(["install", "deploy-helper", "--principals", "alice", *base]) == 0
    out = capsys.readouterr().out
    assert not [t for t in SECRETS if t in out or t in files_text(target)]
    assert not (target / ".mcp.json").exists()
    # the private server, asked for by id, is "no component" (exit 2), like one that does not exist
    assert main(["install", "priv/vault-secrets", "--principals", "alice", *base]) == 2
    assert "no component 'priv/vault-secrets'" in capsys.readouterr().err
    assert main(["install", "deploy-helper", "--principals", "red", *base]) == 0  # red sees it
    assert (
        json.loads((target / ".mcp.json").read_text())["mcpServers"]["vault-secrets"]["command"]
        == "vault-mcp-cmd"
    )
