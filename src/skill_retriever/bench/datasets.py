"""Benchmark datasets read from the shared data folder.

Each set becomes a :class:`Dataset`: the queries with graded judgments, a function that
ingests the catalogue (nodes and edges), the kinds results are restricted to, and a
fingerprint. :func:`~skill_retriever.bench.index_cache.cached_index` (re-exported here,
where the sections have always found it) builds the set's index once under a cache folder.

A missing data folder or set is not an error: the loaders return what exists and a
list of human-readable skip notes.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_retriever.bench.index_cache import BuildInfo, cached_index
from skill_retriever.bench.limits import DEFAULT_MAX_QUERIES, QUICK_TOOLRET_QUERIES
from skill_retriever.ingest.json_lines import read_objects
from skill_retriever.ingest.result import IngestResult
from skill_retriever.model import COMPONENT_KINDS, NodeKind

#: ``BuildInfo`` and ``cached_index`` live in `index_cache`; re-exported, as the sections
#: and tests have always reached them here.
__all__ = [
    "FAMILY_METRICS", "FOLD_FETCH_TIMES", "SEED", "SKILL_FOLDERS", "SKILL_RESULT_KINDS", "TOOLRET_SPLITS",
    "BuildInfo", "Dataset", "EvalQuery", "as_documents", "cached_index", "default_data_dir", "multihop_sets",
    "seeded_sample", "skills_sets", "toolret_sets",
]

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
    #: The files and folders its queries and catalogue are read from (`reuse`: a result is
    #: reused only while their names, sizes and times are the same).
    sources: tuple[Path, ...] = ()

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
    """``$SKILL_RETRIEVER_DATA`` (unless blank), whether it exists or not (one that does not
    was passed over for ``../shared/data``, so a run read other data than the one named;
    the caller says it is missing), else ``../shared/data`` from the working folder, if
    it exists."""
    env = os.environ.get("SKILL_RETRIEVER_DATA", "")
    if env.strip():
        return Path(env)
    candidate = Path.cwd().parent / "shared" / "data"
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


def _one_too_deep(data_dir: Path | None, family: str) -> str:
    """Which folder to give, when ``--data`` names the family's folder or one of its sets
    (``<data>/toolret``, ``<data>/toolret/metatool``) instead of the data folder."""
    if data_dir is None:
        return ""
    if data_dir.name == family:
        return f" (--data names the {family} folder itself: give the folder above it, {data_dir.parent})"
    if data_dir.parent.name == family:
        return f" (--data names one {family} set: give {data_dir.parent.parent}, whose {family}/ holds it)"
    return ""


def _set_folders(root: Path, family: str, files: tuple[str, ...]) -> tuple[list[Path], list[str]]:
    """The folders of ``root`` holding every one of ``files``, and a skip note for each
    other (not hidden) folder naming the file it lacks: a set left out without a word
    read as "no set under <root>" with the set's folder right there."""
    folders: list[Path] = []
    skipped: list[str] = []
    for p in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if missing := [f for f in files if not (p / f).is_file()]:
            skipped.append(f"{family}/{p.name}: no {' or '.join(missing)} in {p}; skipped")
        else:
            folders.append(p)
    return folders, skipped


# -- multihop ---------------------------------------------------------------------------
def _load(folder: Path, family: str, load: Callable[[Path], list[Any]],
          failed: list[tuple[str, Exception]] | None) -> list[Any] | None:
    """``load(folder)``; a bad file (`data_failures.DATA_ERRORS`) goes into ``failed`` as
    ``(family/set, error)`` and gives None, so one set's file fails that set only. Without
    ``failed`` the error is raised."""
    from skill_retriever.bench.data_failures import DATA_ERRORS

    try:
        return load(folder)
    except DATA_ERRORS as exc:
        if failed is None:
            raise
        failed.append((f"{family}/{folder.name}", exc))
        return None


def multihop_sets(
    data_dir: Path | None, *, quick: bool = False, failed: list[tuple[str, Exception]] | None = None
) -> tuple[list[Dataset], list[str]]:
    """Every set in ``<data>/multihop`` on its full corpus; in quick mode one small subset:
    the first 30 questions of 2wikimultihopqa with their own gold passages plus a seeded
    sample of 150 distractors. A set whose queries file is bad goes into ``failed``
    (`_load`)."""
    from skill_retriever.ingest.passages import INGEST_VERSION, load_multihop_queries

    root = data_dir / "multihop" if data_dir else None
    if root is None or not root.is_dir():
        return [], [f"multihop: no folder {root or '<data>/multihop'}; skipped{_one_too_deep(data_dir, 'multihop')}"]
    sets: list[Dataset] = []
    folders, skipped = _set_folders(root, "multihop", ("corpus.json", "queries.json"))
    if quick:
        folders = [p for p in folders if p.name == "2wikimultihopqa"] or folders[:1]
    for folder in folders:
        queries = _load(folder, "multihop", load_multihop_queries, failed)
        if queries is None:
            continue
        if not queries:  # built and measured, it would publish a table of dashes as a result
            skipped.append(f"multihop/{folder.name}: {folder / 'queries.json'} holds no questions; skipped")
            continue
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
                            kinds=(NodeKind.PASSAGE.value,), notes=notes, sources=(corpus, folder / "queries.json")))
    if not folders and not skipped:
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
        return [], [f"skills: no {qpath or '<data>/skills/queries/dev.jsonl'}; skipped{_one_too_deep(data_dir, 'skills')}"]
    folders = list(SKILL_FOLDERS[1:] if quick else SKILL_FOLDERS)
    missing = [f for f in folders if not (root / f).is_dir()]
    if missing:
        named = f"folder{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
        why = "each judged repository is cloned into a folder of its owner__name"
        return [], [f"skills: judged {named} missing under {root}; skipped ({why})"]
    queries: list[EvalQuery] = []
    for n, rec in read_objects(qpath, None):  # a line that is no JSON object: IngestError, file and line
        judged = _skill_judgments(qpath, n, rec)
        relevant = {k: v for k, v in judged.items() if k.split("/", 1)[0] in folders}
        if quick and not relevant:
            continue
        queries.append(EvalQuery(str(rec.get("id", n)), rec["query"], relevant, group=rec.get("kind")))
    if not queries:
        return [], [f"skills: {qpath} holds no queries{' judged in ' + ', '.join(folders) if quick else ''}; skipped"]
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
    sources = (qpath, *(root / f for f in folders))
    sets = [Dataset("skills", name, queries, ingest, fingerprint, FAMILY_METRICS["skills"],
                    kinds=SKILL_RESULT_KINDS, notes=notes, sources=sources)]
    if not quick:
        sets.append(_as_documents(root, folders, queries, fingerprint))
    return sets, []


