"""Benchmark datasets read from the shared data folder, and their cached indexes.

Each set becomes a :class:`Dataset`: the queries with graded judgments, a function that
ingests the catalogue (nodes and edges), the kinds results are restricted to, and a
fingerprint. :func:`cached_index` builds the set's index once under a cache folder and
reopens it afterwards without embedding anything (``Index.open`` reconciles from disk).

A missing data folder or set is not an error: the loaders return what exists and a
list of human-readable skip notes.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.bench.limits import DEFAULT_MAX_QUERIES
from skill_retriever.ingest.result import IngestResult
from skill_retriever.model import COMPONENT_KINDS, NodeKind
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.index import Index

CACHE_FORMAT = "skill-retriever-bench-cache/2"  # 2: items and vectors in items.sqlite
SEED = 20240601
SKILL_FOLDERS = ("wshobson__agents", "K-Dense-AI__claude-scientific-skills", "anthropics__skills")
#: Components a coding agent installs; plugin nodes are containers, never judged.
SKILL_RESULT_KINDS = tuple(sorted({k.value for k in COMPONENT_KINDS} | {NodeKind.OTHER.value}))
#: A set whose ranked items fold into the judged ones (`Dataset.fold`) asks each method
#: for this many times ``k`` results, so that ``k`` judged ids are left to score.
FOLD_FETCH_TIMES = 5
#: Toolret sets with train/dev splits are evaluated on their test splits only.
TOOLRET_SPLITS: dict[str, tuple[str, ...]] = {
    "ultratool": ("test",),
    "seal-tools": ("test_in_domain", "test_out_domain"),
}


@dataclass(frozen=True)
class EvalQuery:
    """One query with graded judgments (grade >= 1 relevant).

    Attributes:
        group: A label for breakdowns (query kind, split or shape).
        kinds: Kinds this query's results are restricted to, overriding the dataset's.
    """

    id: str
    text: str
    relevant: Mapping[str, int]
    group: str | None = None
    kinds: tuple[str, ...] | None = None


@dataclass
class Dataset:
    """A catalogue, its queries and how to evaluate them."""

    family: str  # multihop | skills | toolret | incidents
    name: str
    queries: list[EvalQuery]
    ingest: Callable[[Path], IngestResult]  # work dir -> nodes and edges
    fingerprint: dict[str, Any]
    metrics: tuple[str, ...]
    kinds: tuple[str, ...] | None = None
    notes: list[str] = field(default_factory=list)
    #: Ranked ids -> the ids judged, before any cut at k (`evaluate`): a set whose items
    #: are parts of the judged ones scores each part as its whole. None: as ranked.
    fold: Callable[[Sequence[str]], list[str]] | None = None

    @property
    def key(self) -> str:
        return f"{self.family}__{self.name}"


FAMILY_METRICS: dict[str, tuple[str, ...]] = {
    "multihop": ("R@2", "R@5", "R@10"),
    "skills": ("MRR", "nDCG@10", "R@10"),
    "toolret": ("R@5", "R@10", "nDCG@10", "C@10"),
    "incidents": ("MRR", "R@10", "nDCG@10"),
}


def default_data_dir() -> Path | None:
    """``$SKILL_RETRIEVER_DATA``, else ``../shared/data`` from the working folder, if it exists."""
    env = os.environ.get("SKILL_RETRIEVER_DATA")
    for candidate in ([Path(env)] if env else []) + [Path.cwd().parent / "shared" / "data"]:
        if candidate.is_dir():
            return candidate
    return None


def _stamp(path: Path) -> list[Any]:
    st = path.stat()
    return [path.name, st.st_size, int(st.st_mtime)]


def seeded_sample(items: Sequence[Any], n: int, seed: int = SEED) -> list[Any]:
    """``n`` items chosen by a seeded RNG, kept in their original order."""
    if n >= len(items):
        return list(items)
    chosen = sorted(random.Random(seed).sample(range(len(items)), n))
    return [items[i] for i in chosen]


# -- multihop ---------------------------------------------------------------------------
def multihop_sets(data_dir: Path | None, *, quick: bool = False) -> tuple[list[Dataset], list[str]]:
    """Every set in ``<data>/multihop`` on its full corpus; in quick mode one small subset:
    the first 30 questions of 2wikimultihopqa with their own gold passages plus a seeded
    sample of 150 distractors."""
    from skill_retriever.ingest.passages import INGEST_VERSION, load_multihop_queries

    root = data_dir / "multihop" if data_dir else None
    if root is None or not root.is_dir():
        return [], [f"multihop: no folder {root or '<data>/multihop'}; skipped"]
    sets: list[Dataset] = []
    skipped: list[str] = []
    folders = sorted(p for p in root.iterdir() if (p / "corpus.json").is_file() and (p / "queries.json").is_file())
    if quick:
        folders = [p for p in folders if p.name == "2wikimultihopqa"] or folders[:1]
    for folder in folders:
        queries = load_multihop_queries(folder)
        notes: list[str] = []
        corpus = folder / "corpus.json"
        fingerprint: dict[str, Any] = {"corpus": _stamp(corpus), "ner": True, "ingest": INGEST_VERSION}
        if quick:
            queries = queries[:30]
            fingerprint.update(subset="first 30 questions + 150 distractors", seed=SEED)
            notes.append("quick: first 30 questions; corpus = their gold passages + 150 seeded distractors")
            ingest = _subset_corpus_ingest(corpus, {g for q in queries for g in q.gold}, 150)
        else:
            notes.append(f"full corpus, all {len(queries)} questions")
            ingest = _passage_ingest(corpus)
        evals = [EvalQuery(q.id, q.question, {g: 1 for g in q.gold}) for q in queries]
        sets.append(Dataset("multihop", folder.name, evals, ingest, fingerprint, FAMILY_METRICS["multihop"],
                            kinds=(NodeKind.PASSAGE.value,), notes=notes))
    if not folders:
        skipped.append(f"multihop: no set with corpus.json and queries.json under {root}; skipped")
    return sets, skipped


def _passage_ingest(corpus: Path) -> Callable[[Path], IngestResult]:
    def run(work: Path) -> IngestResult:
        from skill_retriever.ingest.passages import ingest_passages

        return ingest_passages(corpus)

    return run


def _subset_corpus_ingest(corpus: Path, gold: set[str], distractors: int) -> Callable[[Path], IngestResult]:
    def run(work: Path) -> IngestResult:
        from skill_retriever.ingest.passages import ingest_passages

        records = json.loads(corpus.read_text(encoding="utf-8"))
        keep = [r for r in records if f"passage:{r['idx']}" in gold]
        rest = [r for r in records if f"passage:{r['idx']}" not in gold]
        subset = keep + seeded_sample(rest, distractors)
        path = work / "corpus.json"
        path.write_text(json.dumps(subset), encoding="utf-8")
        return ingest_passages(path)

    return run


# -- skills -----------------------------------------------------------------------------
def skills_sets(data_dir: Path | None, *, quick: bool = False) -> tuple[list[Dataset], list[str]]:
    """The three judged folders with ``skills/queries/dev.jsonl``; in quick mode the two
    small ones (K-Dense-AI__claude-scientific-skills, anthropics__skills, ~140 components)
    with the first 20 queries judged in them."""
    root = data_dir / "skills" if data_dir else None
    qpath = root / "queries" / "dev.jsonl" if root else None
    if root is None or qpath is None or not qpath.is_file():
        return [], [f"skills: no {qpath or '<data>/skills/queries/dev.jsonl'}; skipped"]
    folders = list(SKILL_FOLDERS[1:] if quick else SKILL_FOLDERS)
    missing = [f for f in folders if not (root / f).is_dir()]
    if missing:
        return [], [f"skills: judged folder(s) {missing} missing under {root}; skipped"]
    queries: list[EvalQuery] = []
    for line in qpath.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        relevant = {k: int(v) for k, v in rec["relevant"].items() if k.split("/", 1)[0] in folders}
        if quick and not relevant:
            continue
        queries.append(EvalQuery(str(rec["id"]), rec["query"], relevant, group=rec.get("kind")))
    notes = []
    if quick:
        queries = queries[:20]
        notes.append(f"quick: {' + '.join(folders)} only, first 20 queries judged in them (judgments restricted to them)")
    else:
        none = sum(1 for q in queries if not q.relevant)
        notes.append(f"catalogue = {', '.join(folders)}; {len(queries)} queries, {none} of kind 'none' "
                     "(nothing fits) have no judgments and are left out of the averages")
    fingerprint = {"folders": folders, "queries": _stamp(qpath),
                   "manifests": [_stamp(root / f / "MANIFEST.json") for f in folders if (root / f / "MANIFEST.json").exists()]}

    def ingest(work: Path) -> IngestResult:
        from skill_retriever.ingest.skills import ingest_skill_repos

        return ingest_skill_repos([root / f for f in folders])

    name = "quick-kdense-anthropics" if quick else "dev"
    sets = [Dataset("skills", name, queries, ingest, fingerprint, FAMILY_METRICS["skills"],
                    kinds=SKILL_RESULT_KINDS, notes=notes)]
    if not quick:
        sets.append(_as_documents(root, folders, queries, fingerprint))
    return sets, []


def _as_documents(root: Path, folders: list[str], queries: list[EvalQuery], fingerprint: dict[str, Any]) -> Dataset:
    """The same folders read as folders of documents (``index --kind docs``): one
    ``document`` item per Markdown file, with the id the skills read gives it, so the
    same judgments hold, and one per section of a long file, scored as its file
    (`as_documents`). What a folder of runbooks or docs gets, measured on judged files."""

    def ingest(work: Path) -> IngestResult:
        from skill_retriever.ingest.documents import ingest_documents

        merged = IngestResult(source=str(root))
        for f in folders:
            read = ingest_documents(root / f)
            merged.nodes += read.nodes
            merged.edges += read.edges
            merged.problems += read.problems
        return merged

    notes = [(f"the dev queries over {', '.join(folders)} read as documents (--kind docs): the same files and "
              "ids, each a document item; a long file's sections score as their file (its first in the ranking)")]
    from skill_retriever.ingest.document_sections import SPLIT_CHARS

    read = {"read": "documents-sections", "split_chars": SPLIT_CHARS}  # a new threshold rebuilds the index
    return Dataset("skills", "dev-as-documents", queries, ingest, {**fingerprint, **read},
                   FAMILY_METRICS["skills"], kinds=(NodeKind.DOCUMENT.value,), notes=notes, fold=as_documents)


def as_documents(ranked: Sequence[str]) -> list[str]:
    """``ranked`` with each section (``<document id>#<slug>``, `ingest.document_sections`)
    read as its document, a document kept at its first place: judgments are per file."""
    return list(dict.fromkeys(i.partition("#")[0] for i in ranked))


# -- toolret ----------------------------------------------------------------------------
def toolret_sets(
    data_dir: Path | None, *, quick: bool = False, max_queries: int = DEFAULT_MAX_QUERIES
) -> tuple[list[Dataset], list[str]]:
    """Every set in ``<data>/toolret``. Sets with train/dev splits use their test splits;
    query sets over ``max_queries`` are cut to a seeded sample of that size. In quick mode
    only ultratool (test split, 30 sampled queries)."""
    from skill_retriever.ingest.toolret import INGEST_VERSION, load_toolret_queries

    root = data_dir / "toolret" if data_dir else None
    if root is None or not root.is_dir():
        return [], [f"toolret: no folder {root or '<data>/toolret'}; skipped"]
    folders = sorted(p for p in root.iterdir() if (p / "tools.jsonl").is_file() and (p / "queries.jsonl").is_file())
    if quick:
        folders = [p for p in folders if p.name == "ultratool"] or folders[:1]
        max_queries = 30
    sets = []
    for folder in folders:
        raw = load_toolret_queries(folder)
        notes = []
        splits = TOOLRET_SPLITS.get(folder.name)
        if splits:
            raw = [q for q in raw if q.split in splits]
            notes.append(f"splits {', '.join(splits)} only ({len(raw)} queries)")
        if len(raw) > max_queries:
            notes.append(f"seeded sample of {max_queries} of {len(raw)} queries (seed {SEED})")
            raw = seeded_sample(raw, max_queries)
        else:
            notes.append(f"all {len(raw)} queries")
        if (folder / "edges.jsonl").is_file():
            notes.append("edges.jsonl becomes graph edges")
        queries = [EvalQuery(q.id, q.query, {r: 1 for r in q.relevant}, group=q.split) for q in raw]
        stamps = [_stamp(folder / n) for n in ("tools.jsonl", "edges.jsonl") if (folder / n).is_file()]

        def ingest(work: Path, folder: Path = folder) -> IngestResult:
            from skill_retriever.ingest.toolret import ingest_toolret

            return ingest_toolret(folder)

        sets.append(Dataset("toolret", folder.name, queries, ingest, {"files": stamps, "ingest": INGEST_VERSION},
                            FAMILY_METRICS["toolret"], kinds=None, notes=notes))
    return sets, [] if folders else [f"toolret: no set under {root}; skipped"]


# -- cached indexes ---------------------------------------------------------------------
@dataclass(frozen=True)
class BuildInfo:
    """How a dataset's index came to be."""

    nodes: int
    edges: int
    reused: bool
    ingest_s: float = 0.0
    index_s: float = 0.0
    embedded: int = 0

    @property
    def items_per_s(self) -> float | None:
        return self.nodes / self.index_s if self.index_s > 0 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes, "edges": self.edges, "reused": self.reused,
            "ingest_s": round(self.ingest_s, 2), "index_s": round(self.index_s, 2),
            "embedded": self.embedded,
            "items_per_s": round(self.items_per_s, 1) if self.items_per_s else None,
        }


