"""Which source the index holds around a path, for what `indexing` tells about that path.

A source is held under its root folder (`ingest.provenance`). A path given to ``index``
may lie inside one, and what to do then depends on it:

- one file of a skills repository the index holds is read only with its repository (its
  ids are paths there): the advice names that source's folder (`component_file_advice`),
  not the file's own folder, which would become a second source holding it again;
- a folder inside a held source whose items come from files there would, indexed as a
  source of its own, hold each of them twice: refused (`refuse_nested`) unless a
  ``--source-name`` asks for it, which gets the note a second name for one folder gets
  (`held_twice`);
- a folder that holds a source the index holds, read now as a source of its own, reads
  that source's files again: noted (`holds_sources_inside`), as the other way round is
  refused only for a folder not named on purpose;
- a path gone from disk (deleted, a dangling or looping link) says what it is, and,
  when the index holds items read from it, which command takes them out; a source read
  from that very path (or from a folder in it) is named, with the commands that take it
  out or, moved, take it in from its new folder (`missing_path`, `source_moves`).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from skill_retriever.advice import Placeholder, Word, command
from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.component_json import component_json
from skill_retriever.ingest.provenance import SOURCE_FILE, Provenance, item_file
from skill_retriever.ingest.result import Problem
from skill_retriever.model import Node

__all__ = [
    "HeldSource", "component_file_advice", "held_sources", "held_twice", "holds_sources_inside", "missing_path", "refuse_nested",
    "sources_around",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class HeldSource:
    """A source the index holds: its name and root folder."""

    name: str
    root: Path

    def command(self, index_dir: Word | None) -> str:
        """The command that indexes it again into ``index_dir`` (its name given when not its folder's)."""
        named = [] if self.name == self.root.name else ["--source-name", self.name]
        return command(["index", self.root, *named], index_dir)

    def files(self, held: Mapping[str, Node]) -> dict[str, Path | None]:
        """Its items' ids and the files they were read from (`provenance.item_file`)."""
        return {
            node_id: item_file(node, self.root)
            for node_id, node in held.items()
            if node.attrs.get("source_name") == self.name and node.attrs.get("source_root") == str(self.root)
        }


def _real(path: Path) -> Path:
    """``path`` absolute with its links resolved as far as they go (never raising on a loop)."""
    return Path(os.path.realpath(path))


def held_sources(held: Mapping[str, Node]) -> list[HeldSource]:
    """Every source the index holds (nodes that record a name and a root), by name."""
    roots = {
        (name, root)
        for node in held.values()
        if isinstance(name := node.attrs.get("source_name"), str) and isinstance(root := node.attrs.get("source_root"), str)
    }
    return [HeldSource(name, Path(root)) for name, root in sorted(roots)]


def sources_around(held: Mapping[str, Node], path: Path) -> list[HeldSource]:
    """The sources the index holds whose root folder holds ``path`` (a root that is the
    path itself is not around it), outermost first."""
    target = _real(path)
    around = [s for s in held_sources(held) if target != s.root and target.is_relative_to(s.root)]
    return sorted(around, key=lambda s: (len(s.root.parts), s.name))


def component_file_advice(held: Mapping[str, Node], file: Path, index_dir: Word | None = None) -> str:
    """What to index instead of ``file``, one component file of a skills repository: the
    source the index (at ``index_dir``) holds around it (the outermost: its repository), else
    the file's folder. A JSON component (`ingest.component_json`: a hook definition, an MCP
    configuration) is named for what it is, since read alone as a JSON graph it was refused
    for a missing ``"nodes"``; it is no document, so ``--kind docs`` is offered only for the
    others."""
    what = component_json(file) if file.suffix == ".json" else None
    said = f"{file} is {what}, one file" if what else f"{file} is one file"
    around = sources_around(held, file)
    if around:
        source = around[0]
        return (
            f"{said} of the source {source.name!r} ({source.root}), which is read whole "
            f"(an item's id is its path there): index that source again (`{source.command(index_dir)}`)"
        )
    advice = f"{said} of a skills repository; index the folder that holds it (`{command(['index', file.parent], index_dir)}`)"
    if what:
        return f"{advice}; given alone, a .json file is read as a JSON graph, which it is not"
    return f"{advice}, or give `--kind docs` to read this file as a document"


def _inside(held: Mapping[str, Node], folder: Path) -> list[tuple[HeldSource, int]]:
    """The sources around ``folder`` that hold items read from files in it, with how many."""
    target = _real(folder)
    found = []
    for source in sources_around(held, folder):
        count = sum(1 for file in source.files(held).values() if file is not None and file.is_relative_to(target))
        if count:
            found.append((source, count))
    return found


def refuse_nested(
    held: Mapping[str, Node], origin: Provenance, folder: Path, named: bool, index_dir: Word | None = None
) -> None:
    """Refuse to index ``folder`` as a new source when a source the index holds around it
    holds items read from it already: each would be held twice, the old copy going stale.

    Args:
        held: The index's nodes.
        origin: The source ``folder`` would be.
        folder: A folder read as skills or documents (ids beginning with the name).
        named: A ``--source-name`` was given: a second copy asked for (`held_twice` notes it).
        index_dir: The index's folder, named in the command the refusal advises.

    Raises:
        IngestError: It would be a new source holding another one's items again.
    """
    if named or not folder.is_dir():
        return
    if any(n.attrs.get("source_root") == origin.root and n.attrs.get("source_name") == origin.name for n in held.values()):
        return  # a source held already (from before this check): indexed again, with a note
    inside = _inside(held, folder)
    if inside:
        source, count = inside[0]
        raise IngestError(
            f"{folder} lies inside the source {source.name!r} ({source.root}), which holds {count} item(s) "
            f"read from it: indexed as a source of its own, each would be held twice. To read it "
            f"again, index that source (`{source.command(index_dir)}`); to hold a second copy on purpose, "
            "give it a name (--source-name NAME)"
        )


def held_twice(held: Mapping[str, Node], origin: Provenance, path: Path, index_dir: Word | None = None) -> list[Problem]:
    """A note when the folder is indexed under another source name too, or lies inside a
    source that holds its items: each is then held twice (answers fold the copies, but the
    index, its calibration and its installs see two). Only a skills repository or a folder
    of documents gets here: its ids begin with the name; any other source's ids are its
    items' own, so a second name would move them (`provenance.check_one_name` refuses it).
    ``index_dir`` is named in the command a note advises."""
    if not path.is_dir():
        return []
    others = sorted({
        str(n.attrs.get("source_name"))
        for n in held.values()
        if n.attrs.get("source_root") == origin.root and n.attrs.get("source_name") not in (None, origin.name)
    })
    notes = []
    if others:
        names = ", ".join(repr(o) for o in others)
        # under three names it is held three times, and one name is left after removing two
        times = "twice" if len(others) == 1 else f"{len(others) + 1} times"
        removes = " and ".join(f"`{command(['remove-source', o], index_dir)}`" for o in others)
        notes.append(
            f"this folder is indexed as source {names} too: each of its items is held {times}; "
            f"{removes} if one name is enough"
        )
    for source, count in _inside(held, path):
        notes.append(
            f"this folder lies inside the source {source.name!r} ({source.root}), which holds {count} "
            f"item(s) read from it too: each is held twice; `{command(['remove-source', origin.name], index_dir)}` "
            "if that source is enough"
        )
    return [Problem(str(path), note, read_whole=True) for note in notes]


def holds_sources_inside(
    held: Mapping[str, Node], origin: Provenance, path: Path, read: Iterable[Node], index_dir: Word | None = None
) -> list[Problem]:
    """A note for each source the index (at ``index_dir``) holds whose root lies inside
    ``path`` (read now as the source ``origin``) and whose files this run read too
    (``read``): each of their items is then held twice, once by each source."""
    if not path.is_dir():
        return []
    target = _real(path)
    files = {f for n in read if (f := item_file(n, origin.root)) is not None}
    notes = []
    for inner in held_sources(held):
        if inner.name == origin.name or inner.root == target or not inner.root.is_relative_to(target):
            continue
        if count := sum(1 for f in inner.files(held).values() if f in files):
            notes.append(Problem(str(path), (
                f"the source {inner.name!r} ({inner.root}) lies inside this folder, and this run read {count} of "
                f"its item(s) again: each is held twice; `{command(['remove-source', inner.name], index_dir)}` if this "
                "source is enough"
            ), read_whole=True))
    return notes


def missing_path(path: Path, held: Mapping[str, Node] | None = None, index_dir: Word | None = None) -> str:
    """Why ``path`` cannot be indexed, it being no file or folder: a link loop, a link to
    nothing, or gone; with, when the index (``held``, at ``index_dir``) holds items read from
    it, the command that takes them out."""
    if path.is_symlink():
        try:
            os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return f"{path} is a symbolic link loop (it leads back to itself); point it at a file or folder"
        return f"{path} is a symbolic link to {os.readlink(path)}, which does not exist"
    what = f"{path} does not exist"
    if whole := _sources_at(held or {}, path, index_dir):
        return f"{what}; {whole}"
    for source in sources_around(held or {}, path):
        target = _real(path)
        files = [f for f in source.files(held or {}).values() if f is not None and (f == target or f.is_relative_to(target))]
        if not files:
            continue
        owned = any(
            isinstance(n.attrs.get(SOURCE_FILE), str) and n.attrs.get("source_name") == source.name
            for n in (held or {}).values()
        )
        # A folder source mirrors its files; a JSON graph's or a corpus's file is one of its folder's.
        how = (
            f"indexing another file of its folder again takes them out "
            f"(`{command(['remove-source', source.name], index_dir)}` when it was the only one)"
            if owned else f"index that source again to take them out (`{source.command(index_dir)}`)"
        )
        if owned and not source.root.is_dir():  # its folder gone: moved, its file moves it (`source_moves`)
            how += (f"; if it was moved, `{command(['index', Placeholder('NEWPATH'), '--source-name', source.name], index_dir)}` "
                    "takes them in from there (their vectors kept)")
        return f"{what}; the index holds {len(files)} item(s) read from it in the source {source.name!r}: {how}"
    return f"{what}; give a skills folder, a folder of documents, a JSON graph, a tools folder or a corpus.json"


def _sources_at(held: Mapping[str, Node], path: Path, index_dir: Word | None) -> str | None:
    """What the index holds of the sources read from ``path`` itself (or from folders in
    it), gone from disk with it, and how to take them out or, moved, take them in again
    from the new folder: None when it holds none. The new folder indexed under the
    source's name moves it there (`source_moves`): its items keep their ids and vectors."""
    target = _real(path)
    gone = [s for s in held_sources(held) if s.root == target or s.root.is_relative_to(target)]
    if not gone:
        return None
    counts = [len(s.files(held)) for s in gone]
    named = ", ".join(f"{s.name!r} ({n} item(s){'' if s.root == target else f', from {s.root}'})"
                      for s, n in zip(gone, counts, strict=True))
    remove = " and ".join(f"`{command(['remove-source', s.name], index_dir)}`" for s in gone)
    moved = " and ".join(
        f"`{command(['index', Placeholder('NEWPATH'), '--source-name', s.name], index_dir)}`" for s in gone
    )
    several = len(gone) > 1
    return (f"the index holds the source{'s' if several else ''} {named} read from it: "
            f"{remove} take{'' if several else 's'} {'them' if several else 'it'} out; if it was moved, "
            f"{moved} take{'' if several else 's'} {'them' if several else 'it'} in from there "
            "(its ids and vectors kept: unchanged texts embed nothing)")
