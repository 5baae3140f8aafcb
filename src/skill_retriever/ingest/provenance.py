"""Where items came from, and the checks that keep two sources from replacing each other.

Every node a reader returns carries ``attrs["source_root"]`` (the absolute, resolved
folder that was indexed: a skills repository, a tool-catalogue folder, the folder of a
``corpus.json`` or of a JSON graph file) and ``attrs["source_name"]`` (the name the user
gave the source, by default that folder's name). Component ids are
``f"{source_name}/{relative_path}"``, so two repositories whose folders share a name would
silently overwrite each other's items: `check_sources` refuses that before anything is
written, and `check_ids` refuses a source whose own ids (tool ids, passage ids, ids in a
JSON graph) are already held by the index from another folder.

A source that is one file in a folder (a JSON graph, a passage corpus) knows the file of
each node it reads (`owner_file`: a graph node's ``attrs["source_file"]``, absolute, as
its ``source`` may name a URL; a corpus's passages and facts name their corpus as their
``source``): the files of one folder are one source, and `check_ids` refuses an id one
file would take from the other, while re-indexing a file prunes only what that file no
longer holds (`item_file`). The entities a corpus derives have no file (`derived`): two
files naming one thing share its entity, which belongs to the folder. A folder is one
source under one name: `check_one_name` refuses a second name for a source whose ids are
its items' own (all but skills repositories, whose ids begin with the name).

Migration: indexes built before this change hold nodes without ``source_root``. Such a
node's origin is unknown, so it never blocks a write; the next write of the same id
records its origin. Likewise a node without ``source_file`` never blocks another file
of its folder.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from skill_retriever.advice import Word, command
from skill_retriever.exceptions import IngestError
from skill_retriever.model import Edge, Node, NodeKind

_BAD_NAME_RE = re.compile(r"[/\\\x00-\x1f\x7f]")
#: The attr that records the file a one-file source's node was read from.
SOURCE_FILE = "source_file"


def source_root(path: Path) -> Path:
    """The folder a source stands for: the path itself, or the folder holding a file."""
    resolved = Path(path).resolve()
    return resolved if resolved.is_dir() else resolved.parent


def recorded_file(source: str, root: str | Path | None = None) -> Path | None:
    """The file a node's recorded ``source`` names, made absolute; None when it has none.

    Sources are recorded absolute; an index written before that holds them as the user
    gave them, relative to the folder indexing ran in. Such a path is read under the
    source's ``root`` when it lies there, else against the working folder. Both the
    re-index pruning and install read sources through this one rule.
    """
    if not source:
        return None
    p = Path(source)
    if not p.is_absolute() and root is not None and (Path(root) / p).exists():
        p = Path(root) / p
    return _real(p)


def _real(path: Path) -> Path:
    """``path`` with its links resolved as far as they go: ``os.path.realpath`` stops at a
    link loop (a file replaced by a link to itself), where ``Path.resolve`` raises
    RuntimeError and aborted the whole run after its items were written."""
    return Path(os.path.realpath(path))


def item_file(node: Node, root: str | Path | None = None) -> Path | None:
    """The file ``node`` was read from: its recorded ``source_file`` (JSON graph nodes),
    else the file its ``source`` names (`recorded_file`); None when it has neither."""
    recorded = node.attrs.get(SOURCE_FILE)
    if isinstance(recorded, str) and recorded:
        return _real(Path(recorded))
    return recorded_file(node.source, root)


def derived(node: Node) -> bool:
    """Whether ``node`` was derived from the passages of a folder rather than read from one
    file: a corpus's entity (no ``source``, no ``source_file``), which a passage of any file
    of the folder may name. It stays while something that stays links to it."""
    return node.kind is NodeKind.ENTITY and not node.source and not node.attrs.get(SOURCE_FILE)


def unlinked(
    nodes: Mapping[str, Node], edges: Iterable[Edge], shared: Iterable[str], going: set[str],
    produced: Iterable[Edge],
) -> list[str]:
    """Of the ``shared`` derived nodes (`derived`), those no edge joins to a node that
    stays: a passage or fact of another file of the folder, or of this file where the read
    could not read it, or one written through the API. A node of this read or going away
    (``going``) counts only by an edge the read ``produced``; a derived node never counts."""
    wanted, kept, linked = set(shared), {e.id for e in produced}, set()
    for edge in edges:
        for end, other in ((edge.target, edge.source), (edge.source, edge.target)):
            node = nodes.get(other) if end in wanted else None
            if node is not None and not derived(node) and (edge.id in kept or other not in going):
                linked.add(end)
    return sorted(wanted - linked)


def owner_file(node: Node) -> Path | None:
    """The file that owns ``node`` within its folder: its ``source_file`` (a JSON graph's
    node), or the corpus a corpus's passage or fact names as its ``source``; None when no
    file owns it (a folder source's item, a corpus's entity)."""
    recorded = node.attrs.get(SOURCE_FILE)
    if isinstance(recorded, str) and recorded:
        return Path(recorded).resolve()
    kind, attrs = node.kind, node.attrs
    if (kind is NodeKind.PASSAGE and "idx" in attrs) or (kind is NodeKind.FACT and "passage" in attrs):
        return recorded_file(node.source, attrs.get("source_root"))
    return None


@dataclass(frozen=True, slots=True)
class Provenance:
    """A source's name and its absolute root, as recorded on its nodes."""

    root: str
    name: str

    @classmethod
    def of(cls, path: Path, name: str | None = None) -> Provenance:
        """The provenance of ``path``; ``name`` defaults to the root folder's name.

        Raises:
            IngestError: The name is not one plain path segment: blank, ``.`` or ``..``,
                holding a slash, backslash or control character, or (a name given)
                with a space at either end.
        """
        root = source_root(path)
        chosen = root.name if name is None else name
        # The name is the first segment of its items' ids: ".." made ids like "../a.md",
        # and "docs " ids that `remove-source docs` and `--sources docs` never matched.
        if (not chosen.strip() or chosen in (".", "..") or _BAD_NAME_RE.search(chosen)
                or (name is not None and chosen != chosen.strip())):
            raise IngestError(
                f"source name {chosen!r} for {path} is unusable: it is the first segment of its "
                "items' ids, so it must be one path segment: not blank, . or .., no slash, "
                "backslash or control character, no space at either end (e.g. --source-name team-docs)"
            )
        return cls(str(root), chosen)

    def attrs(self) -> dict[str, str]:
        return {"source_root": self.root, "source_name": self.name}

    def stamp(self, node: Node) -> Node:
        """``node`` with this provenance in its attrs (what the file said is overridden)."""
        return node.with_changes(attrs={**node.attrs, **self.attrs()})


