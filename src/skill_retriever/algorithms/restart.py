"""The restart (personalization) vector of a graph walk over a passage corpus.

Three ideas of HippoRAG, without its LLM:

* **Facts seed the walk** (HippoRAG 2: Gutiérrez et al. 2025, "From RAG to Memory:
  Non-Parametric Continual Learning for Large Language Models", arXiv:2502.14802, §3.2,
  query-to-triple linking). The query is matched against fact nodes (sentences, see
  ``ingest.facts``); each of the best facts restarts the walk at itself and at the
  entities it names, with its score normalised by the best fact's. The entity the
  fact's passage is about is left out: the fact itself leads there, and the *other*
  entities are the bridges a second hop needs. An entity named by several of the facts
  gets the mean of their scores (HippoRAG 2 averages the same way).
* **Node specificity** (HippoRAG: Gutiérrez et al. 2024, "HippoRAG: Neurobiologically
  Inspired Long-Term Memory for Large Language Models", NeurIPS, §3.2): an entity's
  restart weight is multiplied by ``|P_e| ** -s``, where ``|P_e|`` is how many passages
  name it; ``s = 1`` is HippoRAG's ``1 / |P_e|``, ``s = 0`` switches it off.
* **Passages restart the walk too** (HippoRAG 2's "passage node weight", 0.05 there): every
  passage gets ``dense_weight`` times its min-max normalised cosine to the query, and
  ``keyword_weight`` times its BM25 score divided by the best one, so a passage the walk
  does not reach still keeps what the query says about it directly.

Everything here is a plain function over numpy arrays; ``phases.run_ppr`` assembles the
inputs from the pinned snapshot.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from skill_retriever.algorithms.normalise import minmax

FloatArray = npt.NDArray[np.float64]


K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class FactHit(Generic[K]):
    """A fact that matched the query.

    Attributes:
        node: The fact node (an id or a matrix row).
        score: Its cosine similarity to the query.
        entities: The entities it names, its passage's own subject left out.
    """

    node: K
    score: float
    entities: tuple[K, ...]


def specificity(passage_counts: npt.ArrayLike, exponent: float) -> FloatArray:
    """``count ** -exponent`` per node; a count below 1 counts as 1.

    Args:
        passage_counts: How many passages name each node (0 for nodes that are not
            entities: they keep weight 1).
        exponent: 1 is HippoRAG's ``1 / |P_e|``; 0 gives every node weight 1.

    Raises:
        ValueError: ``exponent`` is negative or not finite.
    """
    if not np.isfinite(exponent) or exponent < 0:
        raise ValueError(f"specificity exponent must be a finite number >= 0, got {exponent}")
    counts = np.maximum(np.asarray(passage_counts, dtype=np.float64), 1.0)
    return np.power(counts, -float(exponent))


def fact_seeds(hits: Sequence[FactHit[K]]) -> dict[K, float]:
    """Restart weights from the facts that matched the query (HippoRAG 2's query-to-triple).

    Each fact's weight is its score over the best fact's score (so the best fact weighs 1
    whatever the query's scale). The fact restarts at itself and at each entity it names
    with that weight; a node reached from several facts gets the mean of what they give
    it. Specificity is applied later, to every entity seed alike (`specificity`).

    Args:
        hits: The matched facts (any order).

    Returns:
        Node -> restart weight (empty for no hits or a best score <= 0).
    """
    best = max((h.score for h in hits), default=0.0)
    if best <= 0:
        return {}
    total: dict[K, float] = {}
    count: dict[K, int] = {}
    for hit in hits:
        w = max(hit.score, 0.0) / best
        for node in (hit.node, *hit.entities):
            total[node] = total.get(node, 0.0) + w
            count[node] = count.get(node, 0) + 1
    return {node: total[node] / count[node] for node in total}


def proper_names(query: str, names: Sequence[str]) -> list[str]:
    """The names a query writes as proper names: some occurrence, on word boundaries and
    ignoring case, starts with a capital letter or a digit in the query, and is not inside
    a longer such occurrence. "Johnnycake, West Virginia" keeps "Johnnycake, West
    Virginia" and drops "West" and "Virginia" inside it; "the state where" drops "State".

    Args:
        query: The query text.
        names: Item names found in it (``algorithms.query_terms.named_entities``).

    Returns:
        The kept names, in the order given.
    """
    spans: list[tuple[int, int, str]] = []
    for name in dict.fromkeys(names):
        words = [re.escape(w) for w in re.findall(r"\w+", name)]
        if not words:
            continue
        pattern = re.compile(r"(?<!\w)" + r"\W+".join(words) + r"(?!\w)", re.IGNORECASE)
        for m in pattern.finditer(query):
            if m.group()[0].isupper() or m.group()[0].isdigit():
                spans.append((m.start(), m.end(), name))
    kept = {name for start, end, name in spans
            if not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)}
    return [n for n in dict.fromkeys(names) if n in kept]


def restart_vector(
    n: int,
    seeds: Mapping[int, float],
    dense: tuple[npt.NDArray[np.int64], npt.ArrayLike] | None = None,
    dense_weight: float = 0.0,
    keyword: Mapping[int, float] | None = None,
    keyword_weight: float = 0.0,
) -> FloatArray:
    """The restart vector: seed weights, plus the passages' own evidence.

    Args:
        n: Number of nodes.
        seeds: Row -> weight (summed with the rest).
        dense: ``(rows, cosines)`` of the passages that may restart the walk; each gets
            ``dense_weight * minmax(cosines)``.
        dense_weight: Weight of the dense evidence (0 = none).
        keyword: Row -> BM25 score; each gets ``keyword_weight * score / max score``.
        keyword_weight: Weight of the keyword evidence (0 = none).

    Returns:
        A non-negative vector of length ``n`` (not normalised: PageRank does that).

    Raises:
        ValueError: A row is outside ``[0, n)`` or a weight is negative.
    """
    if min(dense_weight, keyword_weight) < 0 or any(w < 0 for w in seeds.values()):
        raise ValueError("restart weights must be >= 0")
    p = np.zeros(n, dtype=np.float64)
    for row, w in seeds.items():
        if not 0 <= row < n:
            raise ValueError(f"seed row {row} outside [0, {n})")
        p[row] += w
    if dense is not None and dense_weight > 0:
        rows = np.asarray(dense[0], dtype=np.int64)
        if rows.size and (rows.min() < 0 or rows.max() >= n):
            raise ValueError(f"dense row outside [0, {n})")
        np.add.at(p, rows, dense_weight * minmax(dense[1]))
    if keyword and keyword_weight > 0:
        top = max(keyword.values())
        if top > 0:
            for row, score in keyword.items():
                if not 0 <= row < n:
                    raise ValueError(f"keyword row {row} outside [0, {n})")
                p[row] += keyword_weight * max(score, 0.0) / top
    return p


__all__ = ["FactHit", "fact_seeds", "proper_names", "restart_vector", "specificity"]
