"""The report's cross-set parts: the headline metric of every set side by side, where
"full" stands against each family's goal, and which sets the quick profile cut.

A method that failed on every query of a set reads ``FAILED`` here, is never a set's best
peer or best of ours, and leaves its goal row without a verdict (:mod:`~skill_retriever.bench.figures`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skill_retriever.bench.figures import NA, failed_all, pct, score, score_cell
from skill_retriever.bench.tables import HEADLINE, table

__all__ = ["GOAL_OVER_BEST_PEER", "HIPPORAG_R5", "MIN_VERDICT_QUERIES", "goal_rows", "goals_lines", "set_label",
           "subset_of", "subsets_note", "summary_lines"]

#: Families whose sets are judged and compared with the peers.
RETRIEVAL_FAMILIES = ("multihop", "skills", "toolret")


def summary_lines(sections: list[dict[str, Any]], md: bool) -> list[str]:
    out: list[str] = []
    for family in RETRIEVAL_FAMILIES:
        secs = [s for s in sections if s.get("family") == family]
        if not secs:
            continue
        metric = HEADLINE[family]
        methods: list[str] = []
        for s in secs:
            for m in s["methods"]:
                if m not in methods:
                    methods.append(m)
        header = ["method", *[s["name"] + (" (quick subset)" if subset_of(s) is not None else "") for s in secs]]
        rows = [[m, *[score_cell(s, m, metric) for s in secs]] for m in methods]
        rows.append(["best peer", *[_cell(_best(s, metric, ("peer",))[1]) for s in secs]])
        out.append(f"{'#### ' if md else ''}{family}: {metric}")
        if md:
            out.append("")
        out += table(header, rows, md)
        out.append("")
    return out


def _cell(value: float | None) -> str:
    """A best-of figure: ``n/a`` when no method of the kind measured anything."""
    return NA if value is None else pct(value)


#: HippoRAG (ColBERTv2) single-step R@5, Table 2 of arXiv 2405.14831 (1,000-question
#: subsets; see data/multihop/PUBLISHED.md). Our 2wiki set shares its corpus; the others
#: differ in questions and corpus, so these are reference points, not like-for-like.
HIPPORAG_R5 = {"2wikimultihopqa": 89.1, "musique_hipporag_train100": 51.9, "hotpotqa": 77.7,
               "hotpotqa_hipporag_train100": 77.7}


def _best(section: dict[str, Any], metric: str, families: Sequence[str]) -> tuple[str, float | None]:
    """The best method of these families and its score, leaving out those that failed on
    every query; ``("-", None)`` when none is left."""
    found = [(n, score(section, n, metric) or 0.0) for n, m in section["methods"].items()
             if m["family"] in families and not failed_all(section, n)]
    return max(found, key=lambda p: p[1]) if found else ("-", None)


#: How far "full" should be over the best peer, per family (the issues' goals): multi-hop
#: R@5 +5; skills nDCG@10 +10; tool sets nDCG@10 and Completeness@10 +3 each (issue 14).
GOAL_OVER_BEST_PEER = {"multihop": 0.05, "skills": 0.10, "toolret": 0.03}


def subset_of(section: dict[str, Any]) -> str | None:
    """What part of its set a section measured, when the quick profile cut it (fewer
    questions; for multi-hop, a corpus of their gold passages and a few distractors, far
    easier than the whole): its figures then stand beside the same run's peers only, never
    against a goal or a published figure. None for a set measured whole."""
    if not section.get("quick"):
        return None
    said = next((n for n in section.get("notes", []) if isinstance(n, str) and n.startswith("quick: ")), None)
    return said.removeprefix("quick: ") if said else f"quick profile, {section.get('queries', '?')} queries"


def subsets_note(sections: list[dict[str, Any]]) -> list[str]:
    """The report's paragraph naming the sets the quick profile cut (none: no lines). The
    seed battery and the start-up section measure no set (start-up has no name)."""
    cut = [f"{s.get('family')}/{s.get('name')}" for s in sections
           if s.get("family") not in (None, "battery") and subset_of(s) is not None]
    if not cut:
        return []
    return [(f"Subsets ({', '.join(dict.fromkeys(cut))}): the quick profile measured part of these sets. Their "
             "figures compare the methods of this run with one another, not with the goals, full runs or "
             "published figures (run without --quick for those)."), ""]


def set_label(section: dict[str, Any]) -> str:
    """``family/name``, marked when the section measured a subset (`subset_of`)."""
    name = f"{section.get('family')}/{section.get('name')}"
    return f"{name} (quick subset)" if subset_of(section) is not None else name


#: Fewer judged queries than this get no verdict against a goal: on ``--max-queries 5`` one
#: query moves a mean by 20 points, and "met" read like the measured set's verdict.
MIN_VERDICT_QUERIES = 30


def goal_rows(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every set's rows against its goal, for report.json: the figures (fractions) and the
    verdict ("met", "not met", "too few queries", "subset" or "no verdict") with the words
    report.md gives it."""
    rows = []
    for s in sections:
        fam = s.get("family")
        if fam not in RETRIEVAL_FAMILIES:
            continue
        for metric in (("R@5",) if fam == "multihop" else ("nDCG@10", "C@10") if fam == "toolret" else ("nDCG@10",)):
            rows.append({"set": f"{fam}/{s.get('name')}", "metric": metric, **_goal(s, metric)})
    return rows


