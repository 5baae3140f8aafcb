"""Queries from many threads and from asyncio while a writer adds, updates and deletes:
no exception, no degraded phase, and every answer consistent with some committed state
(only ids that existed, each visible to the caller, with that id's own data)."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path
from typing import Any

from reliability_support import FULL, LABELS, VOCAB, build_index, count, make_nodes

from skill_retriever.config import RetrievalConfig
from skill_retriever.context import RetrievalContext
from skill_retriever.filters import Filters
from skill_retriever.graph import graph
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.rerank import EmbeddingReranker
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

SECONDS = 30.0 if FULL else 6.0
READERS = 6 if FULL else 4
ROUTES = [None, "smart", "ppr", "quick"]
PRINCIPALS: list[list[str] | None] = [None, [], ["red"], ["blue", "green"], ["*"]]


def churn_nodes(n: int = 24) -> dict[str, Node]:
    """Items the writer adds and deletes; each id keeps its name and access for life."""
    rng = random.Random(3)
    out = {}
    for i in range(n):
        words = rng.sample(VOCAB, 5)
        out[f"churn-{i:03d}"] = Node(
            id=f"churn-{i:03d}",
            kind=NodeKind.SKILL,
            name=f"{words[0]} churn{i}",
            text=" ".join(words) + f" churn item {i}",
            access=() if i % 2 else (LABELS[i % 3],),
        )
    return out


class Checker:
    def __init__(self, defs: dict[str, Node]) -> None:
        self.defs = defs
        self.errors: list[str] = []
        self.answers = 0
        self.lock = threading.Lock()

    def fail(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)

    def results(self, results: list[dict[str, Any]], warnings: list[str], principals: list[str] | None) -> None:
        f = Filters(principals=principals)
        # A phase that failed under load says so; other warnings are about the query (a
        # time no item can answer, say), whatever the load.
        if degraded := [w for w in warnings if "failed and was skipped" in w]:
            self.fail(f"phases degraded under load: {degraded}")
        for r in results:
            node = self.defs.get(r["id"])
            if node is None:
                self.fail(f"result {r['id']!r} never existed")
                continue
            if not f.can_see(node):
                self.fail(f"result {r['id']!r} is not visible to {principals}")
            if r["name"] != node.name or r["kind"] != node.kind.value:
                self.fail(f"result {r['id']!r} carries another item's data: {r['name']!r}")
            for step in (r.get("path") or {}).get("nodes", []):
                if step not in self.defs or not f.can_see(self.defs[step]):
                    self.fail(f"path of {r['id']!r} goes through {step!r}")
        with self.lock:
            self.answers += 1


def writer(index: Index, churn: dict[str, Node], base: list[str], stop: threading.Event, checker: Checker) -> None:
    rng = random.Random(11)
    ids = list(churn)
    writes = 0
    try:
        while not stop.is_set():
            chosen = rng.sample(ids, 3)
            present = [i for i in chosen if i in index]
            absent = [i for i in chosen if i not in index]
            if present and rng.random() < 0.5:
                index.delete(present)
            else:
                nodes = [churn[i] for i in absent]
                if present and rng.random() < 0.5:  # an update of the text (same name, same access)
                    nodes.append(churn[present[0]].with_changes(text=churn[present[0]].text + f" v{writes}"))
                edges = [Edge(n.id, rng.choice(base), rng.choice(list(EdgeKind))) for n in nodes]
                index.upsert(nodes, edges)
            writes += 1
    except Exception as exc:  # noqa: BLE001 - any error fails the test: it is collected, not swallowed
        checker.fail(f"writer: {type(exc).__name__}: {exc}")
    count("concurrent_writes", writes)


def reader(retriever: Retriever, seed: int, stop: threading.Event, checker: Checker) -> None:
    rng = random.Random(seed)
    try:
        while not stop.is_set():
            principals = rng.choice(PRINCIPALS)
            query = " ".join(rng.sample(VOCAB, rng.randint(1, 6))) + rng.choice(["", " churn3", " in the last 24h", " and then"])
            resp = retriever.search(query, route=rng.choice(ROUTES), principals=principals, k=8)
            checker.results([r.__dict__ | {"path": {"nodes": list(r.path)}} for r in resp.results], resp.warnings, principals)
            if rng.random() < 0.1:
                index = retriever.index
                index.status()
                len(index.snapshot().edges)
    except Exception as exc:  # noqa: BLE001 - collected; the test fails on it
        checker.fail(f"reader: {type(exc).__name__}: {exc}")


async def async_queries(context: RetrievalContext, retriever: Retriever, stop: threading.Event, checker: Checker) -> None:
    rng = random.Random(5)

    async def one(i: int) -> None:
        principals = rng.choice(PRINCIPALS)
        query = " ".join(rng.sample(VOCAB, 3))
        if i % 2:
            out = await graph.ainvoke(
                {"query": query, "filters": {"principals": principals} if principals is not None else {}, "k": 8},
                context=context,
            )
            checker.results(out["results"], out["warnings"], principals)
        else:
            resp = await asyncio.to_thread(retriever.search, query, principals=principals, k=8)
            checker.results([r.__dict__ | {"path": {"nodes": list(r.path)}} for r in resp.results], resp.warnings, principals)

    while not stop.is_set():
        results = await asyncio.gather(*(one(i) for i in range(8)), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException):
                checker.fail(f"asyncio: {type(r).__name__}: {r}")


def test_reads_while_writing_see_committed_states(tmp_path: Path) -> None:
    index = build_index(tmp_path / "index", n=30)
    churn = churn_nodes()
    defs = {n.id: n for n in make_nodes(30)} | churn
    checker = Checker(defs)
    config = RetrievalConfig(rerank_top_n=10)
    reranker = EmbeddingReranker(index.embedder)
    retriever = Retriever(index, config, reranker=reranker, cache_size=0)
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(index, churn, [n for n in defs if n.startswith("item-")], stop, checker))]
    threads += [threading.Thread(target=reader, args=(retriever, s, stop, checker)) for s in range(READERS)]
    try:
        for t in threads:
            t.start()
        context = RetrievalContext(index=index, config=config, reranker=reranker)

        async def main() -> None:
            task = asyncio.create_task(async_queries(context, retriever, stop, checker))
            await asyncio.sleep(SECONDS)
            stop.set()
            await task

        asyncio.run(main())
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
    count("concurrent_answers", checker.answers)
    assert not checker.errors, checker.errors[:10]
    assert checker.answers > 20
    # The index is still whole: SQLite, vectors and memory agree after the storm.
    status = index.status()
    assert status["vectors"]["nodes"] == status["nodes"] == len(index)
    final = set(index.nodes)
    index.close()
    reopened = Index.open(tmp_path / "index", embedder=index.embedder)
    try:
        assert set(reopened.nodes) == final
    finally:
        reopened.close()


def test_a_slow_query_does_not_block_writes(tmp_path: Path) -> None:
    """Writers never wait for readers: a write lands while queries run back to back."""
    index = build_index(tmp_path / "index", n=20)
    retriever = Retriever(index, reranker=None, cache_size=0)
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            retriever.search("deploy postgres canary", k=5)

    t = threading.Thread(target=spin)
    t.start()
    try:
        started = time.perf_counter()
        index.upsert([Node(id="late", kind="skill", name="late", text="late arrival deploy")])
        assert time.perf_counter() - started < 10
        assert "late" in index
    finally:
        stop.set()
        t.join()
        index.close()
