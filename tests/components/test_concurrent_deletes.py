"""Issue 12, item 6: component searches, dependency checks and the MCP tools run while
another thread deletes and re-adds components (with their requirements and conflicts):
no KeyError, no MissingNodeError, no unexplained tool error. Each request reads one
pinned snapshot, so the only "not found" an agent can get is for an id already gone
when its call began, and that one says what to do."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import anyio
from component_catalogue import sid

from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.components.install import install
from skill_retriever.components.service import ComponentService
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

WORDS = ["deploy", "schema", "logging", "tracing", "lint", "format", "release", "cache"]
BASE = [sid(n) for n in ("api-style", "json-logging", "redact-pii", "ruff-lint", "black-style")]


def churn() -> tuple[dict[str, Node], list[Edge]]:
    rng = random.Random(4)
    nodes = {
        f"churn/{i:02d}": Node(
            id=f"churn/{i:02d}",
            kind=NodeKind.SKILL,
            name=f"churn-{i:02d}",
            description=f"{' '.join(rng.sample(WORDS, 2))} helper {i}",
            text=" ".join(rng.sample(WORDS, 4)) + f" churn item {i}",
        )
        for i in range(16)
    }
    ids = list(nodes)
    edges = [Edge(i, rng.choice(BASE), EdgeKind.DEPENDS_ON) for i in ids]
    edges += [
        Edge(ids[k], ids[(k + 1) % len(ids)], EdgeKind.DEPENDS_ON) for k in range(0, len(ids), 2)
    ]
    edges += [
        Edge(ids[k], ids[(k + 3) % len(ids)], EdgeKind.CONFLICTS_WITH, description="churn clash")
        for k in range(0, len(ids), 3)
    ]
    return nodes, edges


class Errors:
    def __init__(self) -> None:
        self.found: list[str] = []
        self.answers = 0
        self.lock = threading.Lock()

    def add(self, what: str) -> None:
        with self.lock:
            self.found.append(what)

    def answered(self) -> None:
        with self.lock:
            self.answers += 1


def writer(
    index: Index, nodes: dict[str, Node], edges: list[Edge], stop: threading.Event, errors: Errors
) -> None:
    rng = random.Random(8)
    try:
        while not stop.is_set():
            present = [i for i in nodes if i in index]
            if present and rng.random() < 0.5:
                index.delete(rng.sample(present, min(3, len(present))))
            else:
                back = {i for i in nodes if i not in index} | set(rng.sample(list(nodes), 2))
                # an edge needs both ends: only those whose ends are in or coming back
                known = back | {i for i in nodes if i in index} | set(BASE)
                index.upsert(
                    [nodes[i] for i in back], [e for e in edges if {e.source, e.target} <= known]
                )
    except Exception as exc:  # noqa: BLE001 - collected: the test fails on it
        errors.add(f"writer: {type(exc).__name__}: {exc}")


def service_reader(
    service: ComponentService, target: Path, seed: int, stop: threading.Event, errors: Errors
) -> None:
    rng = random.Random(seed)
    ids = [f"churn/{i:02d}" for i in range(16)]
    try:
        while not stop.is_set():
            if rng.random() < 0.6:
                query = " ".join(rng.sample(WORDS, 3)) + " churn"
                service.search(
                    query, k=5, target=target, drop_conflicts=rng.random() < 0.5, rerank=False
                )
            else:
                service.check_dependencies(
                    rng.sample(ids, 4) + [sid("web-scaffold")], target=target
                )
            errors.answered()
    except Exception as exc:  # noqa: BLE001 - collected: the test fails on it
        errors.add(f"service: {type(exc).__name__}: {exc}")


def mcp_reader(server: Any, target: Path, stop: threading.Event, errors: Errors) -> None:
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError

    rng = random.Random(2)

    async def run() -> None:
        while not stop.is_set():
            ref = f"churn/{rng.randrange(16):02d}"
            tool, args = rng.choice([
                ("search_components", {"query": " ".join(rng.sample(WORDS, 3)), "target": str(target)}),
                ("get_component", {"id": ref}),
                ("check_dependencies", {"ids": [ref, sid("web-scaffold")], "target": str(target)}),
                ("install_components", {"ids": [ref], "target": str(target / "plan"), "allow_conflicts": True}),
            ])  # fmt: skip
            try:
                await server.call_tool(tool, args)
            except UnexpectedToolError as exc:
                errors.add(f"mcp {tool}: unexpected {exc.__cause__!r}")
            except ToolError as exc:  # only "gone before the call began" is a fair answer
                if f"no component {ref!r}; call search_components" not in str(exc):
                    errors.add(f"mcp {tool}: {exc}")
            errors.answered()

    try:
        anyio.run(run)
    except Exception as exc:  # noqa: BLE001 - collected: the test fails on it
        errors.add(f"mcp: {type(exc).__name__}: {exc}")


def test_requests_survive_concurrent_deletes(hashed_index: Index, tmp_path: Path) -> None:
    nodes, edges = churn()
    hashed_index.upsert(list(nodes.values()), edges)
    target = tmp_path / "project"
    install(hashed_index, [sid("ruff-lint"), "churn/03"], target)  # something installed to match
    (target / "plan").mkdir(parents=True)  # the MCP tools plan into an existing project folder only
    retriever = Retriever(hashed_index, reranker=None, cache_size=0)
    service = ComponentService(hashed_index, retriever, principals=["*"])
    server = build_server(hashed_index, retriever=retriever, principals=["*"])
    errors = Errors()
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(hashed_index, nodes, edges, stop, errors))]
    threads += [
        threading.Thread(target=service_reader, args=(service, target, seed, stop, errors))
        for seed in (1, 2)
    ]
    threads.append(threading.Thread(target=mcp_reader, args=(server, target, stop, errors)))
    for t in threads:
        t.start()
    try:
        stop.wait(5.0)  # how long the storm lasts; nothing is asserted about time
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
    assert not errors.found, errors.found[:10]
    assert errors.answers > 20