def goals_lines(sections: list[dict[str, Any]], md: bool) -> list[str]:
    """Where we stand against the issue's goals (not pass/fail of the benchmark)."""
    header = ["set", "metric", "best peer", "full", "full+rerank", "best of ours", "full - best peer", "goal"]
    rows = [[set_label(s), metric, *_goal_cells(s, metric)] for s in sections if s.get("family") in RETRIEVAL_FAMILIES
            for metric in (("R@5",) if s["family"] == "multihop" else ("nDCG@10", "C@10") if s["family"] == "toolret"
                           else ("nDCG@10",))]
    out: list[str] = []
    if rows:
        out += table(header, rows, md)
    for s in sections:
        if s.get("section") == "speed" and s.get("sizes"):
            big = s["sizes"][-1]
            dense = big["dense"]["e2e"]["p50"]
            parts = [f"{r} p50 {v['e2e']['p50']:.1f} ms ({v['e2e']['p50'] / max(dense, 1e-9):.1f}x)"
                     for r, v in big["routes"].items() if "rerank" not in r]
            out += ["", f"At {big['nodes']:,} nodes, dense search p50 {dense:.1f} ms (goal: no-rerank p50 within 2x): "
                    + "; ".join(parts)]
    return out


def judged_queries(s: dict[str, Any]) -> int | None:
    """How many queries a set's figures average over (those with judgments); None when the
    result does not say."""
    judged = s.get("methods", {}).get("full", {}).get("judged")
    if isinstance(judged, int):
        return judged
    return s["queries"] if isinstance(s.get("queries"), int) else None


def _goal(s: dict[str, Any], metric: str) -> dict[str, Any]:
    """One goal row's figures and verdict. A gap needs both ends: no verdict when either
    failed; none on a quick subset, nor on fewer than `MIN_VERDICT_QUERIES` queries."""
    peer_name, peer = _best(s, metric, ("peer",))
    ours_name, ours = _best(s, metric, ("route", "pipeline", "ablation"))
    full = score(s, "full", metric)
    target = GOAL_OVER_BEST_PEER[s["family"]]
    subset, n = subset_of(s), judged_queries(s)
    gap: float | None = None
    if failed_all(s, "full") or peer is None:
        why = "'full' failed on every query" if failed_all(s, "full") else "every peer failed"
        verdict, goal = "no verdict", f"no verdict: {why} (see its section)"
    else:
        gap = round((full or 0.0) - peer, 6)
        if subset is not None:  # no verdict, no published figure: neither measured this
            verdict = "subset"
            goal = (f"not comparable: a subset ({subset}); no verdict on the goal (>= +{100 * target:.0f}) "
                    "nor against published figures; run without --quick to measure the whole set")
        elif n is not None and n < MIN_VERDICT_QUERIES:
            verdict = "too few queries"
            goal = (f"n={n}, too few queries to judge (a verdict needs {MIN_VERDICT_QUERIES}; goal >= "
                    f"+{100 * target:.0f}); raise --max-queries or run the whole set")
        else:
            verdict = "met" if gap >= target - 1e-9 else "not met"
            goal = f">= +{100 * target:.0f}: {verdict}"
            if s["family"] == "multihop" and s["name"] in HIPPORAG_R5:
                goal += f"; HippoRAG R@5 {HIPPORAG_R5[s['name']]} (its 1,000 questions: a reference, not like-for-like)"
    return {"queries": n, "best_peer": peer_name, "best_peer_score": peer, "full": full, "full+rerank":
            score(s, "full+rerank", metric), "best_of_ours": ours_name, "best_of_ours_score": ours, "gap": gap,
            "target": target, "verdict": verdict, "goal": goal}


def _goal_cells(s: dict[str, Any], metric: str) -> list[str]:
    """One goal row past its set and metric: best peer, full, full+rerank, best of ours,
    the gap and the verdict (`_goal`)."""
    g = _goal(s, metric)
    peer, ours = g["best_peer_score"], g["best_of_ours_score"]
    return [f"{_cell(peer)} ({g['best_peer']})" if peer is not None else NA, score_cell(s, "full", metric),
            score_cell(s, "full+rerank", metric), f"{_cell(ours)} ({g['best_of_ours']})" if ours is not None else NA,
            NA if g["gap"] is None else f"{100 * g['gap']:+.1f}", g["goal"]]