def _skill_judgments(path: Path, n: int, rec: dict[str, Any]) -> dict[str, int]:
    """The graded judgments of line ``n`` of the skills queries file.

    Raises:
        IngestError: the line lacks its query or judgments (benchmark labels must be exact,
            so nothing is skipped silently).
    """
    from skill_retriever.exceptions import IngestError

    shape = '{"id", "query", "relevant": {"<folder>/<path>": grade}, "kind"}'
    relevant = rec.get("relevant")
    if not isinstance(rec.get("query"), str) or not isinstance(relevant, dict):
        raise IngestError(f'{path}:{n}: expected {shape}; "query" must be text and "relevant" an object')
    try:
        return {str(k): int(v) for k, v in relevant.items()}
    except (TypeError, ValueError) as exc:
        raise IngestError(f"{path}:{n}: every grade in \"relevant\" must be a whole number ({exc})") from exc


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
                   FAMILY_METRICS["skills"], kinds=(NodeKind.DOCUMENT.value,), notes=notes, fold=as_documents,
                   sources=(root / "queries" / "dev.jsonl", *(root / f for f in folders)))


def as_documents(ranked: Sequence[str]) -> list[str]:
    """``ranked`` with each section (``<document id>#<slug>``, `ingest.document_sections`)
    read as its document, a document kept at its first place: judgments are per file."""
    return list(dict.fromkeys(i.partition("#")[0] for i in ranked))


# -- toolret ----------------------------------------------------------------------------
def toolret_sets(
    data_dir: Path | None, *, quick: bool = False, max_queries: int = DEFAULT_MAX_QUERIES,
    failed: list[tuple[str, Exception]] | None = None,
) -> tuple[list[Dataset], list[str]]:
    """Every set in ``<data>/toolret``. Sets with train/dev splits use their test splits;
    query sets over ``max_queries`` are cut to a seeded sample of that size. In quick mode
    only ultratool (test split, 30 sampled queries). A set whose queries file is bad goes
    into ``failed`` (`_load`)."""
    from skill_retriever.ingest.toolret import INGEST_VERSION, load_toolret_queries

    root = data_dir / "toolret" if data_dir else None
    if root is None or not root.is_dir():
        return [], [f"toolret: no folder {root or '<data>/toolret'}; skipped{_one_too_deep(data_dir, 'toolret')}"]
    folders, skipped = _set_folders(root, "toolret", ("tools.jsonl", "queries.jsonl"))
    if quick:
        folders = [p for p in folders if p.name == "ultratool"] or folders[:1]
        max_queries = QUICK_TOOLRET_QUERIES
    sets = []
    for folder in folders:
        loaded = _load(folder, "toolret", load_toolret_queries, failed)
        if loaded is None:
            continue
        raw, notes = loaded, []
        splits, every = TOOLRET_SPLITS.get(folder.name), len(raw)
        if splits:
            raw = [q for q in raw if q.split in splits]
            notes.append(f"splits {', '.join(splits)} only ({len(raw)} queries)")
        if not raw:  # built and measured, it would publish a table of dashes as a result
            why = (f"no queries of split(s) {', '.join(splits)} ({every} in other splits)" if splits and every
                   else "holds no queries")
            skipped.append(f"toolret/{folder.name}: {folder / 'queries.jsonl'} {why}; skipped")
            continue
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
            from skill_retriever.bench.dropped_tools import dropped_tools
            from skill_retriever.ingest.toolret import ingest_toolret

            read = ingest_toolret(folder)  # too many lines dropped: the set fails before it is embedded
            dropped_tools(folder.absolute() / "tools.jsonl", len(read.nodes),
                          [str(p) for p in read.problems if not p.read_whole])
            return read

        sets.append(Dataset("toolret", folder.name, queries, ingest, {"files": stamps, "ingest": INGEST_VERSION},
                            FAMILY_METRICS["toolret"], kinds=None, notes=notes, sources=(folder,)))
    return sets, skipped if folders or skipped else [f"toolret: no set under {root}; skipped"]

