"""Skills repositories (Claude Code components) -> nodes and edges.

What is recognised, walking the folder in sorted order:

- ``SKILL.md`` (any case): a skill. The other files below its folder (those of skills
  nested in it included) are listed in ``attrs["files"]`` (relative to the folder), not
  read; a Markdown file there whose frontmatter has a name and a description also becomes
  an OTHER node, PART_OF the skill (in an ``agents/`` or ``commands/`` folder there too:
  the skill reads those by path, Claude Code registers none of them).
- ``*.md`` below a folder named ``agents``, ``commands`` or ``hooks`` outside skills: that kind (a command
  also records its folders below ``commands/`` and its file's stem, see `command_places`;
  a plugin's, its plugin's name in front); a ``.json``
  below ``hooks``: a hook definition, one node per file (see `hook_configs`: the exact
  settings.json ``hooks`` mapping and the scripts it runs); other files there (the
  scripts) are not components and not problems.
- ``.mcp.json`` / ``mcp.json`` (``{"mcpServers": {...}}``) and ``*.json`` anywhere below a
  folder named ``mcp``, ``mcps``, ``mcp-servers`` or ``mcp_servers``: MCP servers, one
  node per server (``path#name`` inside a multi-server file; see `skill_configs`).
- Plugins (see `plugin_manifests`): ``.claude-plugin/marketplace.json`` entries,
  ``plugin.json`` manifests and ``plugins/<x>/`` folders; a plugin's components get
  PART_OF edges to it. The MCP servers a ``plugin.json`` holds inline (``mcpServers``)
  are its members too (``plugin.json#name``), and so are its inline ``hooks`` (one hook,
  ``plugin.json#hooks``, named ``<plugin folder>-hooks`` as its ``hooks/hooks.json`` is);
  a ``.mcp.json`` may map names to servers without the ``mcpServers`` key, as a plugin's
  own may. The paths a ``plugin.json`` names for its ``commands``, ``agents``, ``skills``,
  ``hooks`` and ``mcpServers`` are read besides its default folders, each file as that
  kind, a ``commands`` or ``agents`` path instead of the default folder of its name (see
  `plugin_paths`; a path leaving the plugin's folder is refused). A plugin's marketplace
  entry may hold the same fields: its paths are read so, and its inline hooks and servers
  are members of the plugin too (``marketplace.json#<plugin>#hooks``,
  ``marketplace.json#<plugin>#<server>``: `inline_members`).
- Any other ``*.md`` with frontmatter ``name`` and ``description``: OTHER.

The root's own name counts as such a folder only for one kind's folder indexed by itself
(``components/hooks``); in a repository (kind folders, ``skills/`` or ``plugins/``
inside, a SKILL.md, a plugin manifest) only the folders inside it do (`skill_files.is_layout`).

Node ids are ``f"{source_name}/{relative_path}"``, the source name defaulting to the root
folder's name; every node records ``source_root`` and ``source_name`` (see `provenance`).
A node's ``source`` (and a problem's path) is absolute whatever the working directory: a
relative root is made absolute first (links are not resolved, as for an absolute root).
A file that cannot be read, whatever its parser raises, is one problem; the run goes on.
A warning about a part of a file that was read (a field ignored, an MCP server entry
skipped) keeps nothing back from pruning (``Unread.NOTHING``), nor does a file read whole
that says nothing to index (emptied: its skill goes, as if deleted). Which files are listed, and
which symbolic links followed, is `walk`'s (a folder that cannot be listed keeps what was
read below it before).
Edges: DEPENDS_ON (``requires`` / ``depends_on``; ``dependencies`` only where every entry
names a component: Anthropic's skill format lists software packages there), CONFLICTS_WITH
(``conflicts``, the reason as description), USES (``mcp__server[__tool]``, ``server/*``,
``mcp_servers``: `tool_servers`), MENTIONS (weight 0.5: the description or body names another
component, see `mentions`; a file inside a skill's folder only from files in that skill's
folder), PART_OF. A name resolves to a component of the same plugin,
else the first by path in the same corpus, else (dependencies only) in the other corpora
ingested together. A ``requires`` that resolves nowhere is a note, not an edge, except
package specs such as ``torch>=2.9``; written to an index, it is looked up again among the
index's other sources (`cross_source`), which takes the note back when one has it.
"""

from __future__ import annotations

