"""Index a source folder or file: detect what it is, ingest it, write it in batches.

A source is one of: a skills repository (SKILL.md, agents/, commands/, hooks, MCP
configs), a folder of documents (Markdown, reStructuredText, text: `ingest.documents`;
a folder detected as a skills repository that yields nothing is read so when it holds
any), a JSON graph file (``{"nodes": [...], "edges": [...]}``), a tool catalogue folder
(``tools.jsonl``), or a passage corpus (``corpus.json`` of title + text).

Every source has a name (``--source-name``; the folder's name by default) and a root
folder, recorded on its nodes (see `ingest.provenance`). Component ids begin with the
name, so `index_sources` refuses, before writing anything, a source whose name the index
already holds from another folder, a source whose own ids (tools, passages, JSON graph
nodes) the index holds from another folder, or, for a JSON graph or a corpus, from another
file of its folder, and such a source's folder held under another name: each would
silently replace or rename those items; and, without ``--source-name``, a folder inside a
held source that holds items read from it, each of which it would hold twice (`held_sources`).
A folder (or a JSON graph or corpus file) read under a name held only from folders gone
from disk is that source moved (`source_moves`): its items are recorded under the new
folder, their vectors kept.
A JSON graph's edges may end at any node the index holds. One document file read empty is gone.
Nodes indexed before names were recorded have no ``source_root``; they never block a
write, and re-indexing records their origin.
A run that wrote anything ends with `cross_source.link_across_sources`: a ``requires``
(``dependencies``, ``conflicts``) that names no component of its own source resolves to
one of another source of the index, whichever source was indexed first.
"""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from importlib import resources
from pathlib import Path
from typing import Literal, get_args

from skill_retriever.batch_progress import batch_progress
from skill_retriever.cross_source import link_across_sources
from skill_retriever.document_sources import (
    READ_AS_BEFORE,
    document_file_origin,
    emptied_file_ids,
    read_as_documents,
    read_as_documents_before,
)
from skill_retriever.exceptions import ConfigError, IngestError
from skill_retriever.filters import star_access_note
from skill_retriever.held_sources import (
    component_file_advice,
    held_twice,
    holds_sources_inside,
    missing_path,
    refuse_nested,
)
from skill_retriever.index_run import IndexRun, delete_stale
from skill_retriever.ingest.component_json import component_json
from skill_retriever.ingest.provenance import (
    Provenance,
    check_ids,
    check_one_name,
    check_sources,
    item_file,
)
from skill_retriever.ingest.result import IngestResult, Problem
from skill_retriever.ingest.skill_records import MAX_FILE_BYTES
from skill_retriever.ingest.toolret import jsonl_source
from skill_retriever.ingest.walk import refuse_special
from skill_retriever.json_text import dumps  # noqa: F401  (re-exported: its old home, `indexing.dumps`)
from skill_retriever.model import Node
from skill_retriever.moved_sources import moved_here
from skill_retriever.source_moves import as_moved, move_held, moved_file, moves
from skill_retriever.stale import stale_edge_ids, stale_ids
from skill_retriever.stores import api_args, run_marks
from skill_retriever.stores.index import Index, WriteReport
from skill_retriever.stores.snapshot import IndexSnapshot

SourceKind = Literal["skills", "docs", "json", "toolret", "passages"]
#: The source kinds ``kind`` takes (``index --kind``).
SOURCE_KINDS: tuple[str, ...] = get_args(SourceKind)
BATCH = 256

Progress = Callable[[int], None]


def sample_catalogue_path() -> Path:
    """The bundled sample catalogue (our own invented components, shipped in the package)."""
    return Path(str(resources.files("skill_retriever") / "data" / "sample_catalogue"))