def _recorded(node: Node) -> tuple[str, str] | None:
    name, root = node.attrs.get("source_name"), node.attrs.get("source_root")
    if isinstance(name, str) and isinstance(root, str):
        return name, root
    return None  # indexed before provenance was recorded: origin unknown


def check_sources(
    held: Mapping[str, Node], sources: Sequence[Provenance], index_dir: Word | None = None, moved: Collection[str] = ()
) -> None:
    """Refuse a source named like one the index (or this run) holds from another folder
    (the commands it advises name the index at ``index_dir``), unless its name is in
    ``moved``: every folder it is held from is gone, and it is read from a folder now
    (`source_moves.moves`), which the run moves it to.

    Raises:
        IngestError: Two folders would share one source name.
    """
    in_run: dict[str, str] = {}
    for s in sources:
        first = in_run.setdefault(s.name, s.root)
        if first != s.root:
            raise IngestError(
                f"{s.root} and {first} would both be indexed as source {s.name!r} and their "
                "ids would collide; index them one at a time, each with its own --source-name"
            )
    roots: dict[str, str] = {}
    for node in held.values():
        found = _recorded(node)
        if found is not None and found[0] in in_run:
            roots.setdefault(found[0], found[1])
    for s in sources:
        other = roots.get(s.name)
        if other is not None and other != s.root and s.name not in moved:
            # A folder, a JSON graph or a corpus read under the name of one gone is a move
            # (`moved`); one document file moves no source (its id is its path in its folder).
            gone = (
                f"{other} is gone (moved to {s.root}?), but one document file moves no source: index a folder "
                f"of documents whole, or run `{command(['remove-source', s.name], index_dir)}` first, then this "
                f"command again (its items embed again); or "
                if not Path(other).exists()
                else ""
            )
            raise IngestError(
                f"the index already holds source {s.name!r} from {other}; indexing {s.root} "
                f"under the same name would replace its items: {gone}pass --source-name NAME "
                "(source_name=) to index it beside them"
            )