import posixpath
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from skill_retriever.exceptions import IngestError, InvalidItemError
from skill_retriever.ingest import skill_records as rec
from skill_retriever.ingest.access_keys import access_notes
from skill_retriever.ingest.command_places import in_plugin
from skill_retriever.ingest.plugin_access import plugin_labels
from skill_retriever.ingest.plugin_manifests import (
    PluginSpec,
    below,
    find_plugins,
    plugin_record,
)
from skill_retriever.ingest.plugin_paths import declared_paths
from skill_retriever.ingest.provenance import Provenance
from skill_retriever.ingest.result import IngestResult, Problem, Unread, warning_problem
from skill_retriever.ingest.skill_files import Reader
from skill_retriever.ingest.skill_links import Corpus, Placed, link_corpora, named_by_plugin
from skill_retriever.ingest.skill_records import MAX_FILE_BYTES
from skill_retriever.ingest.walk import walk_files
from skill_retriever.model import NodeKind, parse_timestamp


def ingest_skill_repo(
    root: Path, corpus: str | None = None, *, max_file_bytes: int = MAX_FILE_BYTES
) -> IngestResult:
    """Read one skills repository.

    Args:
        root: The repository folder.
        corpus: The source name: prefix of every node id; the folder's name by default.
        max_file_bytes: Larger component files are skipped and reported.

    Raises:
        IngestError: ``root`` is not a readable folder, or the name is unusable.
    """
    start = time.perf_counter()
    result = link_corpora([_read_corpus(Path(root), corpus, max_file_bytes)], source=str(root))
    result.seconds = time.perf_counter() - start
    return result


def ingest_skill_repos(roots: Sequence[Path], *, max_file_bytes: int = MAX_FILE_BYTES) -> IngestResult:
    """Read several repositories as one catalogue (each named after its folder).

    Dependencies that a repository cannot resolve itself may resolve in another.

    Raises:
        IngestError: A root is not a folder, or two roots share a folder name.
    """
    start = time.perf_counter()
    names = [Path(r).resolve().name for r in roots]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise IngestError(
            f"several roots are named {dupes}; ids would collide: ingest them separately "
            "with distinct corpus names"
        )
    corpora = [_read_corpus(Path(r), None, max_file_bytes) for r in roots]
    result = link_corpora(corpora, source=", ".join(str(r) for r in roots))
    result.seconds = time.perf_counter() - start
    return result


def _nearest(folder: str, candidates: Mapping[str, object]) -> str | None:
    """The closest of ``folder`` and its ancestors that is a candidate ('' is the root)."""
    while True:
        if folder in candidates:
            return folder
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _read_corpus(root: Path, name: str | None, max_bytes: int) -> Corpus:
    if not root.is_dir():
        raise IngestError(
            f"skills repository {str(root)!r} is not a folder; pass the repository's root"
        )
    # A relative root would make every ``source`` relative to the working directory of
    # this run, which an installer joins to ``source_root`` (a path that does not exist).
    root = root.absolute()
    origin = Provenance.of(root, name)
    corpus = origin.name
    out = Corpus(corpus, attrs=origin.attrs())
    files = walk_files(root, out.problems)
    reader = Reader(root, corpus, files, max_bytes)
    skills = {posixpath.dirname(f): f for f in files if posixpath.basename(f).lower() == "skill.md"}
    local, remote, blocked = find_plugins(files, reader.json, out.problems, reader.where)
    if blocked:  # below a marketplace that cannot be read, who may see what is not known
        files = [f for f in files if not any(below(f, b) for b in blocked)]
        reader = Reader(root, corpus, files, max_bytes)
    reader.declared = declared_paths(local, reader.json, files, root, out.problems, reader.replaced, reader.excluded)
    plugin_ids = {key: f"{corpus}/{spec.rel}" for key, spec in local.items()}
    # the plugins of each folder, the one keyed by the folder first (several marketplace
    # entries may name one folder, their marketplace's root: `plugin_manifests`)
    sharing: dict[str, list[str]] = {}
    for key, spec in sorted(local.items(), key=lambda kv: kv[0] != kv[1].folder):
        sharing.setdefault(str(spec.folder), []).append(key)
    files_of: dict[str, list[str]] = {}
    for rel in files:
        folder = posixpath.dirname(rel)
        is_skill = posixpath.basename(rel).lower() == "skill.md"
        # A SKILL.md belongs to the skill above its folder, if any; other files to the nearest.
        skill = (
            (_nearest(posixpath.dirname(folder), skills) if folder else None)
            if is_skill
            else _nearest(folder, skills)
        )
        # Every skill the file is in lists it: a nested skill's folder (``templates/SKILL.md``
        # and the files beside it) is part of the outer one, whose SKILL.md links into it.
        owner = skill
        while owner is not None:
            files_of.setdefault(owner, []).append(posixpath.relpath(rel, owner or "."))
            owner = _nearest(posixpath.dirname(owner), skills) if owner else None
        # a skill the skills paths replacing its plugin's skills/ leave out is no member, nor is
        # a file one of several entries at a marketplace root does not load (`plugin_paths`)
        here = _nearest(folder, plugin_ids)
        owned = folder if is_skill else (skill if skill is not None else rel)
        owners = [k for k in sharing[str(local[here].folder)] if owned not in reader.excluded.get(k, ())] if here is not None else []
        plugin = owners[0] if owners else None
        parent = (
            f"{corpus}/{skills[skill]}"
            if skill is not None
            else (plugin_ids[plugin] if plugin is not None else None)
        )
        also = tuple(plugin_ids[k] for k in owners[1:]) if skill is None else ()
        for record in reader.records(rel, is_skill, skill, out):
            out.placed.append(Placed(f"{corpus}/{record.rel}", record, root / rel, plugin, parent, also))
            # The file was read and parsed: a warning is about a part of it (a date kept as
            # text, an entry ignored), never a reason to keep what it no longer produces.
            out.problems += [warning_problem(str(root / rel), w, corpus) for w in record.warnings]
    _drop_unread_heirs(out, {f"{corpus}/{rel}" for rel in skills.values()})
    for p in out.placed:
        if p.record.kind is NodeKind.SKILL:
            p.record.attrs["files"] = files_of.get(posixpath.dirname(p.record.rel), [])
    for folder, spec in sorted(local.items()):  # what an entry holds inline: the plugin's, as a plugin.json's
        for record in reader.entry_members(spec, out.problems):
            source = root / str(spec.marketplace_rel)
            out.placed.append(Placed(f"{corpus}/{record.rel}", record, source, folder, plugin_ids[folder]))
            out.problems += [warning_problem(str(source), w, corpus) for w in record.warnings]
    out.placed += _plugin_nodes(reader, local, remote, plugin_ids, out)
    return out