def detect_source(path: Path, held: Mapping[str, Node] | None = None, index_dir: Path | None = None) -> SourceKind:
    """What kind of source ``path`` is; an IngestError says how to tell us if unsure, and, for a
    path in a source the index (``held``, at ``index_dir``) holds, what to index instead (`held_sources`)."""
    if not path.exists():
        raise IngestError(missing_path(path, held, index_dir))
    if path.is_file():
        if path.name == "corpus.json":
            return "passages"
        if path.suffix == ".json" and not component_json(path):  # a hook or an MCP config is refused below
            return "json"
        if path.suffix.lower() in (".md", ".markdown", ".mdx", ".rst", ".txt", ".json"):
            from skill_retriever.ingest.document_formats import is_document
            from skill_retriever.ingest.documents import is_component_file

            if is_document(path.name) and not is_component_file(path):
                return "docs"  # one document, read as its folder's read reads it
            # A skill, an agent, a command, a hook or an MCP config is read with its folder (its id: its path there).
            raise IngestError(component_file_advice(held or {}, path, index_dir))
        return jsonl_source(path)  # a tool set's tools.jsonl; any other file: what to index instead
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
    within: Path | None = None,
    max_file_bytes: int = MAX_FILE_BYTES,
    index_dir: Path | None = None,
    parse_progress: Callable[[int], Progress] | None = None,
) -> IngestResult:
    """Read one source into nodes, edges and per-file problems.

    Args:
        path: A skills folder, a folder of documents, a JSON graph file, a tools folder
            or a passage corpus.
        kind: What it is; detected when None (a folder detected as skills that yields
            nothing is read as documents when it holds any, with a note saying so).
        ner: Passages: run spaCy NER (else titles only).
        source_name: Recorded on every node and, for skills, the prefix of every id;
            the source folder's name by default.
        known_ids: JSON graph, one document: ids of nodes already in the index that its
            edges may end at.
        within: One document: the folder of the source it is read in (its own folder by
            default; `document_sources.document_file_origin`).
        max_file_bytes: Skills and documents: a larger file is skipped and reported.
        index_dir: The index it is read for: notes' commands name it; passages keep spaCy's parses there.
        parse_progress: Passages: ``(texts) -> callback(n)`` while spaCy parses the new ones.

    Raises:
        ConfigError: An unknown ``kind``, or a ``max_file_bytes`` that is no whole number above 0.
        IngestError: ``path`` cannot be read as a source (`detect_source`).
    """
    max_file_bytes = check_run_args(kind, max_file_bytes)
    detected = kind is None
    kind = kind or detect_source(path)
    if kind == "skills":
        from skill_retriever.ingest.documents import or_documents
        from skill_retriever.ingest.json_graph import graph_files_note
        from skill_retriever.ingest.skills import ingest_skill_repo

        read = ingest_skill_repo(path, source_name, max_file_bytes=max_file_bytes)
        if not detected:
            return read
        read = or_documents(path, read, source_name, max_file_bytes=max_file_bytes)
        if not read.nodes and (graphs := graph_files_note(path, index_dir)) is not None:
            read.problems.append(graphs)  # a folder of JSON graphs: say how to index them
        return read
    if kind == "docs":
        from skill_retriever.ingest.documents import ingest_document_file, ingest_documents

        if path.is_file():
            base = path.absolute().parent if within is None else Path(within)
            rel = path.name if within is None else path.resolve().relative_to(base.resolve()).as_posix()
            return ingest_document_file(base, rel, source_name, known_ids=known_ids, max_file_bytes=max_file_bytes)
        return ingest_documents(path, source_name, max_file_bytes=max_file_bytes)
    if kind == "json":
        from skill_retriever.ingest.json_graph import ingest_json_graph

        return ingest_json_graph(path, source_name=source_name, known_ids=known_ids)
    if kind == "toolret":
        from skill_retriever.ingest.toolret import ingest_toolret

        return ingest_toolret(path, source_name=source_name)
    from skill_retriever.ingest.passages import ingest_passages

    corpus = path / "corpus.json" if path.is_dir() else path
    return ingest_passages(corpus, nlp=None if ner else False, source_name=source_name, cache_dir=index_dir,
                           parse_progress=parse_progress)


def check_run_args(kind: object, max_file_bytes: object) -> int:
    """``max_file_bytes`` as an int, once ``kind`` and it are known to be usable: an unknown
    kind fell through to the last one, a passage corpus, and was told there is no
    corpus.json; a limit of 0 or below skipped every file, as too large, without an error.

    Raises:
        ConfigError: Naming what to pass instead.
    """
    if kind is not None and kind not in SOURCE_KINDS:
        near = difflib.get_close_matches(str(kind).lower(), SOURCE_KINDS, n=1, cutoff=0.6)
        guess = f" (did you mean {near[0]!r}?)" if near else ""
        raise ConfigError(
            f"kind must be one of {', '.join(SOURCE_KINDS)}, or None to detect it per path; got {kind!r:.60}{guess}"
        )
    if isinstance(max_file_bytes, bool) or not isinstance(max_file_bytes, numbers.Integral) or max_file_bytes <= 0:
        raise ConfigError(
            f"max_file_bytes must be a whole number of bytes above 0, got {max_file_bytes!r:.60} "
            f"(leave it out for {MAX_FILE_BYTES:,})"
        )
    return int(max_file_bytes)


def write_result(index: Index, result: IngestResult, progress: Progress | None = None) -> list[WriteReport]:
    """Upsert nodes in batches (each batch durable once its call returns), then edges."""
    reports = []
    for start in range(0, len(result.nodes), BATCH):
        chunk = result.nodes[start : start + BATCH]
        with batch_progress(progress, len(chunk)) as step:
            reports.append(index.upsert(chunk, progress=step))
    for start in range(0, len(result.edges), BATCH * 8):
        reports.append(index.upsert((), result.edges[start : start + BATCH * 8]))
    return reports


