"""Queries with known answers over the incident world, one shape per channel.

Query shapes, each answerable by one channel and hard for the others:

* ``conceptual`` -- a paraphrase of a symptom with little word overlap ("containers kept
  dying after running out of RAM" for "memory leak ... OOM-killed"): semantic.
* ``exact`` -- an identifier (``INC-1043``, ``deploy-v3.5.0``): keyword. MiniLM's word
  pieces make every ``INC-10xx`` look alike.
* ``connected`` -- "which deploy touched a service that checkout-api depends on?": the
  answer never names checkout-api; two hops in the graph.
* ``recent`` -- "incidents in the last 24h": temporal; nothing in the text says when.
* ``mixed`` -- a symptom paraphrase with a service name or a time window, or incidents on
  the dependencies of a service in a time window.

Each query carries the kind its answers have (``incident`` or ``deploy``), and every
method is run with that kinds filter, so all of them rank the same candidates.
"""

from __future__ import annotations

import math
import random
from datetime import timedelta

from skill_retriever.bench.datasets import EvalQuery
from skill_retriever.bench.world import SYMPTOMS, World
from skill_retriever.model import NodeKind

SHAPES = ("conceptual", "exact", "connected", "recent", "mixed")


def _window_phrase(rng: random.Random, hours: float) -> tuple[str, timedelta]:
    """A phrase the temporal parser reads, covering at least ``hours``."""
    options = [(f"in the last {h} hours", timedelta(hours=h)) for h in (24, 36, 48, 72) if h >= hours]
    options += [(f"in the past {d} days", timedelta(days=d)) for d in (2, 3, 5, 7, 10, 14) if d * 24 >= hours]
    if hours <= 24:
        options.append(("in the last 24h", timedelta(hours=24)))
    return options[rng.randrange(min(len(options), 3))] if options else ("in the past 30 days", timedelta(days=30))


def generate_queries(world: World, per_shape: int = 20, seed: int = 11) -> list[EvalQuery]:
    """Up to ``per_shape`` distinct queries of each shape with their answer sets (never
    empty); a shape the world cannot fill gets fewer."""
    rng = random.Random(seed)
    now = world.now
    incidents = world.incidents
    by_symptom: dict[str, list[str]] = {}
    for inc, meta in incidents.items():
        by_symptom.setdefault(meta["symptom"], []).append(inc)
    symptom = {s.key: s for s in SYMPTOMS}
    inc_ids = sorted(incidents)
    deploy_ids = sorted(n.id for n in world.nodes if n.kind is NodeKind.DEPLOY)
    by_age = [inc for _, inc in sorted((m["created"], inc) for inc, m in incidents.items())[::-1]]
    with_dep_deploys = [s for s in world.services if any(world.deploys_of.get(d) for d in world.depends_on[s])]
    dependants: dict[str, list[str]] = {}
    for svc, deps in world.depends_on.items():
        for d in deps:
            dependants.setdefault(d, []).append(svc)

    def in_window(span: timedelta) -> list[str]:
        return [inc for inc, m in incidents.items() if now - span <= m["created"]]

    def conceptual(i: int) -> tuple[str, list[str], str]:
        keys = sorted(by_symptom)
        sym = symptom[keys[i % len(keys)]]
        return sym.paraphrases[(i // len(keys)) % len(sym.paraphrases)], by_symptom[sym.key], "incident"

    def exact(i: int) -> tuple[str, list[str], str]:
        if i % 2 == 0:
            name = rng.choice(inc_ids).split(":", 1)[1]
            text = rng.choice((f"{name} postmortem", f"what happened in {name}", f"timeline of {name}"))
            return text, [f"incident:{name}"], "incident"
        name = rng.choice(deploy_ids).split(":", 1)[1]
        text = rng.choice((f"rollback plan for {name}", f"what did {name} change", f"{name} release notes"))
        return text, [f"deploy:{name}"], "deploy"

    def connected(i: int) -> tuple[str, list[str], str]:
        svc = "checkout-api" if i == 0 and "checkout-api" in with_dep_deploys else rng.choice(with_dep_deploys)
        answers = [d for dep in world.depends_on[svc] for d in world.deploys_of.get(dep, ())]
        text = rng.choice((f"which deploy touched a service that {svc} depends on?",
                           f"the deploy of a service that {svc} depends on",
                           f"deploys shipped to the dependencies of {svc}"))
        return text, answers, "deploy"

    def recent(i: int) -> tuple[str, list[str], str]:
        phrase, span = _window_phrase(rng, rng.choice((12, 24, 36, 48, 72)))
        text = rng.choice((f"incidents {phrase}", f"what broke {phrase}?", f"outages {phrase}",
                           f"list the incidents {phrase}"))
        return text, in_window(span), "incident"

    def mixed(i: int) -> tuple[str, list[str], str]:
        target = by_age[rng.randrange(min(len(by_age), 10))] if i % 3 != 1 else rng.choice(inc_ids)
        meta = incidents[target]
        hours = (now - meta["created"]).total_seconds() / 3600 + 1
        if i % 3 == 0:  # symptom paraphrase + time window
            phrase, span = _window_phrase(rng, hours)
            sym = symptom[meta["symptom"]]
            answers = [inc for inc in in_window(span) if incidents[inc]["symptom"] == sym.key]
            return f"{sym.paraphrases[0]} {phrase}", answers, "incident"
        if i % 3 == 1:  # symptom paraphrase + service name
            sym = symptom[meta["symptom"]]
            answers = [inc for inc, m in incidents.items() if m["service"] == meta["service"] and m["symptom"] == sym.key]
            return f"{sym.paraphrases[1]} on {meta['service']}", answers, "incident"
        # incidents on the dependencies of a service, in a time window
        if not dependants.get(meta["service"]):
            return "", [], "incident"
        svc = rng.choice(sorted(dependants[meta["service"]]))
        days = max(2, math.ceil(hours / 24))
        answers = [inc for inc in in_window(timedelta(days=days)) if incidents[inc]["service"] in world.depends_on[svc]]
        return f"incidents on services that {svc} depends on in the past {days} days", answers, "incident"

    makers = {"conceptual": conceptual, "exact": exact, "connected": connected, "recent": recent, "mixed": mixed}
    out: list[EvalQuery] = []
    seen: set[str] = set()
    for shape in SHAPES:
        made = 0
        for attempt in range(per_shape * 20):
            if made >= per_shape:
                break
            text, answers, kind = makers[shape](attempt)
            if not text or not answers or text in seen:
                continue
            seen.add(text)
            out.append(EvalQuery(f"{shape}-{made}", text, {a: 1 for a in sorted(answers)}, group=shape, kinds=(kind,)))
            made += 1
    return out

