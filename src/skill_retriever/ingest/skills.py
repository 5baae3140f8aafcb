"""Skills repositories (Claude Code components) -> nodes and edges.

What is recognised, walking the folder in sorted order:

- ``SKILL.md`` (any case): a skill. The other files in its folder are listed in
  ``attrs["files"]`` (relative to the folder), not read; a Markdown file there whose
  frontmatter has a name and a description also becomes an OTHER node, PART_OF the skill.
- ``*.md`` below a folder named ``agents``, ``commands`` or ``hooks``: that kind; a ``.json``
  below ``hooks``: a hook config.
- ``.mcp.json`` / ``mcp.json`` (``{"mcpServers": {...}}``) and ``*.json`` in a folder named
  ``mcp``: MCP servers, one node per server (``path#name`` inside a multi-server file).
- ``plugins/<x>/`` or a folder with ``plugin.json`` (or ``.claude-plugin/plugin.json``): a
  plugin node; its components get PART_OF edges to it.
- Any other ``*.md`` with frontmatter ``name`` and ``description``: OTHER.

Node ids are ``f"{corpus}/{relative_path}"``, the corpus defaulting to the root folder's name.
Edges: DEPENDS_ON (``requires`` / ``dependencies`` / ``depends_on``), CONFLICTS_WITH
(``conflicts``, the reason as description), USES (``tools`` naming an MCP server, also as
``mcp__server__tool``), MENTIONS (weight 0.5: the description or body names another
component, see `mentions`), PART_OF. A name resolves to a component of the same plugin,
else the first by path in the same corpus, else (dependencies only) in the other corpora
ingested together. A dependency that resolves nowhere is a problem, not an edge, except
package specs such as ``torch>=2.9``.
"""

from __future__ import annotations

import os
import posixpath
import time
from collections.abc import Sequence
from pathlib import Path

from skill_retriever.exceptions import IngestError, InvalidItemError
from skill_retriever.ingest import skill_configs as cfg
from skill_retriever.ingest import skill_records as rec
from skill_retriever.ingest.result import IngestResult, Problem
from skill_retriever.ingest.skill_links import Corpus, Placed, link_corpora
from skill_retriever.model import NodeKind, parse_timestamp

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)
_IGNORED_STEMS = frozenset({"license", "licence", "copying", "notice"})
_KIND_FOLDERS = {"agents": NodeKind.AGENT, "commands": NodeKind.COMMAND, "hooks": NodeKind.HOOK}
_MCP_FOLDERS = frozenset({"mcp", "mcp-servers", "mcp_servers"})


def ingest_skill_repo(
    root: Path, corpus: str | None = None, *, max_file_bytes: int = 2_000_000
) -> IngestResult:
    """Read one skills repository.

    Args:
        root: The repository folder.
        corpus: Prefix of every node id; the folder's name by default.
        max_file_bytes: Larger component files are skipped and reported.

    Raises:
        IngestError: ``root`` is not a readable folder.
    """
    start = time.perf_counter()
    name = corpus if corpus is not None else Path(root).resolve().name
    result = link_corpora([_read_corpus(Path(root), name, max_file_bytes)], source=str(root))
    result.seconds = time.perf_counter() - start
    return result


def ingest_skill_repos(roots: Sequence[Path], *, max_file_bytes: int = 2_000_000) -> IngestResult:
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
    corpora = [_read_corpus(Path(r), n, max_file_bytes) for r, n in zip(roots, names, strict=True)]
    result = link_corpora(corpora, source=", ".join(str(r) for r in roots))
    result.seconds = time.perf_counter() - start
    return result


def _walk(root: Path, problems: list[Problem]) -> list[str]:
    real_root = root.resolve()
    found: list[str] = []

    def unreadable(exc: OSError) -> None:
        problems.append(Problem(str(exc.filename), f"cannot list folder: {exc.strerror or exc}"))

    for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for fname in filenames:
            full = Path(dirpath) / fname
            if full.is_symlink() and not full.resolve().is_relative_to(real_root):
                problems.append(
                    Problem(str(full), "symbolic link to outside the repository; skipped")
                )
                continue
            found.append(full.relative_to(root).as_posix())
    return sorted(found)


def _nearest(folder: str, candidates: set[str] | dict[str, str]) -> str | None:
    """The closest of ``folder`` and its ancestors that is a candidate ('' is the root)."""
    while True:
        if folder in candidates:
            return folder
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _kind_folder(folder: str, below: str | None) -> NodeKind | None:
    parts = folder.split("/")[len(below.split("/")) if below else 0 :] if folder else []
    for part in reversed(parts):
        if part in _KIND_FOLDERS:
            return _KIND_FOLDERS[part]
    return None


def _plugin_folders(files: list[str], corpus: str) -> dict[str, str]:
    """Plugin folder -> id of its node: ``plugins/<x>`` folders and folders with a plugin.json."""
    plugins: dict[str, str] = {}
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts) - 1):
            if parts[i - 1] == "plugins":
                plugins.setdefault("/".join(parts[: i + 1]), f"{corpus}/{'/'.join(parts[: i + 1])}")
        if parts[-1] == "plugin.json":
            folder = posixpath.dirname(f)
            folder = (
                posixpath.dirname(folder)
                if posixpath.basename(folder) == ".claude-plugin"
                else folder
            )
            plugins[folder] = f"{corpus}/{f}"
    return plugins


