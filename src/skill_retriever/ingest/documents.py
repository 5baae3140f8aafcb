"""A folder of plain documents (runbooks, ADRs, postmortems, a project's docs/) -> DOCUMENT nodes.

Every ``.md``, ``.markdown``, ``.mdx``, ``.rst`` and ``.txt`` file (any case) that the
skills walk lists (`walk.walk_files`: the same folders skipped, the same symbolic links
followed or not, the same problems) is one DOCUMENT node, but license texts (``LICENSE``,
``COPYING``, ``NOTICE``), which skills skip too, and a symbolic link to another document of
the folder, which is folded into that one with a note (`document_aliases`: one item under
the real file's path, links to the link leading to it). It is read as a SKILL.md is
(`skill_records.read_text`: the same size cap and encodings; `frontmatter`: the same
parser), and as skills are, its id is ``f"{source_name}/{relative_path}"`` (the source name
defaulting to the folder's name), its ``source`` the file's absolute path, its attrs the
source's provenance (`provenance`), ``corpus`` and ``path``.

- name: frontmatter ``title`` or ``name``, else the first level-1 heading, else the stem;
- description: frontmatter ``description`` or ``summary``, else the first paragraph of
  prose after the title (`document_text`);
- text: the body after the frontmatter (the description when the body is empty); in an
  ``.mdx`` file without its ESM and JSX tags (`mdx_text`), what the tags wrap kept;
- tags: frontmatter ``tags`` (a list or a comma-separated string, as skills read them);
- access: frontmatter ``access`` read the same way; one that cannot be read as labels
  makes the file a problem, not a public item; an empty one, or a key that looks meant as
  it (``Access``, ``acess``, ``visibility``), a note that the item is public (`access_keys`);
- created: ``created``, ``date``, ``date_added``, then `model.TIME_ALIASES`' (``created_at``,
  ..., an incident's ``started_at``, ...); updated: ``updated``, ``last_updated``, then its
  (``updated_at``, ..., an incident's ``resolved_at``, ...), ``lastmod`` or ``last_modified_at``
  (the first that is set; each in any case; an ``.rst`` file's top field list too, `rst_fields`). A bad date is a warning on the file, which is indexed without it.

A long Markdown file is also its sections (`document_sections`: a body over
`document_sections.SPLIT_CHARS`, split at ``#``, ``##`` and ``###`` headings outside code fences, a short
section joined to its neighbour, a section still over that size cut at its paragraphs into
parts; a long body that headings do not split, plain text and reStructuredText among them,
cut at its paragraphs): one DOCUMENT node per section or part, id
``f"{document id}#{slug}"``, named ``"<document> › <heading>"``, described by its first
paragraph, with the document's tags, access, dates, source and attrs plus ``section`` (the
heading) and ``line`` (where it starts in the file: ``query`` prints ``file: path:line``),
and a PART_OF edge to the document, whose own text is then the lead before the first
section and the list of the headings (an overview query still finds the file).

Secrets go out of the name, description, text and tags as out of a skill's
(`redact_fields.redacted_item`: tokens of well-known formats, URL credentials and secret
query parameters, webhook paths), a section's as its document's: a runbook quoting a token
does not put it in the index. Links between the documents are MENTIONS edges
(`document_links`), file to file.

An empty file (or one of white space, or of frontmatter alone) is skipped with a note, and
what an earlier run read from it goes, as for a file deleted. A file that cannot be read
or parsed is a problem of that file (`Unread.FILE`: re-indexing keeps its earlier item);
the run goes on.

Detection (`or_documents`): a folder read as a skills repository that yields nothing, and
met no component file it could not read, is read as documents when it holds any, with a
note saying so (``--kind docs`` says so explicitly). A folder the index holds as documents
stays so, and one file is read in the source around it (`document_sources`;
`ingest_document_file` reads it).
"""

from __future__ import annotations