def _held(index: Index) -> Mapping[str, Node]:
    """The nodes the index holds now (one immutable snapshot of them)."""
    return index.snapshot().nodes


def _known_ids(held: Mapping[str, Node], origin: Provenance, file: Path) -> frozenset[str]:
    """The ids a JSON graph's (or one document's) edges may end at besides its own: every node the index
    holds but those read from this very file (one it no longer holds is gone)."""
    return frozenset(
        node_id
        for node_id, node in held.items()
        if node.attrs.get("source_root") != origin.root or item_file(node, origin.root) != file
    )


def index_sources(
    index: Index,
    paths: Sequence[api_args.PathArg] | api_args.PathArg,
    kind: SourceKind | None = None,
    *,
    ner: bool = True,
    progress_factory: Callable[[int, str], Progress] | None = None,
    source_name: str | None = None,
    calibrate: bool = True,
    prune: bool = True,
    max_file_bytes: int = MAX_FILE_BYTES,
) -> IndexRun:
    """Ingest each source and upsert it into ``index`` (unchanged items embed nothing).

    Args:
        index: Where to write.
        paths: The sources (each a str or os.PathLike, else ConfigError); one path alone is one.
        kind: Their kind; detected per path when None.
        ner: Passages: run spaCy NER.
        progress_factory: ``(items, label) -> callback(n)`` for a progress bar per source
            (and, for a passage corpus, one while spaCy reads its new passages).
        source_name: The name of the one source in ``paths``; each source is named after
            its folder by default.
        calibrate: Afterwards, let the index learn about itself (``skill_retriever.calibration``:
            the "nothing fits" line; no channel weights yet), unless its calibration is current.
        prune: Remove the items the index holds from a source that the source no longer
            has (:func:`stale_ids` says which are kept whatever; ``run.removed`` lists them,
            ``run.kept`` when off), and the relations of its items it no longer has
            (:func:`stale_edge_ids`, removed also when off); one document file read whole
            and empty counts as gone (`emptied_file_ids`).
        max_file_bytes: Skills and documents: a larger file is skipped and reported.

    Raises:
        ConfigError: ``paths`` is not a path or a list of them; ``kind`` is not one of
            `SOURCE_KINDS`; ``max_file_bytes`` is not a whole number above 0. Nothing is read.
        IngestError: ``source_name`` with several paths; a source name the index (or this
            run) already holds from another folder, unless every such folder is gone and
            the source is a folder or a JSON graph or corpus file that holds an item of it: then it is
            moved (`source_moves`); ids the index holds from another
            folder; a folder inside a held source that holds its items, without
            ``source_name`` (`held_sources.refuse_nested`). Nothing of that source is written.
    """
    paths = api_args.source_paths(paths)  # (before anything reads them: a str is one path)
    max_file_bytes = check_run_args(kind, max_file_bytes)
    if source_name is not None and len(paths) > 1:
        raise IngestError(
            f"--source-name names one source, but {len(paths)} paths were given; "
            "index them one at a time"
        )
    refuse_special(paths)  # a named pipe given as the source: said so, never read
    kinds = [kind or detect_source(path, _held(index), index.path) for path in paths]
    origins = [
        document_file_origin(_held(index), path, source_name, index.path) if k == "docs" and path.is_file()
        else Provenance.of(path, source_name)
        for path, k in zip(paths, kinds, strict=True)
    ]
    moving = moves(_held(index), paths, origins, kinds)  # a folder read under the name of one gone: `source_moves`
    check_sources(_held(index), origins, index.path, moving)
    for path, origin, source_kind in zip(paths, origins, kinds, strict=True):
        if source_kind in ("skills", "docs"):
            refuse_nested(_held(index), origin, path, named=source_name is not None, index_dir=index.path)
    before = index.snapshot()  # which names lose their component by this run (`cross_source`)
    run = IndexRun()
    for path, origin, source_kind in zip(paths, origins, kinds, strict=True):
        # Ids of their own: a second name would take them over. A folder of documents is
        # read as a skills repository is: its ids begin with the name.
        held = as_moved(_held(index), origin, moving.get(origin.name))  # (what a move will hold)
        if source_kind not in ("skills", "docs"):
            check_one_name(held, origin, index.path)
        one_file = _one_file(path, source_kind)
        linked_file = one_file if source_kind in ("json", "docs") else None  # its edges may end at held items
        known = _known_ids(_held(index), origin, linked_file) if linked_file is not None else frozenset()
        # ``kind``, not ``source_kind``: a folder detected as skills may be read as documents.
        result = ingest(path, kind, ner=ner, source_name=origin.name, known_ids=known,
                        within=Path(origin.root) if one_file is not None and source_kind == "docs" else None,
                        max_file_bytes=max_file_bytes, index_dir=index.path,
                        parse_progress=_parse_bar(progress_factory, path))
        # Read as a skills repository now but held as documents: read as documents again,
        # and said. Only then: a folder read as documents anyway was told --kind skills
        # would read it as a skills repository, which read nothing there.
        if (kind is None and source_kind == "skills" and read_as_documents_before(held, origin)
                and not read_as_documents(result)):
            result = ingest(path, "docs", source_name=origin.name, max_file_bytes=max_file_bytes, index_dir=index.path)
            result.problems.insert(0, Problem(str(path), READ_AS_BEFORE, read_whole=True))
        check_ids(held, (n.id for n in result.nodes), origin, one_file)
        file_move = moved_file(_held(index), origin, moving.get(origin.name), one_file, result.nodes, index.path)
        result.problems += held_twice(_held(index), origin, path, index.path)
        result.problems += holds_sources_inside(_held(index), origin, path, result.nodes, index.path)
        if source_kind in ("skills", "docs"):  # ids begin with the name: a moved folder is a second source
            result.problems += moved_here(_held(index), origin, path, result.nodes, index.path)
        if (starred := star_access_note(result.nodes)) is not None:
            result.problems.append(Problem(str(path), starred, read_whole=True))
        run.sources.append(result)
        if not result.nodes:  # nothing is written or removed (an earlier run's mark stays) ...
            if prune and source_kind == "docs" and one_file is not None and (emptied := emptied_file_ids(_held(index), result, origin)):
                delete_stale(index, run, result.source, emptied)  # ... but what an emptied file held
            continue
        # A source the index holds as read, with no mark of an earlier run, is marked only
        # if something of it is to be removed: a run of unchanged sources writes nothing.
        marked = origin.name in moving or not _holds_as_read(index.snapshot(), result, origin.name)
        if marked and (earlier := run_marks.begin(index, origin.name, path)) is not None:
            run.completed[result.source] = earlier
        if origin.name in moving:  # read from here now: its items recorded under this folder
            run.moved[result.source] = move_held(index, origin, moving[origin.name], file_move)
        progress = progress_factory(len(result.nodes), path.name) if progress_factory else None
        run.source_writes[result.source] = write_result(index, result, progress)
        run.writes.extend(run.source_writes[result.source])
        gone = stale_ids(index.snapshot(), result, origin, one_file or path)
        if not prune and gone:  # kept, and said: the run reports them as it would removals
            run.kept[result.source], gone = gone, []
        # A relation a file it read no longer states goes even with prune off, which keeps
        # the items of files gone, not what a file read today no longer says.
        cut = stale_edge_ids(index.snapshot(), result, origin)
        if not marked and (gone or cut):
            run_marks.begin(index, origin.name, path)
        delete_stale(index, run, result.source, gone, cut)
        run_marks.end(index, origin.name)
    if any(s.nodes for s in run.sources) or run.removed:
        _link_across_sources(index, run, before)
    if calibrate:
        from skill_retriever.calibration import ensure_calibration

        run.calibration = ensure_calibration(index)[0].summary(index.version)
    return run