def _drop_unread_heirs(out: Corpus, skill_ids: set[str]) -> None:
    """Take out, each with a problem, the records that give no ``access`` and would take
    their skill's, whose SKILL.md could not be read: a named file of a private skill's
    folder was indexed public, its text shown to every caller, once one edit broke the
    SKILL.md's frontmatter. The problem keeps what was indexed of it before."""
    by_id = {p.id: p for p in out.placed}
    dropped = []
    for p in out.placed:
        here, seen = p, {p.id}
        while not here.record.access and here.parent in skill_ids and here.parent not in seen:
            if here.parent not in by_id:
                dropped.append(p)
                out.problems.append(Problem(str(p.source), f"not indexed: it gives no 'access' and takes that of "
                                            f"its skill, {here.parent}, which could not be read this run (its "
                                            "problem says why): who may see it is not known; mend that file"))
                break
            here = by_id[here.parent]
            seen.add(here.id)
    out.placed[:] = [p for p in out.placed if all(p is not d for d in dropped)]


def _unread_members(reader: Reader, spec: PluginSpec, problems: list[Problem]) -> list[Problem]:
    """A plugin folder with no member read today, though some could not be read: the
    plugin stays as indexed before (`Unread.ITEM`), as its members do. A bare folder made
    of nothing was removed, with the relations to it, until the file was mended; a
    manifest's plugin that gives no ``access`` would be public, where its members that
    could not be read may be private (`plugin_access`)."""
    if spec.folder is None:
        return []
    below = f"{reader.root / spec.folder}{posixpath.sep}"
    manifest = reader.where(spec.manifest) if spec.manifest is not None else None  # no member: said of itself
    unread = [p for p in problems if p.keeps in (Unread.FILE, Unread.FOLDER) and p.path.startswith(below)
              and p.path != manifest]
    if not unread:
        return []
    more = f" and {len(unread) - 1} more" if len(unread) > 1 else ""
    return [Problem(str(reader.root / spec.folder), f"no member of this plugin could be read ({unread[0].path}{more}): "
                    "the plugin stays as indexed before", unread=Unread.ITEM, item=f"{reader.corpus}/{spec.rel}")]


