"""Index a source folder or file: detect what it is, ingest it, write it in batches.

A source is one of: a skills repository (SKILL.md, agents/, commands/, hooks, MCP
configs), a JSON graph file (``{"nodes": [...], "edges": [...]}``), a tool catalogue
folder (``tools.jsonl``), or a passage corpus (``corpus.json`` of title + text).

Every source has a name (``--source-name``; the folder's name by default) and a root
folder, recorded on its nodes (see `ingest.provenance`). Component ids begin with the
name, so `index_sources` refuses, before writing anything, a source whose name the index
already holds from another folder, a source whose own ids (tools, passages, JSON graph
nodes) the index holds from another folder, or, for a JSON graph or a corpus, from another
file of its folder, and such a source's folder held under another name: each would
silently replace or rename those items. A JSON graph's edges may end at any node the
index holds.
Nodes indexed before names were recorded have no ``source_root``; they never block a
write, and re-indexing records their origin.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.provenance import (
    Provenance,
    check_ids,
    check_one_name,
    check_sources,
    derived,
    item_file,
    owner_file,
    recorded_file,
    unlinked,
)
from skill_retriever.ingest.result import IngestResult, Problem, Unread
from skill_retriever.model import Node
from skill_retriever.stores import run_marks
from skill_retriever.stores.index import Index, WriteReport
from skill_retriever.stores.snapshot import IndexSnapshot

SourceKind = Literal["skills", "json", "toolret", "passages"]
BATCH = 256

Progress = Callable[[int], None]


def sample_catalogue_path() -> Path:
    """The bundled sample catalogue (our own invented components, shipped in the package)."""
    return Path(str(resources.files("skill_retriever") / "data" / "sample_catalogue"))


def detect_source(path: Path) -> SourceKind:
    """What kind of source ``path`` is; an IngestError says how to tell us if unsure."""
    if not path.exists():
        raise IngestError(f"{path} does not exist; give a skills folder, a JSON graph, a tools folder or a corpus.json")
    if path.is_file():
        if path.name == "corpus.json":
            return "passages"
        if path.suffix == ".json":
            return "json"
        raise IngestError(f"{path} is not a .json file; point at a folder or a JSON graph file")
    if (path / "tools.jsonl").exists():
        return "toolret"
    if (path / "corpus.json").exists():
        return "passages"
    return "skills"


def ingest(
    path: Path,
    kind: SourceKind | None = None,
    *,
    ner: bool = True,
    source_name: str | None = None,
    known_ids: AbstractSet[str] = frozenset(),
) -> IngestResult:
    """Read one source into nodes, edges and per-file problems.

    Args:
        path: A skills folder, a JSON graph file, a tools folder or a passage corpus.
        kind: What it is; detected when None.
        ner: Passages: run spaCy NER (else titles only).
        source_name: Recorded on every node and, for skills, the prefix of every id;
            the source folder's name by default.
        known_ids: JSON graph: ids of nodes already in the index that its edges may end at.
    """
    kind = kind or detect_source(path)
    if kind == "skills":
        from skill_retriever.ingest.skills import ingest_skill_repo

        return ingest_skill_repo(path, source_name)
    if kind == "json":
        from skill_retriever.ingest.json_graph import ingest_json_graph

        return ingest_json_graph(path, source_name=source_name, known_ids=known_ids)
    if kind == "toolret":
        from skill_retriever.ingest.toolret import ingest_toolret

        return ingest_toolret(path, source_name=source_name)
    from skill_retriever.ingest.passages import ingest_passages

    corpus = path / "corpus.json" if path.is_dir() else path
    return ingest_passages(corpus, nlp=None if ner else False, source_name=source_name)


@dataclass
class IndexRun:
    """What indexing one or more sources did."""

    sources: list[IngestResult] = field(default_factory=list)
    writes: list[WriteReport] = field(default_factory=list)
    calibration: dict[str, Any] | None = None
    #: Source -> ids the index held from it that the source no longer has (removed).
    removed: dict[str, list[str]] = field(default_factory=dict)
    #: Source -> how many relations of its items it no longer has (removed).
    edges_removed: dict[str, int] = field(default_factory=dict)
    #: Source -> the mark of its earlier run that did not finish, which this run completed
    #: (``stores.run_marks``).
    completed: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def embedded(self) -> int:
        return sum(w.embedded for w in self.writes)

    def to_dict(self) -> dict[str, object]:
        return {
            "sources": [
                {
                    "source": s.source,
                    "nodes": len(s.nodes),
                    "edges": len(s.edges),
                    "problems": [str(p) for p in s.skips],
                    "notes": [str(p) for p in s.notes],  # on files read whole
                    "seconds": round(s.seconds, 3),
                }
                for s in self.sources
            ],
            "embedded": self.embedded,
            "nodes_added": sum(w.nodes_added for w in self.writes),
            "nodes_updated": sum(w.nodes_updated for w in self.writes),
            "nodes_unchanged": sum(w.nodes_unchanged for w in self.writes),
            "nodes_removed": {source: len(ids) for source, ids in self.removed.items()},
            "edges_removed": dict(self.edges_removed),
            "calibration": self.calibration,
            "completed_unfinished_runs": dict(self.completed),
        }


def write_result(index: Index, result: IngestResult, progress: Progress | None = None) -> list[WriteReport]:
    """Upsert nodes in batches (each batch durable once its call returns), then edges."""
    reports = []
    for start in range(0, len(result.nodes), BATCH):
        chunk = result.nodes[start : start + BATCH]
        reports.append(index.upsert(chunk))
        if progress:
            progress(len(chunk))
    for start in range(0, len(result.edges), BATCH * 8):
        reports.append(index.upsert((), result.edges[start : start + BATCH * 8]))
    return reports


def _held(index: Index) -> Mapping[str, Node]:
    """The nodes the index holds now (one immutable snapshot of them)."""
    return index.snapshot().nodes


def _known_ids(held: Mapping[str, Node], origin: Provenance, file: Path) -> frozenset[str]:
    """The ids a JSON graph's edges may end at besides its own: every node the index
    holds but those read from this very file (one it no longer holds is gone)."""
    return frozenset(
        node_id
        for node_id, node in held.items()
        if node.attrs.get("source_root") != origin.root or item_file(node, origin.root) != file
    )


@dataclass(frozen=True, slots=True)
class _Troubled:
    """What this read could not read (`Problem.keeps`): files, and folders it could not
    list. What an earlier run read from there is kept, unreadable today being no proof
    that it is gone."""

    files: frozenset[Path | None]
    folders: tuple[Path, ...]
    items: frozenset[str] = frozenset()  # ids of items and relations it could not read

    def __contains__(self, file: object) -> bool:
        if file in self.files:
            return True
        return isinstance(file, Path) and any(file.is_relative_to(folder) for folder in self.folders)


def _troubled_files(result: IngestResult, origin: Provenance) -> _Troubled:
    """The files and folders this read could not read. A file it read and parsed is none,
    whatever it warned about (a date kept as text, an entry skipped): it is authoritative
    for what it produces; nor is a file a note is about."""
    files = {recorded_file(p.path, origin.root) for p in result.problems if p.keeps is Unread.FILE}
    folders = {recorded_file(p.path, origin.root) for p in result.problems if p.keeps is Unread.FOLDER}
    items = {p.item for p in result.problems if p.keeps is Unread.ITEM and p.item is not None}
    return _Troubled(frozenset(files), tuple(f for f in folders if f is not None), frozenset(items))


def stale_ids(held: IndexSnapshot, result: IngestResult, origin: Provenance, path: Path) -> list[str]:
    """Ids the index holds from this source that its latest read did not produce: the
    file was deleted or renamed, or the item left the file.

    An item counts as this source's when its recorded provenance (name and root) is
    ``origin``'s, and, for a source that is one file (a JSON graph, a corpus), when it
    came from that file (`item_file`: the file it was read from, whatever ``source`` it
    names): two files in one folder share a root. An item of another file of the folder
    that was deleted or renamed since (its file, `owner_file`, is gone) is stale too,
    and so is an entity a corpus derived (`provenance.derived`: it records no file, being
    the folder's) that nothing staying links to (`provenance.unlinked`). Kept whatever the
    read said: items without provenance (written through the API, or by an older version),
    items of a file this read could not read or parse, or from below a folder it could
    not list (`Unread`: unreadable today is not gone; a warning about a file it read is
    no such problem), and everything when the read produced no item at all (a wrong or
    emptied folder must not wipe a source).
    """
    if not result.nodes:
        return []
    fresh = {n.id for n in result.nodes}
    troubled = _troubled_files(result, origin)
    one_file = None if path.is_dir() else path.resolve()
    stale, shared = [], []
    for node_id, node in held.nodes.items():
        if node_id in fresh or node_id in troubled.items or node.attrs.get("source_name") != origin.name:
            continue
        if node.attrs.get("passage") in troubled.items:  # a fact of a passage that could not be read
            continue
        if node.attrs.get("source_root") != origin.root:
            continue
        if derived(node):
            shared.append(node_id)
            continue
        file = item_file(node, origin.root)
        if file in troubled or (one_file is not None and file != one_file and not _file_gone(node)):
            continue
        stale.append(node_id)
    return sorted(stale + unlinked(held.nodes, held.edges.values(), shared, fresh.union(stale), result.edges))


def _file_gone(node: Node) -> bool:
    """Whether a file owns ``node`` in its folder (`owner_file`) and that file is gone."""
    file = owner_file(node)
    return file is not None and not file.exists()


def stale_edge_ids(held: IndexSnapshot, result: IngestResult, origin: Provenance) -> list[str]:
    """Relations the index holds from items this read produced, that it no longer
    produces: a ``requires`` taken out of a SKILL.md, an edge taken out of a JSON graph.
    Edges of an item whose file this read could not read stay (what could not be read
    today is not gone; a warning about a file it read keeps nothing), and so does every
    edge when the read produced nothing."""
    if not result.nodes:
        return []
    fresh = {n.id: n for n in result.nodes}
    troubled = _troubled_files(result, origin)
    kept = {e.id for e in result.edges}
    return sorted(
        edge_id
        for edge_id, edge in held.edges.items()
        if edge.source in fresh
        and edge_id not in kept
        and edge_id not in troubled.items
        and item_file(fresh[edge.source], origin.root) not in troubled
    )


def index_sources(
    index: Index,
    paths: Sequence[Path],
    kind: SourceKind | None = None,
    *,
    ner: bool = True,
    progress_factory: Callable[[int, str], Progress] | None = None,
    source_name: str | None = None,
    calibrate: bool = True,
    prune: bool = True,
) -> IndexRun:
    """Ingest each source and upsert it into ``index`` (unchanged items embed nothing).

    Args:
        index: Where to write.
        paths: The sources.
        kind: Their kind; detected per path when None.
        ner: Passages: run spaCy NER.
        progress_factory: ``(items, label) -> callback(n)`` for a progress bar per source.
        source_name: The name of the one source in ``paths``; each source is named after
            its folder by default.
        calibrate: Afterwards, let the index learn about itself (``skill_retriever.calibration``:
            channel weights, the "nothing fits" line), unless its calibration is current.
        prune: Remove the items the index holds from a source that the source no longer
            has (:func:`stale_ids` says which are kept whatever; ``run.removed`` lists them),
            and the relations of its items it no longer has (:func:`stale_edge_ids`).

    Raises:
        IngestError: ``source_name`` with several paths; a source name the index (or this
            run) already holds from another folder; ids the index holds from another
            folder. Nothing of that source is written.
    """
    if source_name is not None and len(paths) > 1:
        raise IngestError(
            f"--source-name names one source, but {len(paths)} paths were given; "
            "index them one at a time"
        )
    origins = [Provenance.of(path, source_name) for path in paths]
    check_sources(_held(index), origins)
    run = IndexRun()
    for path, origin in zip(paths, origins, strict=True):
        source_kind = kind or detect_source(path)
        if source_kind != "skills":  # ids of their own: a second name would take them over
            check_one_name(_held(index), origin)
        one_file = _one_file(path, source_kind)
        json_file = one_file if source_kind == "json" else None
        known = _known_ids(_held(index), origin, json_file) if json_file is not None else frozenset()
        result = ingest(path, source_kind, ner=ner, source_name=origin.name, known_ids=known)
        check_ids(_held(index), (n.id for n in result.nodes), origin, one_file)
        result.problems += _held_twice(_held(index), origin, path)
        run.sources.append(result)
        if not result.nodes:  # nothing is written or removed: an earlier run's mark stays
            continue
        if (earlier := run_marks.begin(index, origin.name, path)) is not None:
            run.completed[result.source] = earlier
        progress = progress_factory(len(result.nodes), path.name) if progress_factory else None
        run.writes.extend(write_result(index, result, progress))
        gone = stale_ids(index.snapshot(), result, origin, one_file or path) if prune else []
        cut = stale_edge_ids(index.snapshot(), result, origin) if prune else []
        if gone or cut:
            run.writes.append(index.delete(gone, cut))
        if gone:
            run.removed[result.source] = gone
        if cut:
            run.edges_removed[result.source] = len(cut)
        run_marks.end(index, origin.name)
    if calibrate:
        from skill_retriever.calibration import ensure_calibration

        run.calibration = ensure_calibration(index)[0].summary(index.version)
    return run


def _one_file(path: Path, kind: SourceKind) -> Path | None:
    """The one file a JSON graph or a passage source is read from (a corpus folder's
    ``corpus.json``): what it owns in its folder. None for a folder source."""
    if kind == "passages" and path.is_dir():
        return (path / "corpus.json").resolve()
    return path.resolve() if kind in ("json", "passages") else None


def _held_twice(held: Mapping[str, Node], origin: Provenance, path: Path) -> list[Problem]:
    """A note when the folder is indexed under another source name too: each of its items
    is then held twice (answers fold the copies, but the index, its calibration and its
    installs see two), which is rarely what a second ``--source-name`` meant. Only a
    skills repository gets here: its ids begin with the name; any other source's ids are
    its items' own, so a second name would move them (`provenance.check_one_name` refuses
    it)."""
    if not path.is_dir():
        return []
    others = sorted({
        str(n.attrs.get("source_name"))
        for n in held.values()
        if n.attrs.get("source_root") == origin.root and n.attrs.get("source_name") not in (None, origin.name)
    })
    if not others:
        return []
    names = ", ".join(repr(o) for o in others)
    note = (
        f"this folder is indexed as source {names} too: each of its items is held twice; "
        f"`skill-retriever remove-source {others[0]}` if one name is enough"
    )
    return [Problem(str(path), note, read_whole=True)]


def scrub_secrets(index: Index) -> list[str]:
    """Write back, redacted, the items that hold secrets indexed before ingest redacted
    them (`ingest.scrub`); the ids written. Their text changes, so they embed again."""
    from skill_retriever.ingest.scrub import scrubbed

    fixed = [clean for node in index.snapshot().nodes.values() if (clean := scrubbed(node)) is not None]
    if fixed:
        index.upsert(fixed)
    return sorted(n.id for n in fixed)


def dumps(obj: object) -> str:
    return json.dumps(obj, indent=2, default=str, ensure_ascii=False)