def _holds_as_read(snap: IndexSnapshot, result: IngestResult, name: str) -> bool:
    """Whether the index holds every item and relation of ``result`` as read, and no mark of
    an unfinished run of source ``name`` (that run's mark is this run's to take off)."""
    if name in snap.unfinished_runs:
        return False
    return (all(snap.nodes.get(n.id) == n for n in result.nodes)
            and all(snap.edges.get(e.id) == e for e in result.edges))


def _parse_bar(factory: Callable[[int, str], Progress] | None, path: Path) -> Callable[[int], Progress] | None:
    """The bar of spaCy reading a corpus's new passages: a first run of 6,119 passages
    reads for one to two minutes on 2 cores before its first item is written."""
    if factory is None:
        return None
    return lambda texts: factory(texts, f"{path.name}: reading passages (spaCy)")


def _link_across_sources(index: Index, run: IndexRun, before: IndexSnapshot) -> None:
    """Resolve in other sources what each source could not (order of indexing does not
    matter), and take back the notes on names resolved so."""
    report = link_across_sources(index, before)
    run.cross_source = report
    run.writes.extend(report.writes)
    for result in run.sources:
        result.problems = [p for p in result.problems if not report.settles(p)]


def _one_file(path: Path, kind: SourceKind) -> Path | None:
    """The one file a JSON graph, a passage source or one document is read from (a corpus
    folder's ``corpus.json``): what it owns in its folder. None for a folder source."""
    if kind == "passages" and path.is_dir():
        return (path / "corpus.json").resolve()
    if kind == "docs":
        return path.resolve() if path.is_file() else None
    return path.resolve() if kind in ("json", "passages") else None