def _read_corpus(root: Path, corpus: str, max_bytes: int) -> Corpus:
    if not root.is_dir():
        raise IngestError(
            f"skills repository {str(root)!r} is not a folder; pass the repository's root"
        )
    if not corpus.strip():
        raise IngestError("corpus name is empty; give a name or a named folder")
    out = Corpus(corpus)
    files = _walk(root, out.problems)
    skills = {posixpath.dirname(f): f for f in files if posixpath.basename(f).lower() == "skill.md"}
    plugins = _plugin_folders(files, corpus)
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
        if skill is not None and not is_skill:
            files_of.setdefault(skill, []).append(posixpath.relpath(rel, skill or "."))
        plugin = _nearest(folder, plugins)
        parent = (
            f"{corpus}/{skills[skill]}"
            if skill is not None
            else (plugins[plugin] if plugin is not None else None)
        )
        try:
            for record in _records(root, rel, is_skill, skill, corpus, max_bytes):
                out.placed.append(
                    Placed(f"{corpus}/{record.rel}", record, root / rel, plugin, parent)
                )
                out.problems += [Problem(str(root / rel), w) for w in record.warnings]
        except rec.RecordError as exc:
            out.problems.append(Problem(str(root / rel), str(exc)))
        except OSError as exc:
            out.problems.append(Problem(str(root / rel), f"cannot read: {exc.strerror or exc}"))
    for p in out.placed:
        if p.record.kind is NodeKind.SKILL:
            p.record.attrs["files"] = files_of.get(posixpath.dirname(p.record.rel), [])
    out.placed += _plugin_nodes(root, corpus, plugins, out, max_bytes)
    return out


def _records(
    root: Path, rel: str, is_skill: bool, skill: str | None, corpus: str, max_bytes: int
) -> list[rec.Record]:
    base, folder = posixpath.basename(rel), posixpath.dirname(rel)
    stem, ext = posixpath.splitext(base)
    lower_ext = ext.lower()
    if stem.lower() in _IGNORED_STEMS or base == "plugin.json":
        return []
    kind = NodeKind.SKILL if is_skill else _kind_folder(folder, skill)
    if lower_ext == ".md":
        default = (posixpath.basename(folder) or corpus) if is_skill else stem
        made = rec.markdown_record(
            rec.read_text(root / rel, max_bytes), rel, kind or NodeKind.OTHER, default
        )
        return [made] if made else []
    if lower_ext != ".json" or skill is not None:
        return []
    if kind is NodeKind.HOOK:
        return [cfg.hook_record(cfg.json_document(rec.read_text(root / rel, max_bytes)), rel, stem)]
    if base in (".mcp.json", "mcp.json") or posixpath.basename(folder) in _MCP_FOLDERS:
        return cfg.mcp_records(cfg.json_document(rec.read_text(root / rel, max_bytes)), rel, stem)
    return []


def _plugin_nodes(
    root: Path, corpus: str, plugins: dict[str, str], out: Corpus, max_bytes: int
) -> list[Placed]:
    """One node per plugin folder that holds components; members get ``attrs["plugin"]``."""
    members: dict[str, list[Placed]] = {}
    for p in out.placed:
        if p.plugin is not None:
            members.setdefault(p.plugin, []).append(p)
    made = []
    for folder, node_id in sorted(plugins.items()):
        if folder not in members:
            continue
        rel = node_id[len(corpus) + 1 :]
        meta = (
            _plugin_meta(root / rel, out.problems, max_bytes) if rel.endswith("plugin.json") else {}
        )
        name, desc = (
            str(v).strip() if isinstance(v, str) else ""
            for v in (meta.get("name"), meta.get("description"))
        )
        listing = ", ".join(f"{m.record.name} ({m.record.kind.value})" for m in members[folder])
        record = rec.Record(
            rel=rel,
            kind=NodeKind.PLUGIN,
            name=name or posixpath.basename(folder) or corpus,
            description=desc,
            text=f"{desc}\nComponents: {listing}".strip(),
            attrs={"plugin_json": meta} if meta else {},
        )
        for key in ("created", "updated"):
            try:
                setattr(record, key, parse_timestamp(meta.get(key), rel))
            except InvalidItemError as exc:
                out.problems.append(Problem(str(root / rel), f"{exc}; ignored"))
        for m in members[folder]:
            m.record.attrs["plugin"] = record.name
        outer = _nearest(posixpath.dirname(folder), plugins) if folder else None
        made.append(
            Placed(
                node_id, record, root / rel, outer, plugins[outer] if outer is not None else None
            )
        )
    return made


def _plugin_meta(path: Path, problems: list[Problem], max_bytes: int) -> dict[str, object]:
    try:
        return cfg.plugin_meta(cfg.json_document(rec.read_text(path, max_bytes)))
    except rec.RecordError as exc:
        problems.append(Problem(str(path), f"plugin metadata ignored: {exc}"))
    except OSError as exc:
        problems.append(
            Problem(str(path), f"plugin metadata ignored: cannot read: {exc.strerror or exc}")
        )
    return {}