import time
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from skill_retriever.exceptions import IngestError, InvalidItemError
from skill_retriever.ingest import skill_records as rec
from skill_retriever.ingest.access_keys import access_notes
from skill_retriever.ingest.document_aliases import OnDiskIds, alias_notes, fold_links
from skill_retriever.ingest.document_formats import READ_SUFFIXES, is_document, unread_formats
from skill_retriever.ingest.document_links import link_edges
from skill_retriever.ingest.document_notes import read_as_note
from skill_retriever.ingest.document_reach import indexed_alone_note
from skill_retriever.ingest.document_sections import Split, overview_text, split_sections
from skill_retriever.ingest.document_text import first_paragraph, first_title
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.ingest.frontmatter_names import name_list
from skill_retriever.ingest.lenient_access import gives_access
from skill_retriever.ingest.mdx_text import without_mdx_syntax
from skill_retriever.ingest.provenance import Provenance
from skill_retriever.ingest.redact_fields import redacted_item
from skill_retriever.ingest.result import IngestResult, Note, Problem, Unread
from skill_retriever.ingest.rst_fields import rst_date_fields
from skill_retriever.ingest.skill_records import MAX_FILE_BYTES
from skill_retriever.ingest.toml_frontmatter import toml_frontmatter
from skill_retriever.ingest.walk import walk_files
from skill_retriever.model import TIME_ALIASES, Edge, EdgeKind, Node, NodeKind

#: The suffixes (lower case) of the files read as documents.
DOCUMENT_SUFFIXES = frozenset(READ_SUFFIXES)
#: What the walk's notes call the folder (`walk.walk_files`): no repository, as a skills one is.
DOCUMENTS_SOURCE = "documents folder"
#: Frontmatter is what Markdown carries; in an .rst or .txt file a block that does not
#: parse as frontmatter is part of the text.
_MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})
# Beside our own names, those of incident exports (`model.TIME_ALIASES`) and of site
# generators (Hugo's ``lastmod``, Jekyll's ``last_modified_at``): a runbook dated by one
# of them was undated, left out of every since/until window without a word.
_CREATED_KEYS = ("created", "date", "date_added", *TIME_ALIASES["created"])
_UPDATED_KEYS = ("updated", "last_updated", *TIME_ALIASES["updated"], "lastmod", "last_modified_at")
#: The longest id a node takes (`model`).
MAX_ID_CHARS = 512
#: The folders whose files a skills read takes as components (a file it could not read
#: there keeps a folder a skills repository).
_COMPONENT_FOLDERS = frozenset({"agents", "commands", "hooks", "mcp", "mcps", "mcp-servers", "mcp_servers"})


class _EmptyDocumentError(rec.EmptyRecordError):
    """The file holds nothing to index; a note, and its earlier item goes."""


@dataclass(slots=True)
class _Document:
    node: Node
    body: str
    warnings: list[str]
    sections: list[Node]


