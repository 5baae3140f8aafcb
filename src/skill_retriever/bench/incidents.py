"""The ``incidents`` section: each channel alone, the fusion, fusion + rerank, the fusion
as a user types it (no kinds filter), and the peers on the incident world (:mod:`~skill_retriever.bench.world`), by query shape
(:mod:`~skill_retriever.bench.world_queries`)."""

from __future__ import annotations

import time

from skill_retriever.bench.common import BenchRun, Result, write_json
from skill_retriever.bench.datasets import FAMILY_METRICS, EvalQuery
from skill_retriever.bench.evaluate import broken_methods, evaluate
from skill_retriever.bench.latency import section_latency
from skill_retriever.bench.methods import Method, Ranked, channel_methods, peer_methods
from skill_retriever.bench.world_queries import generate_queries
from skill_retriever.retriever import Retriever


def run_incidents(run: BenchRun) -> None:
    """Rank the world's queries with every method; write ``incidents.json`` and the ranked
    ids per query (``incidents.queries.json``)."""
    started = time.perf_counter()
    per_shape = 10 if run.opts.quick else 25
    shared = run.incident_world()
    world, retriever = shared.world, shared.retriever
    queries = generate_queries(world, per_shape=per_shape)
    size = world.summary()
    run.log(f"\n== incidents: {len(queries)} queries over a generated world: seed {size['seed']}, "
            f"{size['services']} services, {size['deploys']} deploys, {size['incidents']} incidents")
    methods = peer_methods(shared.index, None, run.opts.k) + channel_methods(retriever, None, run.opts.k)
    methods.append(_unfiltered(retriever, run.opts.k))
    metrics = FAMILY_METRICS["incidents"]
    summary, per_query = evaluate(queries, methods, metrics, run.log)
    run.fail_if_broken(broken_methods(summary, len(queries)))
    latency = section_latency(run, shared.index, [q.text for q in queries], None, world.now)
    reranker = retriever.reranker
    result: Result = {
        "section": "incidents", "family": "incidents", "name": "world", "key": "incidents",
        "metrics": list(metrics), "queries": len(queries), "world": world.summary(), "build": shared.build.to_dict(),
        "notes": [f"{per_shape} queries per shape; every method ranks only the kind the answer has "
                  "(incident or deploy) but 'fusion, no kinds filter'; now fixed at " + world.now.isoformat()],
        "reranker": reranker.name if reranker else None, "methods": summary, "latency": latency,
        "seconds": round(time.perf_counter() - started, 1), **run.stamp(),
    }
    # The result last: the section is written in full once it is there (`reuse`).
    write_json(run.results / "incidents.queries.json",
               {"queries": [{"id": q.id, "text": q.text, "shape": q.group, "answers": list(q.relevant)} for q in queries],
                "ranked": per_query})
    write_json(run.results / "incidents.json", result)
    run.publish(result)


def _unfiltered(retriever: Retriever, k: int) -> Method:
    """The default search with no kinds filter, as a user types the question: every kind
    may rank, so the question's own words must say which kind it asks for."""

    def run(q: EvalQuery) -> Ranked:
        start = time.perf_counter()
        resp = retriever.search(q.text, k=k, principals=["*"], rerank=False)
        return Ranked(resp.ids, (time.perf_counter() - start) * 1000.0, route=resp.route)

    return Method("fusion, no kinds filter", "pipeline", run, "the default search, no rerank, no kinds filter")
