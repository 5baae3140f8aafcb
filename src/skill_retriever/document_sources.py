"""How `indexing` reads a source of documents again: as the index holds it.

- A folder the index holds as documents only stays documents (`read_as_documents_before`),
  though a read of its files would now find a skills repository: a folder of runbooks
  would become one the day one of its files is a SKILL.md, and indexing it again would
  replace every document by that one skill. ``--kind`` says otherwise.
- One document file (`index docs/ops/restore.md`) is read as its folder's read reads it
  (`document_file_origin`): in the documents source the index holds around it, if any,
  with the id and provenance that source gives it, so that re-reading one changed file
  updates that source's item rather than adding a copy under another name; else as a
  file of its own folder (source named after that folder, as indexing the folder would).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from skill_retriever.advice import Word, command
from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.document_formats import READ_SUFFIXES
from skill_retriever.ingest.provenance import Provenance, item_file, source_root
from skill_retriever.ingest.result import IngestResult
from skill_retriever.model import Node, NodeKind

__all__ = ["READ_AS_BEFORE", "document_file_origin", "emptied_file_ids", "read_as_documents", "read_as_documents_before"]

#: The note on a folder read as documents because the index holds it so.
READ_AS_BEFORE = (
    "read as documents, as the index holds this source (--kind skills reads it as a skills "
    "repository, replacing its documents)"
)


def _kinds_by_source(held: Mapping[str, Node]) -> dict[tuple[str, str], set[NodeKind]]:
    """The kinds of item each recorded source (name, root) holds."""
    kinds: dict[tuple[str, str], set[NodeKind]] = {}
    for node in held.values():
        name, root = node.attrs.get("source_name"), node.attrs.get("source_root")
        if isinstance(name, str) and isinstance(root, str):
            kinds.setdefault((name, root), set()).add(node.kind)
    return kinds


def read_as_documents_before(held: Mapping[str, Node], origin: Provenance) -> bool:
    """Whether the index holds this source (its name, from this folder) as documents only."""
    return _kinds_by_source(held).get((origin.name, origin.root)) == {NodeKind.DOCUMENT}


def read_as_documents(result: IngestResult) -> bool:
    """Whether a folder's detected read (`indexing.ingest`) read it as documents, finding
    no component there: the note it carries says so."""
    # the documents reader loads when used
    from skill_retriever.ingest.document_notes import READ_AS_PREFIX

    return any(p.read_whole and p.message.startswith(READ_AS_PREFIX) for p in result.problems)


def document_file_origin(
    held: Mapping[str, Node], file: Path, source_name: str | None, index_dir: Word | None = None
) -> Provenance:
    """The source one document ``file`` is read in: with ``source_name``, its own folder
    under that name; else the innermost documents-only source the index holds whose
    folder holds the file; else its own folder, named after it.

    Raises:
        IngestError: No ``source_name``, and the file's own folder is the root of a source
            of other items (a skills repository): the document would join that source,
            whose next read would take it out again. ``file`` is a link out of the folder
            whose read skips it (`_refuse_link_out`).
    """
    _refuse_link_out(held, file, index_dir)
    if source_name is None:
        folder = source_root(file)
        sources = _kinds_by_source(held)
        around = [
            (name, root)
            for (name, root), kinds in sources.items()
            if kinds == {NodeKind.DOCUMENT} and folder.is_relative_to(root)
        ]
        if around:
            name, root = max(around, key=lambda source: len(source[1]))
            return Provenance(root, name)
        if clash := sorted(name for name, root in sources if root == str(folder)):
            raise IngestError(
                f"{file} lies in the folder of the source {clash[0]!r}, which the index holds as "
                "more than documents; give it a source of its own (--source-name NAME), or index "
                "the folder again"
            )
    return Provenance.of(file, source_name)


def _refuse_link_out(held: Mapping[str, Node], file: Path, index_dir: Word | None) -> None:
    """Refuse ``file`` when it is a link to a file outside the documents folder it lies in
    (the documents source the index holds around it, else its own folder), which that
    folder's read skips (`walk`): read here, it became a source named after the folder
    it leads to, which no read of the folder ever took out. ``index_dir`` is named in the
    command it advises."""
    folder = Path(os.path.realpath(file.absolute().parent))
    target = Path(os.path.realpath(file))
    if target.is_relative_to(folder):
        return
    around = [Path(root) for (_, root), kinds in _kinds_by_source(held).items()
              if kinds == {NodeKind.DOCUMENT} and folder.is_relative_to(root)]
    root = min(around, key=lambda r: len(r.parts), default=folder)
    if not target.is_relative_to(root):
        kind = [] if target.suffix.lower() in READ_SUFFIXES else ["--kind", "docs"]  # /etc/hostname: no suffix
        raise IngestError(
            f"{file} is a symbolic link to a file outside the documents folder {root}: skipped "
            f"(it leads to {target}), as a read of that folder skips it; index that file itself "
            f"(`{command(['index', target, *kind], index_dir)}`), or copy it into the folder"
        )


def emptied_file_ids(held: Mapping[str, Node], result: IngestResult, origin: Provenance) -> list[str]:
    """The ids the index (``held``) holds from one document file that was read whole and held
    nothing (empty, white space, frontmatter alone): gone, as the file would be from its
    folder's read; none for a file the read could not read (a problem keeps its items)."""
    if result.skips:
        return []
    file = Path(result.source).resolve()
    return sorted(
        node_id for node_id, node in held.items()
        if node.attrs.get("source_root") == origin.root and node.attrs.get("source_name") == origin.name
        and item_file(node, origin.root) == file
    )
