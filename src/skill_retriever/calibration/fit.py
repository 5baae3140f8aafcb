""""Nothing fits", calibrated per index without labels: a null distribution from probes.

A catalogue answers some requests and not others; what matters is whether the best match
for a query is better than what a request the catalogue cannot answer would get *in this
catalogue*. The probes (``data/probes.txt``: everyday requests no software catalogue
answers, written for this project) are searched like queries; their best-match cosines
are the null distribution. A query whose best match is no better than a high quantile of
it (``THRESHOLD_QUANTILE``) is flagged: nothing in the catalogue fits it well. The
keyword channel moves the line: a best match it does not back must clear it by
``AGREEMENT_MARGIN``, one it backs (the same item in its top :func:`agree_depth`) may fall
short of it by ``AGREEMENT_BONUS``. Two channels that point at one item are better
evidence than either alone; off-topic requests rarely get that (3 % of the 300
out-of-catalogue questions below, against 35-83 % of the answerable queries of each set).

Measured on the skills benchmark catalogue (3 judged folders, 682 items): the probes'
best-match cosines ran 0.14-0.39 (median 0.20, 90th percentile 0.27); answerable dev
queries 0.30-0.70; the two queries whose right answer is empty 0.28 and 0.31; 401
multi-hop questions (out of catalogue) 0.08-0.38. The two constants below were chosen
there (so its flag rates are in-sample); every other benchmark set reports how many of
its answerable queries get flagged (``skill-retriever benchmark``, "nothing-fits flag
rates").

The two margins were then set looking at those rates on all eight skill and tool sets
(so they are in-sample there too): with a margin of 0.04 and no bonus, the answerable
queries flagged were metatool 42 %, seal-tools 13 %, stabletoolbench 8 %, traject-bench
6 %, ultratool 4 %, the others 0-2 %, and the skills catalogue's none + out-of-catalogue
queries 99.3 %; with 0.02 and 0.06 (and :func:`agree_depth`), 38 %, 5 %, 6 %, 3 %, 3 %,
0 % and 95.0 %. Metatool's short requests sit below its threshold either way: its probes
find generic tools.

Not every probe is off-topic everywhere: a catalogue of ChatGPT plugins (MetaTool) holds a
recipe finder and a trip planner, and answers "a vegetarian lasagna recipe for six people"
as well as any request of its own. Such a probe drew the line up to the catalogue's own
answers. So the probes the catalogue answers are left out of the null (:func:`probe_tops`):
those whose best match the keyword channel backs, as a query's is judged. Where a probe the
catalogue cannot answer gets that by chance (a word shared with an item: "how to tune a
guitar by ear" and a SQL tuning skill), its best match scores low and the flags stay: on
the skills catalogue the same 0 of 48 answerable and 284 of 302 unanswerable queries are
flagged either way, while answerable queries flagged fell on five of the six tool sets
where any were (restbench-tmdb kept its 1 of 100): metatool 27.4 -> 17.2 %, seal-tools 4.8 -> 3.2 %, stabletoolbench 4.4 -> 2.8 %,
traject-bench 2.8 -> 0.4 %, ultratool 1.8 -> 0 % (``skill-retriever benchmark --only
skills,toolret --max-queries 500``, bc1fdeb5 and 42a7f8e4). The line is then drawn from
what is left, at least :data:`MIN_NULL_PROBES` of the 100.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import threading
import time
from collections.abc import Sequence
from importlib import resources

import numpy as np

from skill_retriever.algorithms.tokenize import bm25_terms
from skill_retriever.calibration.language import without_function_words
from skill_retriever.calibration.model import FitModel
from skill_retriever.filters import Filters
from skill_retriever.model import ANSWER_KINDS
from skill_retriever.stores.embedder import Embedder, Vectors
from skill_retriever.stores.snapshot import IndexSnapshot

__all__ = [
    "AGREEMENT_BONUS", "AGREEMENT_MARGIN", "AGREE_DEPTH", "MIN_NULL_PROBES", "THRESHOLD_QUANTILE", "agree_depth",
    "best_cosines", "fit_model", "keywords_back", "keywords_can_agree", "null_model", "probe_tops", "probe_vectors",
    "probes",
]

#: The quantile of the probes' best-match cosines where "nothing fits" ends. A few probes
#: always touch something in a large catalogue (on the skills catalogue the top two scored
#: 0.32 and 0.39), so the line sits below the very top of the null distribution.
THRESHOLD_QUANTILE = 0.9
#: A match the keyword channel does not back must clear the threshold by this much.
AGREEMENT_MARGIN = 0.02
#: A match the keyword channel backs may fall this far below the threshold.
AGREEMENT_BONUS = 0.06
#: Keyword ranks that count as agreeing with the best semantic match (fewer in a small
#: catalogue: see :func:`agree_depth`).
AGREE_DEPTH = 5
#: Fewest probes the line is drawn from once those the catalogue answers are left out
#: (:func:`probe_tops`); with fewer left, every probe draws it: a catalogue that answers
#: most everyday requests leaves too few for a quantile to mean anything.
MIN_NULL_PROBES = 20

# `calibrate -v` and `index -v` log the steps (the help promises one line per phase)
log = logging.getLogger(__name__)


def agree_depth(items: int) -> int:
    """How deep in the keyword ranking agreement counts: ``AGREE_DEPTH``, but at most one
    rank per 100 items, so that chance agreement stays near 1 % (in a 20-item catalogue
    any item is in a top 5 one time in four)."""
    return max(1, min(AGREE_DEPTH, items // 100))


def keywords_can_agree(query: str) -> bool:
    """Whether the keyword channel's backing of the best match can count for ``query``: it
    must hold a term of two characters or more. A lone letter matches any text that writes
    it ("x" and slack-gif-creator's "a GIF of X doing Y"), so on anthropics__skills the
    query "x" had the bonus and a confidence of 0.86 where "zz" and "qwerty" were flagged.
    Another language's function words ("einen", "der", "und") are no such term either:
    `keywords_back`."""
    return any(len(term) > 1 for term in bm25_terms(without_function_words(query)))


def keywords_back(snapshot: IndexSnapshot, searched: str, best: str, ranked: Sequence[str], filters: Filters) -> bool:
    """Whether the keyword channel backs ``best``: it is in the top `agree_depth` of
    ``ranked`` (the channel's ranking for the text it ``searched``, under ``filters``).
    BM25 drops English function words, not German or French ones, so on a German catalogue
    "Wo kann ich einen Hund adoptieren" ranked first the one item that writes "einen": a
    request nothing answers got the bonus for a shared function word. A text that holds
    one (`calibration.language`) is searched again without them; any other keeps its
    ranking, so no English query's agreement moves. (`keywords_can_agree` says whether
    backing can count at all.)"""
    content = without_function_words(searched)
    depth = agree_depth(len(snapshot))
    if content != searched:
        ranked = [h.id for h in snapshot.search_keywords(content, depth, filters)] if content else []
    return best in ranked[:depth]


def probes() -> list[str]:
    """The probe requests (``data/probes.txt``), read once per process: every line drawn
    (`probe_tops`, a private caller's too) reads their texts beside their vectors."""
    return list(_probe_texts())


@functools.cache
def _probe_texts() -> tuple[str, ...]:
    text = (resources.files("skill_retriever") / "data" / "probes.txt").read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


_probe_vectors: dict[str, Vectors] = {}
_probe_lock = threading.Lock()


def probe_vectors(embedder: Embedder) -> Vectors:
    """The probes embedded by ``embedder``: once per model name and process (a calibration
    and every line drawn for a caller's access, `calibration.access_fit`, search them)."""
    with _probe_lock:
        found = _probe_vectors.get(embedder.name)
    if found is None:
        found = embedder.embed(probes())
        with _probe_lock:
            _probe_vectors[embedder.name] = found
    return found


def best_cosines(snapshot: IndexSnapshot, vectors: Vectors, access: Filters) -> list[float]:
    """Best semantic cosine of each row of ``vectors`` among the nodes that can be an
    answer and that ``access``'s caller may see (0 where none is)."""
    return [hits[0].score if hits else 0.0 for hits in snapshot.search_nodes_many(vectors, 1, _answers(access))]


def _answers(access: Filters) -> Filters:
    """What ``access``'s caller may see of the items that can be an answer."""
    return dataclasses.replace(access.visibility(), kinds=ANSWER_KINDS)


def probe_tops(snapshot: IndexSnapshot, access: Filters) -> tuple[list[float], int]:
    """The best-match cosines (`best_cosines`) of the probes this catalogue does not
    answer, among the items ``access``'s caller may see, and how many it answers: a probe
    whose best match the keyword channel backs (`keywords_back`, as a query's is judged)
    is left out. Everyday requests are off-topic for a catalogue of coding skills, but a
    catalogue of ChatGPT plugins holds a recipe finder and a travel planner, and there
    "find a vegetarian recipe" is a request it answers: counted as off-topic, it raised the
    line over the catalogue's own answers (a quarter of MetaTool's answerable requests
    were flagged). Both channels pointing at one item is what an answered request gets and
    an off-topic one seldom does (the module docstring). With fewer than `MIN_NULL_PROBES`
    left, every probe counts and none is said to be answered."""
    texts = probes()
    answers = _answers(access)
    found = snapshot.search_nodes_many(probe_vectors(snapshot.embedder), 1, answers)
    depth = agree_depth(len(snapshot))
    every: list[float] = []
    unanswered: list[float] = []
    for text, hits in zip(texts, found, strict=True):
        every.append(hits[0].score if hits else 0.0)
        if hits and keywords_can_agree(text):
            ranked = [h.id for h in snapshot.search_keywords(text, depth, answers)]
            if keywords_back(snapshot, text, hits[0].id, ranked, answers):
                continue
        unanswered.append(every[-1])
    if len(unanswered) < MIN_NULL_PROBES:
        return every, 0
    return unanswered, len(every) - len(unanswered)


def null_model(tops: Sequence[float], answered: int = 0) -> FitModel:
    """The "nothing fits" line drawn from the probes' best-match cosines ``tops``, once
    ``answered`` probes the catalogue answers were left out (`probe_tops`)."""
    null = np.sort(np.asarray(tops, dtype=np.float64))
    threshold = float(np.quantile(null, THRESHOLD_QUANTILE))
    scale = max(0.01, float(threshold - np.quantile(null, 0.5)) / 4.0)
    return FitModel(
        tuple(round(float(t), 5) for t in null), round(threshold, 5), AGREEMENT_MARGIN, round(scale, 5),
        AGREEMENT_BONUS, answered,
    )


def fit_model(snapshot: IndexSnapshot) -> FitModel | None:
    """The null distribution of this snapshot, over every item (None for an empty index).
    A caller who may not see every item is judged by one drawn over what it may see
    (`calibration.access_fit`)."""
    if not len(snapshot):
        log.info("[skill_retriever][calibrate] the index holds no items: no 'nothing fits' line drawn")
        return None
    started = time.perf_counter()
    model = null_model(*probe_tops(snapshot, Filters.everything()))
    tops = model.null_top
    answered = (f"; {model.probes_answered} left out of the line, the catalogue answers them (the keyword channel "
                "backs their best match)" if model.probes_answered else "")
    log.info("[skill_retriever][calibrate] searched %d probes against %d items: best matches from %.3f to %.3f, "
             "median %.3f, %.1f s%s", len(tops) + model.probes_answered, len(snapshot), tops[0], tops[-1],
             float(np.median(tops)), time.perf_counter() - started, answered)
    log.info("[skill_retriever][calibrate] nothing fits below a best match of %.3f (the probes' %d%% quantile)",
             model.threshold, round(THRESHOLD_QUANTILE * 100))
    return model