def ingest_documents(
    root: Path,
    source_name: str | None = None,
    *,
    max_file_bytes: int = MAX_FILE_BYTES,
    listed: tuple[list[str], list[Problem]] | None = None,
) -> IngestResult:
    """Read one folder of documents.

    Args:
        root: The folder.
        source_name: The prefix of every node id; the folder's name by default.
        max_file_bytes: Larger files are skipped and reported.
        listed: The folder's files and the problems of listing them (`walk.walk_files`),
            when the caller listed it already (`or_documents`); listed here otherwise.

    Raises:
        IngestError: ``root`` is not a folder, or the name is unusable.
    """
    start = time.perf_counter()
    if not Path(root).is_dir():
        raise IngestError(f"documents folder {str(root)!r} is not a folder; pass the folder that holds them")
    result = IngestResult(source=str(root))
    base = Path(root).absolute()  # every source and problem path absolute, as skills record them
    origin = Provenance.of(base, source_name)
    if listed is None:
        walked: list[Problem] = []
        every = walk_files(base, walked, DOCUMENTS_SOURCE)
    else:
        every, walked = listed
    folded = fold_links(base, [rel for rel in every if is_document(rel)])
    # A folded link's note replaces the walk's (which says a same-named link is read twice).
    said = folded.paths(base)
    result.problems += [p for p in walked if _about_documents(p) and Path(p.path) not in said]
    result.problems += alias_notes(base, folded) + unread_formats(base, every, folded.read)
    bodies: dict[str, str] = {}
    ids: dict[str, str] = {}
    for rel in folded.read:
        doc = _read_one(base, rel, origin, max_file_bytes, result.problems)
        if doc is None:
            continue
        result.nodes.append(doc.node)
        result.nodes += doc.sections
        # PART_OF, as a plugin's members are part of it (`skill_links`): a section
        # belongs to its document. Links stay between the files (`link_edges`).
        result.edges += [Edge(s.id, doc.node.id, EdgeKind.PART_OF) for s in doc.sections]
        bodies[rel], ids[rel] = doc.body, doc.node.id
        # The file was read whole: a warning is about a field of it, never a reason to
        # keep what it no longer produces (as for skills).
        result.problems += [Problem(doc.node.source, w, isinstance(w, Note), Unread.NOTHING) for w in doc.warnings]
    ids.update((alias, ids[kept]) for alias, kept in folded.aliases.items() if kept in ids)
    result.edges += link_edges(bodies, ids)
    result.seconds = time.perf_counter() - start
    return result


def ingest_document_file(
    root: Path,
    rel: str,
    source_name: str | None = None,
    *,
    known_ids: AbstractSet[str] = frozenset(),
    max_file_bytes: int = MAX_FILE_BYTES,
) -> IngestResult:
    """Read one document file of a folder of documents, as `ingest_documents` reads it
    there (the same id, ``f"{source_name}/{rel}"``, and sections), without the others.

    Its links make MENTIONS edges to the documents of the folder that the index holds
    (``known_ids``): a file read alone keeps the links a read of its folder gives it.

    Args:
        root: The folder of the source (the file's own folder, or one above it).
        rel: The file's path below ``root`` (POSIX).
        source_name: The prefix of every node id; the folder's name by default.
        known_ids: Ids of the items the index holds (not this file's own).
        max_file_bytes: A larger file is skipped and reported.

    Raises:
        IngestError: ``root / rel`` is not a file.
    """
    start = time.perf_counter()
    base = Path(root).absolute()
    if not (base / rel).is_file():
        raise IngestError(f"document {str(base / rel)!r} is not a file; pass a document file or its folder")
    origin = Provenance.of(base, source_name)
    result = IngestResult(source=str(base / rel))
    doc = _read_one(base, rel, origin, max_file_bytes, result.problems)
    if doc is not None:
        result.nodes += [doc.node, *doc.sections]
        result.problems += indexed_alone_note(base, rel, doc.node.id)  # a read of the folder would remove it
        result.edges += [Edge(s.id, doc.node.id, EdgeKind.PART_OF) for s in doc.sections]
        prefix = f"{origin.name}/"
        held = {i.removeprefix(prefix): i for i in known_ids if i.startswith(prefix)}
        result.edges += link_edges({rel: doc.body}, OnDiskIds(base, {**held, rel: doc.node.id}))
        result.problems += [Problem(doc.node.source, w, isinstance(w, Note), Unread.NOTHING) for w in doc.warnings]
    result.seconds = time.perf_counter() - start
    return result


def or_documents(
    root: Path, skills: IngestResult, source_name: str | None = None, *, max_file_bytes: int = MAX_FILE_BYTES
) -> IngestResult:
    """``skills`` (a folder read as a skills repository), or, when it read nothing there
    and met no component file it could not read, the folder read as documents with the
    note of `document_notes.read_as_note`, when it holds any."""
    if skills.nodes or skills.edges or not Path(root).is_dir():
        return skills
    base = Path(root).absolute()
    if any(_component_file(base, p.path) for p in skills.skips if p.keeps is Unread.FILE):
        return skills  # a broken SKILL.md is a skills repository's problem, not a document
    walked: list[Problem] = []
    every = walk_files(base, walked, DOCUMENTS_SOURCE)
    if not any(is_document(rel) for rel in every):
        return skills
    docs = ingest_documents(root, source_name, max_file_bytes=max_file_bytes, listed=(every, walked))  # listed once
    skipped = [p for p in skills.skips if _component_file(base, p.path)]
    docs.problems.insert(0, Problem(str(base), read_as_note(base, skipped), read_whole=True))
    docs.seconds += skills.seconds
    return docs