def cached_index(
    cache_dir: Path,
    key: str,
    fingerprint: Mapping[str, Any],
    ingest: Callable[[Path], IngestResult],
    embedder: Embedder,
    log: Callable[[str], None] = print,
) -> tuple[Index, BuildInfo]:
    """Open ``<cache_dir>/<key>/index``, building it first when missing or stale.

    The fingerprint (sources, subset parameters, embedder) is stored next to the index
    with a completion flag written after the last write, so a half-built cache is
    rebuilt rather than trusted. A cached index that no longer opens (truncated, files
    missing) is rebuilt too: it is only a cache. Only ``<cache_dir>/<key>`` is ever deleted.
    """
    from skill_retriever.exceptions import IndexCorruptError
    from skill_retriever.indexing import write_result

    if key in ("", ".", "..") or Path(key).name != key:  # the folder deleted below must be the entry's own
        raise ValueError(f"cache key {key!r} must be a plain folder name")
    home = cache_dir / key
    stamp_path = home / "bench-cache.json"
    wanted = {"format": CACHE_FORMAT, "embedder": embedder.name, **fingerprint}
    wanted = json.loads(json.dumps(wanted))  # normalise tuples to lists
    if stamp_path.is_file():
        try:
            stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            stamp = {}
        if stamp.get("complete") and stamp.get("fingerprint") == wanted:
            try:
                index = Index.open(home / "index", embedder=embedder)
            except IndexCorruptError as exc:
                # What is wrong, without the advice after ';' (how to rebuild a user's index).
                log(f"  cached index {key} is damaged ({str(exc).split(';')[0]}); rebuilding this cache entry")
            else:
                ensure_calibrated(index, log)
                info = stamp.get("build", {})
                return index, BuildInfo(len(index), len(index.snapshot().edges), True,
                                        info.get("ingest_s", 0.0), info.get("index_s", 0.0), info.get("embedded", 0))
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    started = time.perf_counter()
    result = ingest(home)
    ingest_s = time.perf_counter() - started
    log(f"  building index {key}: {len(result.nodes)} nodes, {len(result.edges)} edges "
        f"(ingest {ingest_s:.1f} s, {len(result.problems)} problems)")
    for problem in result.problems[:3]:  # a count alone says nothing of what was left out
        log(f"    problem: {str(problem)[:200]}")
    if len(result.problems) > 3:
        log(f"    ... and {len(result.problems) - 3} more")
    started = time.perf_counter()
    index = Index.open(home / "index", embedder=embedder, create=True)
    reports = write_result(index, result)
    ensure_calibrated(index, log)
    index_s = time.perf_counter() - started
    embedded = sum(r.embedded for r in reports)
    build = {"ingest_s": ingest_s, "index_s": index_s, "embedded": embedded}
    stamp_path.write_text(json.dumps({"fingerprint": wanted, "complete": True, "build": build}, indent=2),
                          encoding="utf-8")
    info = BuildInfo(len(index), len(index.snapshot().edges), False, ingest_s, index_s, embedded)
    log(f"  indexed {info.nodes} nodes in {index_s:.1f} s ({info.items_per_s or 0:.0f} items/s, "
        f"{embedded} texts embedded)")
    return index, info


def ensure_calibrated(index: Index, log: Callable[[str], None]) -> None:
    """Calibrate a cached index as ``skill-retriever index`` would (defaults = what a user
    gets), again when its calibration is older than the index or than the algorithm."""
    from skill_retriever.calibration import ensure_calibration

    started = time.perf_counter()
    calibration, computed = ensure_calibration(index)
    if computed:
        log(f"  calibrated in {time.perf_counter() - started:.1f} s: {calibration.summary(index.version)}")
