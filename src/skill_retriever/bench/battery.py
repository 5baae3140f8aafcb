"""The seed battery: invariants of fusion, budget and results, each a PASS or a FAIL.

The RRF references are computed by hand below from the formula of Cormack, Clarke and
Büttcher (2009), ``score(d) = Σ_c 1 / (k + rank_c(d))`` with k = 60 and ranks from 1.
The pipeline checks run real searches on the incident world's index.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from skill_retriever.algorithms.budget import pack_to_budget, token_counter
from skill_retriever.algorithms.rrf import reciprocal_rank_fusion
from skill_retriever.bench.common import BenchRun, Result, write_json
from skill_retriever.bench.world_queries import generate_queries
from skill_retriever.retriever import Retriever


@dataclass(frozen=True)
class Check:
    """One battery check and what it found."""

    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        """``PASS  name: detail`` (or FAIL), as printed."""
        return f"{'PASS' if self.ok else 'FAIL'}  {self.name}: {self.detail}"


def _close(a: float, b: float) -> bool:
    """Equal up to float rounding (the references are exact decimals of the fractions)."""
    return math.isclose(a, b, rel_tol=0.0, abs_tol=1e-12)


def check_rrf_reference() -> Check:
    """Three channels, k = 60, worked by hand:

    A = [d1, d2, d3], B = [d3, d1, d4], C = [d2, d1]

    d1 = 1/61 + 1/62 + 1/62 = 0.016393442622950820 + 2 * 0.016129032258064516 = 0.048651507139079855
    d2 = 1/62 + 1/61        = 0.016129032258064516 + 0.016393442622950820 = 0.032522474881015330
    d3 = 1/63 + 1/61        = 0.015873015873015872 + 0.016393442622950820 = 0.032266458495966696
    d4 = 1/63               = 0.015873015873015872
    order d1 > d2 > d3 > d4.
    """
    expected = [("d1", 0.048651507139079855), ("d2", 0.032522474881015330),
                ("d3", 0.032266458495966696), ("d4", 0.015873015873015872)]
    fused = reciprocal_rank_fusion({"A": ["d1", "d2", "d3"], "B": ["d3", "d1", "d4"], "C": ["d2", "d1"]}, k=60)
    got = [(f.id, f.score) for f in fused]
    ok = [i for i, _ in got] == [i for i, _ in expected] and all(_close(g, e) for (_, g), (_, e) in zip(got, expected))
    ok = ok and dict(fused[0].ranks) == {"A": 1, "B": 2, "C": 2}
    return Check("rrf matches Cormack et al. 2009 (hand-computed, k=60)", ok,
                 "; ".join(f"{i}={s:.15f}" for i, s in got))


def check_rrf_k() -> Check:
    """k changes the weight of the top: with k = 1, A = [x, y], B = [y]:
    x = 1/2 = 0.5, y = 1/3 + 1/2 = 0.8333333333333334 (y first); with k = 60:
    x = 1/61 = 0.01639344262295082, y = 1/62 + 1/61 = 0.032522474881015330."""
    f1 = {f.id: f.score for f in reciprocal_rank_fusion({"A": ["x", "y"], "B": ["y"]}, k=1)}
    f60 = {f.id: f.score for f in reciprocal_rank_fusion({"A": ["x", "y"], "B": ["y"]}, k=60)}
    ok = _close(f1["x"], 0.5) and _close(f1["y"], 0.8333333333333334) and _close(f60["x"], 0.01639344262295082) \
        and _close(f60["y"], 0.032522474881015330)
    return Check("rrf constant k", ok, f"k=1: x={f1['x']:.6f} y={f1['y']:.6f}; k=60: x={f60['x']:.6f} y={f60['y']:.6f}")


def check_multi_channel_wins() -> Check:
    """At equal ranks an item found by more channels ranks higher:

    * p at rank 1 in A and B (2/61 = 0.0328) beats q at rank 1 in C (1/61 = 0.0164);
    * a tie on score: u at rank 120 in two channels (2/180 = 1/90) and v at rank 30 in one
      (1/90): equal scores, and the item in two channels comes first.
    """
    fused = reciprocal_rank_fusion({"A": ["p"], "B": ["p"], "C": ["q"]})
    first = [f.id for f in fused] == ["p", "q"]
    fill = [f"f{i}" for i in range(119)]
    fill_c = [f"g{i}" for i in range(29)]
    tie = reciprocal_rank_fusion({"A": fill + ["u"], "B": [f"h{i}" for i in range(119)] + ["u"], "C": fill_c + ["v"]})
    scores = {f.id: f.score for f in tie}
    order = [f.id for f in tie]
    tie_ok = _close(scores["u"], scores["v"]) and order.index("u") < order.index("v")
    return Check("items in several channels rank above items in one at equal ranks", first and tie_ok,
                 f"p {dict(fused[0].ranks)} over q; tie u={scores['u']:.6f} (2 channels, rank 120) "
                 f"placed {'before' if tie_ok else 'after'} v={scores['v']:.6f} (1 channel, rank 30)")


def check_budget_algorithm() -> Check:
    """Counts a=100, b=50, c=80, budget 160: a+b = 150 fits, +c = 230 does not -> (a, b).
    The first item that does not fit ends the answer, so what is kept is a prefix of the
    ranking: a=500 first -> (), 0 tokens. With ``fill=True`` it is skipped and packing goes
    on -> (b, c), 130. Budget 0 keeps nothing."""
    counts = {"a": 100, "b": 50, "c": 80}
    big_first = {**counts, "a": 500}
    one = pack_to_budget(["a", "b", "c"], counts, 160)
    two = pack_to_budget(["a", "b", "c"], big_first, 160)
    filled = pack_to_budget(["a", "b", "c"], big_first, 160, fill=True)
    zero = pack_to_budget(["a"], {"a": 1}, 0)
    ok = one.kept == ("a", "b") and one.total_tokens == 150 and two.kept == () and two.total_tokens == 0 \
        and filled.kept == ("b", "c") and filled.total_tokens == 130 and zero.kept == ()
    return Check("budget packing keeps the best-ranked prefix that fits (fill=True skips and goes on)", ok,
                 f"kept {one.kept} ({one.total_tokens} tokens); too big first: {two.kept} ({two.total_tokens}), "
                 f"with fill {filled.kept} ({filled.total_tokens}); budget 0 -> {zero.kept}")


def pipeline_checks(retriever: Retriever, queries: list[str]) -> list[Check]:
    """Real searches: fields of every result, fusion score = RRF of its ranks (RRF asked
    for: the incident world fuses by scores by default), the default's scores in order,
    budget bound, rerank never adds an item."""
    count = token_counter()
    nodes = retriever.index.snapshot().nodes
    problems: list[str] = []
    rerank_missing = 0
    fusion_bad = 0
    order_bad = 0
    n_results = 0
    degraded: list[str] = []
    for q in queries:
        for route in (None, "quick", "ppr", "smart"):
            resp = retriever.search(q, k=10, route=route, principals=["*"], rerank=True, fusion="rrf")
            degraded += [f"{p}: {resp.stats[p]['failed']}" for p in resp.failed_phases]
            # the weights fusion used for this query (a typed hop raises the graph's)
            weights = resp.stats["fuse_rrf"]["weights"]
            for r in resp.results:
                n_results += 1
                if not isinstance(r.fusion_score, float) or r.fusion_score <= 0:
                    problems.append(f"{r.id}: fusion_score {r.fusion_score!r}")
                if r.rerank_score is None:
                    rerank_missing += 1
                if not isinstance(r.token_count, int) or r.token_count != count(nodes[r.id].embedding_text()):
                    problems.append(f"{r.id}: token_count {r.token_count!r}")
                if not r.channels or not all(isinstance(v, int) and v >= 1 for v in r.channels.values()):
                    problems.append(f"{r.id}: channel ranks {dict(r.channels)!r}")
                expected = math.fsum(weights[ch] / (60 + rank) for ch, rank in r.channels.items())
                if not math.isclose(r.fusion_score, expected, rel_tol=1e-9):
                    fusion_bad += 1
            plain = retriever.search(q, k=10, route=route, principals=["*"], rerank=False)
            scores = [r.fusion_score for r in plain.results]
            if scores != sorted(scores, reverse=True):
                order_bad += 1
    fields = Check("every result carries fusion_score, rerank_score, token_count and channel ranks",
                   not problems and rerank_missing == 0,
                   f"{n_results} results over {len(queries)} queries x 4 routes, rerank on; "
                   f"{rerank_missing} without rerank_score; " + ("; ".join(problems[:3]) or "no bad field"))
    fusion = Check("fusion_score is the weighted RRF of the result's channel ranks (k=60; fusion='rrf'), and the "
                   "default's fused list is in score order",
                   fusion_bad == 0 and order_bad == 0,
                   f"{fusion_bad} mismatching scores, {order_bad} lists out of order (rerank off)")
    over = 0
    budgets = (0, 50, 120, 300)
    for q in queries:
        full = retriever.search(q, k=10, principals=["*"], rerank=False)
        for b in budgets:
            cut = retriever.search(q, k=10, budget=b, principals=["*"], rerank=False)
            total = sum(r.token_count for r in cut.results)
            # kept = the longest prefix of the unbudgeted ranking that fits
            prefix: list[str] = []
            used = 0
            for r in full.results:
                if used + r.token_count > b:
                    break
                prefix.append(r.id)
                used += r.token_count
            if total > b or cut.ids != prefix:
                over += 1
    budget = Check("the token budget is respected (kept = the longest prefix of the ranking that fits)", over == 0,
                   f"{len(queries)} queries x budgets {budgets}: {over} violations")
    added = 0
    for q in queries:
        wide = set(retriever.search(q, k=retriever.config.rerank_top_n or retriever.config.k, principals=["*"], rerank=False).ids)
        ranked = retriever.search(q, k=10, principals=["*"], rerank=True).ids
        added += sum(1 for i in ranked if i not in wide)
    rerank = Check("rerank only reorders the fused top N (never adds an item)", added == 0,
                   f"{added} reranked results outside the fused top {retriever.config.rerank_top_n or retriever.config.k}")
    healthy = Check("no phase failed or degraded in these searches", not degraded,
                    f"{len(degraded)} warnings" + (f": {degraded[0][:160]}" if degraded else ""))
    return [healthy, fields, fusion, budget, rerank]


def run_battery(run: BenchRun) -> None:
    """The reference checks, then real searches on the incident world; a FAIL marks the
    run failed (the command exits 1)."""
    started = time.perf_counter()
    run.log("\n== seed battery")
    checks = [check_rrf_reference(), check_rrf_k(), check_multi_channel_wins(), check_budget_algorithm()]
    world = run.incident_world()
    queries = [q.text for q in generate_queries(world.world, per_shape=2 if run.opts.quick else 4)]
    checks += pipeline_checks(world.retriever, queries)
    result: Result = {
        "section": "battery", "family": "battery", "name": "seed battery", "key": "battery",
        "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in checks],
        "passed": sum(c.ok for c in checks), "failed": sum(not c.ok for c in checks),
        "seconds": round(time.perf_counter() - started, 1), **run.stamp(),
    }
    write_json(run.results / "battery.json", result)
    run.failed = run.failed or result["failed"] > 0
    run.publish(result)