def is_component_file(path: Path) -> bool:
    """Whether one file, given alone, is one a skills read takes as a component (a
    SKILL.md, a JSON file, a file in an agents, commands, hooks or MCP folder)."""
    return _component_file(path.absolute().parent, str(path.absolute()))


def _component_file(root: Path, path: str) -> bool:
    """Whether the file ``path`` (below ``root``) is one a skills read takes as a component:
    a SKILL.md, a JSON file, or a file below an agents, commands, hooks or MCP folder."""
    file = Path(path)
    folders = {root.name, *file.parent.relative_to(root).parts} if file.is_relative_to(root) else set()
    return (
        file.name.lower() == "skill.md"
        or file.suffix.lower() == ".json"
        or bool(folders & _COMPONENT_FOLDERS)
    )


def _about_documents(problem: Problem) -> bool:
    """Whether a problem of the walk concerns what a documents read reads: a folder, or a
    file (a link) that would be a document; a skipped link to an image says nothing here."""
    path = Path(problem.path)
    if path.name.lower() == "skill.md" and not problem.read_whole:
        return False  # "a folder named SKILL.md": a skills repository's rule
    return problem.keeps is Unread.FOLDER or is_document(path.name) or path.is_dir() or not path.suffix


def _read_one(
    root: Path, rel: str, origin: Provenance, max_bytes: int, problems: list[Problem]
) -> _Document | None:
    """One file's document, or None after reporting why there is none."""
    where = str(root / rel)
    try:
        return _document(root, rel, origin, max_bytes)
    except _EmptyDocumentError as exc:  # read, and empty: what it held goes
        problems.append(Problem(where, str(exc), read_whole=True, unread=Unread.NOTHING))
    except rec.RecordError as exc:
        problems.append(Problem(where, str(exc)))
    except OSError as exc:
        problems.append(Problem(where, rec.unreadable(exc)))
    except InvalidItemError as exc:  # the node refused a field (an id over 512 characters)
        problems.append(Problem(where, f"{exc}; file skipped"))
    except Exception as exc:  # noqa: BLE001  (the per-file boundary, as in skills)
        # One file must never abort a run: whatever its content makes a parser raise is
        # this file's problem, reported with the exception's type so that it can be fixed.
        problems.append(
            Problem(where, f"unexpected {type(exc).__name__} while reading: {exc}; file skipped (please report this)")
        )
    return None