def _plugin_nodes(
    reader: Reader,
    local: dict[str, PluginSpec],
    remote: list[PluginSpec],
    plugin_ids: dict[str, str],
    out: Corpus,
) -> list[Placed]:
    """One node per plugin: declared ones always, bare ``plugins/<x>`` folders with members.

    Members get ``attrs["plugin"]`` (the plugin's name).
    """
    members: dict[str, list[Placed]] = {}
    key_of = {node_id: key for key, node_id in plugin_ids.items()}
    for p in out.placed:
        for key in ([p.plugin] if p.plugin is not None else []) + [key_of[i] for i in p.also]:
            members.setdefault(key, []).append(p)
    # first what each plugin declares, then who may see those that declare nothing (their
    # members: `plugin_access`), then their nodes, whose text names members by that
    ready: list[tuple[str, PluginSpec, dict[str, object], str, dict[str, object], tuple[str, ...]]] = []
    for folder, spec in [*sorted(local.items()), *((f"#{i}", s) for i, s in enumerate(remote))]:
        declared = spec.manifest is not None or spec.entry is not None
        inside = members.get(folder, []) if spec.folder is not None else []
        if not declared and not inside:
            out.problems += _unread_members(reader, spec, out.problems)
            continue
        manifest = reader.manifest(spec, out.problems)
        source = spec.manifest or spec.marketplace_rel or spec.rel
        meta = {**(spec.entry or {}), **(manifest or {})}
        own: tuple[str, ...] | None = None
        try:
            # a manifest that cannot be read was read as {}: its plugin and members were
            # written public over the labels it gave (the reader said why: `Reader.manifest`)
            own = rec.access_labels(meta) if manifest is not None else None
        except rec.RecordError as exc:
            out.problems.append(Problem(reader.where(source), f"{exc}; nor are its members"))
        if manifest is None or own is None:  # indexed public, the plugin and its members would show to all
            out.problems += [Problem(str(m.source), f"not indexed: the 'access' of its plugin "
                                     f"({reader.where(source)}) cannot be read") for m in inside]
            # in place: the caller extends this very list with what this returns
            out.placed[:] = [p for p in out.placed if all(p is not m for m in inside)]
            continue
        ready.append((folder, spec, manifest, source, meta, own))
    keys = {folder for folder, *_ in ready}
    outer_of = {folder: _nearest(posixpath.dirname(spec.folder), plugin_ids) if spec.folder else None
                for folder, spec, *_ in ready}
    outer_of = {k: (o if o in keys else None) for k, o in outer_of.items()}
    derived = plugin_labels({folder: own for folder, *_, own in ready}, outer_of, members,
                            {folder: f"{reader.corpus}/{spec.rel}" for folder, spec, *_ in ready}, out.placed)
    made = []
    for folder, spec, manifest, source, meta, own in ready:
        access = derived[folder]
        inside = members.get(folder, []) if spec.folder is not None else []
        if not own and not inside and folder not in outer_of.values() and (
            kept := _unread_members(reader, spec, out.problems)
        ):
            # made of nothing read today, it would be public: what could not be read may be private
            out.problems += kept
            continue
        # its text names only the members every caller who sees it may see
        named = named_by_plugin(out.placed, inside, access)
        record = plugin_record(spec, manifest, [f"{m.record.name} ({m.record.kind.value})" for m in named])
        record.access = access
        out.problems += [Problem(reader.where(source), n, read_whole=True, unread=Unread.NOTHING)
                         for n in access_notes(meta, own, inherits=True)]
        for key in ("created", "updated"):
            try:
                setattr(record, key, parse_timestamp(meta.get(key), spec.rel))
            except InvalidItemError as exc:
                out.problems.append(Problem(reader.where(source), f"{exc}; ignored", unread=Unread.NOTHING))
        for m in (m for m in inside if m.plugin == folder):  # one of several plugins: the first's name
            m.record.attrs["plugin"] = record.name
            namespace = m.record.attrs.get("command_namespace")
            if isinstance(namespace, str):  # a command: filed under its plugin's name
                m.record.attrs["command_namespace"], why = in_plugin(namespace, record.name)
                if why is not None:
                    out.problems.append(
                        Problem(str(m.source), why, read_whole=True, unread=Unread.NOTHING)
                    )
        outer = _nearest(posixpath.dirname(spec.folder), plugin_ids) if spec.folder else None
        parent = plugin_ids[outer] if outer is not None else None
        node_id = f"{reader.corpus}/{spec.rel}"
        made.append(Placed(node_id, record, reader.root / source, outer, parent))
    return made