def check_one_name(held: Mapping[str, Node], origin: Provenance, index_dir: Word | None = None) -> None:
    """Refuse indexing a folder the index (at ``index_dir``) holds under another source name,
    for a source whose ids are its items' own (passages, tools, JSON graph nodes): the items
    would silently move to the new name, the old one naming what is left.

    Raises:
        IngestError: The folder's items are held under another name.
    """
    others = sorted({
        found[0] for node in held.values()
        if (found := _recorded(node)) is not None and found[1] == origin.root and found[0] != origin.name
    })
    if others:
        first = others[0]
        raise IngestError(
            f"the index holds {origin.root} as source {first!r}, and a folder is one source: "
            f"indexing it as {origin.name!r} would move its items to {origin.name!r} (their ids are "
            f"their own, not the source name's) and leave under {first!r} what this read does not "
            f"produce; index it as {first!r} (--source-name {shlex.quote(first)}, or none when that is the "
            f"folder's name), or run `{command(['remove-source', first], index_dir)}` first (nothing was written)"
        )


def check_ids(
    held: Mapping[str, Node], ids: Iterable[str], origin: Provenance, file: Path | None = None
) -> None:
    """Refuse items whose ids the index holds from another folder, or, for a source that
    is one ``file`` (a JSON graph, a passage corpus), from another file of the same folder.

    Component ids start with the source name, so `check_sources` already covers them;
    this catches ids a source brings itself (tools, passages, JSON graph nodes). A held
    item whose file no longer exists (deleted or renamed) does not block: its id moves
    to this file; nor does an entity a corpus derived (`derived`), which the files of a
    folder share.

    Raises:
        IngestError: An id is held from another source root, or from another file.
    """
    mine = None if file is None else Path(file).resolve()
    clashes: list[tuple[Node, Path]] = []
    for node_id in ids:
        old = held.get(node_id)
        found = None if old is None else _recorded(old)
        if found is None or old is None:
            continue
        if found[1] != origin.root:
            raise IngestError(
                f"node id {node_id!r} from {origin.root} is already in the index from "
                f"{found[1]} (source {found[0]!r}); writing it would replace that item: index "
                "this source into another --index-dir, or give its items ids of their own"
            )
        theirs = None if mine is None else owner_file(old)  # None: recorded before files were
        if theirs is not None and theirs != mine and theirs.is_file():
            clashes.append((old, theirs))
    if clashes:
        raise IngestError(_clash(clashes, mine, origin))


def _clash(clashes: list[tuple[Node, Path]], mine: Path | None, origin: Provenance) -> str:
    """What `check_ids` says of ids another file of the folder holds: both files, the
    ids (a corpus's passages by their ``idx``) and what to do."""
    old, theirs = clashes[0]
    files = sorted({str(t) for _, t in clashes})
    where = f"{theirs}" if len(files) == 1 else f"{theirs} and {len(files) - 1} other file(s)"
    passages = [n for n, _ in clashes if n.kind is NodeKind.PASSAGE]
    if not passages:
        return (
            f"node id {old.id!r} in {mine} is already in the index from {where} "
            f"(source {origin.name!r}); writing it would replace that item: give one of "
            "them another id (nothing of this file was written)"
        )
    shown = ", ".join(str(n.attrs.get("idx", n.id)) for n in passages[:5])
    more = f" and {len(passages) - 5} more" if len(passages) > 5 else ""
    count = f"{len(passages)} passages" if len(passages) > 1 else "1 passage"
    verb = "have ids" if len(passages) > 1 else "has an id"
    return (
        f"{count} of {mine} (idx {shown}{more}) {verb} the index holds from {where}, "
        f"another file of source {origin.name!r} (a passage's id is passage:<idx>); "
        "writing them would replace that file's passages: renumber the idx of one file's "
        "passages, or index this file into another --index-dir (nothing of this file was written)"
    )