def _document(root: Path, rel: str, origin: Provenance, max_bytes: int) -> _Document:
    text = rec.read_text(root / rel, max_bytes)
    if not text.strip():
        raise _EmptyDocumentError("empty file: nothing to index; skipped")
    suffix = PurePosixPath(rel).suffix.lower()
    fields, body, warnings = _frontmatter(text, suffix)
    if suffix == ".rst":  # its own field list dates it too (`rst_fields`); frontmatter first
        fields = {**rst_date_fields(body, (*_CREATED_KEYS, *_UPDATED_KEYS)), **fields}
    first_line = _body_line(text, body)  # before the MDX pass, which keeps the lines
    if suffix == ".mdx":
        body = without_mdx_syntax(body)  # imports and JSX tags are code, not what the page says
    stem = PurePosixPath(rel).stem
    name = _text(fields, ("title", "name"), warnings)
    heading = first_title(body, suffix)
    start = 0
    if not name and heading is not None:
        name, start = heading
    description = _text(fields, ("description", "summary"), warnings) or first_paragraph(body, start)
    content = body.strip() or description
    if not content:
        raise _EmptyDocumentError("no text after the frontmatter and no description: nothing to index; skipped")
    tags = name_list(fields.get("tags"), "tags", warnings)  # the rule skills read tags by
    access = rec.access_labels(fields)
    warnings += access_notes(fields, access)
    doc_id = f"{origin.name}/{rel}"
    split = split_sections(body, suffix, first_line=first_line)
    if split is not None and any(len(doc_id) + 1 + len(s.slug) > MAX_ID_CHARS for s in split.sections):
        split = None  # a section's id would be refused: the file stays whole, as before
    node = redacted_item(Node(
        id=doc_id,
        kind=NodeKind.DOCUMENT,
        name=name or stem,
        text=content if split is None else overview_text(split),
        description=description,
        tags=tuple(tags),
        created=rec.first_time(fields, _CREATED_KEYS, warnings),
        updated=rec.first_time(fields, _UPDATED_KEYS, warnings),
        source=str(root / rel),
        access=access,
        attrs={"corpus": origin.name, "path": rel, **origin.attrs()},
    ))
    return _Document(node, body, warnings, [] if split is None else _section_nodes(node, split))


def _section_nodes(doc: Node, split: Split) -> list[Node]:
    """One DOCUMENT node per section (`document_sections`): the document's fields, its
    own id, name, description and text, and where it starts (``section``, ``line``)."""
    return [
        redacted_item(Node(
            id=f"{doc.id}#{s.slug}",
            kind=NodeKind.DOCUMENT,
            name=f"{doc.name} \u203a {s.heading}",
            text=s.text,
            description=first_paragraph(s.text),
            tags=doc.tags,
            created=doc.created,
            updated=doc.updated,
            source=doc.source,
            access=doc.access,
            attrs={**doc.attrs, "section": s.heading, "line": s.line},
        ))
        for s in split.sections
    ]


def _body_line(text: str, body: str) -> int:
    """The 1-based line of the file that ``body`` (what the frontmatter parser left of
    ``text``, newlines normalised) starts on: the frontmatter's lines counted."""
    normal = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    if not normal.endswith(body):
        return 1
    return normal.count("\n", 0, len(normal) - len(body)) + 1


def _frontmatter(text: str, suffix: str) -> tuple[dict[str, Any], str, list[str]]:
    """The fields, the body and the parser's warnings; a Markdown file whose frontmatter
    cannot be read is a problem (RecordError), another file's block is its text."""
    try:  # Hugo's TOML block (+++) in a Markdown page, else YAML
        fm = (toml_frontmatter(text) if suffix in _MARKDOWN_SUFFIXES else None) or parse_frontmatter(text)
    except FrontmatterError as exc:
        if suffix in _MARKDOWN_SUFFIXES:
            raise rec.RecordError(str(exc)) from exc
        normal = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
        if gives_access(normal.split("\n---", 1)[0]):  # read as text, it was public with the block
            raise rec.RecordError(f"{exc}; it gives 'access': not indexed (it would be shown to every caller)") from exc
        return {}, normal, []
    recovered = [rec.recovered_note(fm.recovered_from)] if fm.recovered_from else []  # as a skill's says
    dates = (*_CREATED_KEYS, *_UPDATED_KEYS)  # a bad date is kept as text in the fields, never used
    return fm.fields, fm.body, [*recovered, *(f"frontmatter {w}{rec.unset_note(w, fm.fields, dates)}" for w in fm.warnings)]


def _text(fields: dict[str, Any], keys: tuple[str, ...], warnings: list[str]) -> str:
    """The first of ``keys`` that holds text (a number reads as text); one that holds a
    list or a mapping is a warning and passed over."""
    for key in keys:
        try:
            value = rec.text_field(fields, key).strip()
        except rec.RecordError as exc:
            warnings.append(f"{exc}; ignored")
            continue
        if value:
            return value
    return ""


