"""Claude Code plugin packaging -> which folders are plugins, and one PLUGIN record each.

Read, in a skills repository:

- ``.claude-plugin/marketplace.json`` (``{"name", "owner", "metadata": {"pluginRoot"},
  "plugins": [{"name", "source", "description", "version", "author", "category",
  "homepage", "license", "keywords"}]}``): one plugin per entry (its component paths,
  ``commands`` and the like, read as a plugin.json's: `plugin_paths`). A string ``source``
  (``./plugins/x``) is a folder relative to the marketplace root, the folder holding
  ``.claude-plugin/`` (``metadata.pluginRoot`` is put before a bare name). An object
  ``source`` (``github``, ``url``, ``git-subdir``, ``npm``) is a plugin kept elsewhere: it
  gets a node without components, id ``<source>/<marketplace path>#<name>``, as does a
  string source naming no folder of the repository; the hooks and MCP servers such an
  entry holds inline are not indexed either, which is said, once per entry. Entries
  whose source is the marketplace root are each a plugin of that folder (anthropics/skills
  lists several, each naming its own skills), with that id too. One that cannot be read
  (or is no ``{"plugins": [...]}``) leaves its marketplace root unindexed that run, and
  an entry skipped the folder it names: their ``access`` is not known (`find_plugins`).
- ``plugin.json`` in a folder or in its ``.claude-plugin/``: the plugin of that folder,
  merged over the marketplace entry that points there (plugin.json wins for its fields,
  but for several entries at the marketplace root, each named and described by its entry,
  by which it is installed).
- A folder directly below ``plugins/``, without a manifest: a plugin named after the
  folder, made only when components are found in it.

A plugin folder's node id is ``<source>/<folder>`` (``wshobson__agents/plugins/x``); the
components below it get PART_OF edges to it (see `skills`). Attributes: ``version``,
``author`` (the name), ``category``, ``homepage``, ``license``, ``repository``,
``keywords``, ``marketplace`` (the marketplace's name), ``marketplace_source`` (the entry's source as
written), ``plugin_json`` (the manifest as written). The text holds the description, the
category, the keywords and the list of components: what a user would search for (only
the components every caller who may see the plugin may see: `skill_links.named_by_plugin`).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skill_retriever.ingest.result import Problem, Unread
from skill_retriever.ingest.skill_records import Record, RecordError, jsonable, unreadable
from skill_retriever.model import NodeKind

MARKETPLACE = ".claude-plugin/marketplace.json"
_FIELDS = ("version", "category", "homepage", "license")
#: The fields an entry may hold its members in, inline (`inline_members`).
_INLINE = ("hooks", "mcpServers")

#: Reads one JSON file of the repository (relative path) or raises RecordError / OSError.
ReadJson = Callable[[str], Any]


@dataclass(slots=True)
class PluginSpec:
    """One plugin: where it lives and what its marketplace entry and manifest say."""

    rel: str  # what its node id is made of: the folder, or "<marketplace>#<name>"
    folder: str | None  # the plugin's folder ('' = the root); None when kept elsewhere
    manifest: str | None = None  # path of its plugin.json
    entry: dict[str, Any] | None = None  # its marketplace entry
    marketplace: str | None = None  # the marketplace's name
    marketplace_rel: str | None = None  # path of the marketplace.json
    #: one of several entries at its marketplace's root: its entry names it, not a plugin.json there
    shared: bool = False


def is_marketplace(rel: str) -> bool:
    return rel == MARKETPLACE or rel.endswith("/" + MARKETPLACE)


def find_plugins(
    files: list[str], read_json: ReadJson, problems: list[Problem], where: Callable[[str], str]
) -> tuple[dict[str, PluginSpec], list[PluginSpec], list[str]]:
    """Plugin folders (folder -> spec), plugins kept elsewhere, and the folders nothing
    of which may be indexed this run, from all files of a root.

    A marketplace.json that cannot be read holds its plugins' ``access``: read without
    it, its plugin folders were bare plugins, public with their members. Nothing below its
    marketplace root is indexed this run, with a problem that keeps what was
    (`Unread.FOLDER`); nor is the folder of an entry skipped (no name, listed twice).

    Args:
        files: Every file of the root, relative, sorted.
        read_json: Reads one of them as JSON.
        problems: Where unreadable manifests and bad marketplace entries are reported.
        where: The path to report for a relative path.
    """
    markets: dict[str, list[PluginSpec]] = {}
    blocked: dict[str, str] = {}  # folder -> why nothing below it is indexed
    folders = {posixpath.dirname(f) for f in files}
    folders |= {d for f in folders for d in _ancestors(f)}
    for rel in (f for f in files if is_marketplace(f)):
        try:
            markets[rel] = _marketplace(rel, read_json, folders, problems, where, blocked)
            continue
        except (RecordError, OSError) as exc:
            why = _reason(exc)
        except Exception as exc:  # noqa: BLE001  (the per-file boundary: one file must never abort the run)
            why = f"unexpected {type(exc).__name__}: {exc} (please report this)"
        root = marketplace_root(rel)
        # said of the file, whose problem also keeps a skills read from taking the folder as documents
        problems.append(Problem(where(rel), f"marketplace not read: {why}; nothing below {where(root)} is indexed "
                                "this run: who may see its plugins and their members is this file's 'access' to "
                                "say; mend it and index again"))
        blocked.setdefault(root, f"its marketplace {where(rel)} cannot be read")
    for folder, why in blocked.items():
        problems.append(Problem(where(folder), f"not indexed this run, nor is anything below it: {why} (what was "
                                "indexed from here before stays)", unread=Unread.FOLDER))
    kept = [f for f in files if not any(below(f, b) for b in blocked)]
    local: dict[str, PluginSpec] = {}
    for f in kept:
        parts = f.split("/")
        for i in range(1, len(parts) - 1):
            if parts[i - 1] == "plugins" and not parts[i].startswith("."):
                folder = "/".join(parts[: i + 1])
                local.setdefault(folder, PluginSpec(folder, folder))
        if parts[-1] == "plugin.json":
            folder = posixpath.dirname(f)
            if posixpath.basename(folder) == ".claude-plugin":
                folder = posixpath.dirname(folder)
            local[folder] = PluginSpec(folder or f, folder, manifest=f)
    remote: list[PluginSpec] = []
    for rel, specs in markets.items():
        if any(below(rel, b) for b in blocked):
            continue
        for spec in specs:
            if spec.folder is None:
                remote.append(spec)
            elif any(below(spec.folder, b) for b in blocked):
                continue  # its folder is not indexed this run: its entry alone would be a plugin without its members
            elif (known := local.get(spec.folder)) is not None and _sibling(known, spec, rel):
                # another plugin of the same folder: by its own key (its id), not the folder's
                local[spec.rel] = PluginSpec(spec.rel, spec.folder, known.manifest, spec.entry, spec.marketplace,
                                             rel, shared=True)
            elif known is not None and known.entry is not None:
                problems.append(
                    Problem(
                        where(rel),
                        f"plugin {_name(spec)!r} points at folder "
                        f"{spec.folder!r}, as {_name(known)!r} does; skipped",
                    )
                )
            else:
                base = known or PluginSpec(spec.rel, spec.folder)
                base.entry, base.marketplace = spec.entry, spec.marketplace
                base.marketplace_rel = rel
                if sum(s.folder == spec.folder for s in specs) > 1:
                    # the first of several at the marketplace root: by its id, as the others
                    # (`_marketplace`), not the path of a plugin.json there, which each reads
                    base.rel, base.shared = spec.rel, True
                local[spec.folder] = base
    return local, remote, sorted(blocked)


def below(rel: str, folder: str) -> bool:
    """Whether the relative path ``rel`` is ``folder`` or lies below it ('' is the root)."""
    return not folder or rel == folder or rel.startswith(folder + "/")


def _sibling(known: PluginSpec, spec: PluginSpec, rel: str) -> bool:
    """Whether ``spec``, an entry of the marketplace file ``rel``, is a plugin of its own
    beside ``known``, the first entry of that file naming the same folder: both name the
    marketplace root, whose several plugins each load the skills their ``skills`` paths
    name (anthropics/skills: document-skills, example-skills, ... all ``"source": "./"``;
    https://code.claude.com/docs/en/plugins-reference#path-behavior-rules)."""
    return known.entry is not None and known.marketplace_rel == rel and spec.folder == marketplace_root(rel)


def _ancestors(folder: str) -> list[str]:
    out = []
    while folder:
        folder = posixpath.dirname(folder)
        out.append(folder)
    return out


def _name(spec: PluginSpec) -> str:
    return str((spec.entry or {}).get("name") or spec.folder or spec.rel)


def _marketplace(
    rel: str,
    read_json: ReadJson,
    folders: set[str],
    problems: list[Problem],
    where: Callable[[str], str],
    blocked: dict[str, str],
) -> list[PluginSpec]:
    """The entries of one marketplace.json; bad entries become problems, and the folder an
    entry that is skipped names goes into ``blocked`` (its ``access`` is not read).

    Raises:
        RecordError: It is no ``{"plugins": [...]}`` (its entries' access cannot be read).
        OSError: It cannot be read.
    """
    data = read_json(rel)
    if not isinstance(data, dict) or not isinstance(data.get("plugins", []), list):
        raise RecordError('expected {"plugins": [...]}')
    if "plugins" not in data:  # it lists no plugin: nothing it says decides who sees what
        problems.append(Problem(where(rel), 'marketplace ignored: expected {"plugins": [...]}'))
        return []
    market = data["name"] if isinstance(data.get("name"), str) else None
    specs: list[PluginSpec] = []
    names: set[str] = set()
    for i, entry in enumerate(data["plugins"]):
        label = f"plugins[{i}]"
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("name"), str)
            or not entry["name"].strip()
        ):
            problems.append(Problem(where(rel), f"{label}: a plugin entry needs a name; skipped"))
            _block_entry(data, rel, entry, f"{label} of {where(rel)} names it but has no name", folders, blocked)
            continue
        name = entry["name"].strip()
        if name in names:
            problems.append(
                Problem(where(rel), f"{label}: plugin {name!r} listed twice; the first is kept")
            )
            _block_entry(data, rel, entry, f"{label} of {where(rel)} names it but lists {name!r} a second time",
                         folders, blocked)
            continue
        names.add(name)
        folder = entry_folder(data, rel, entry)
        inline = " and ".join(f for f in _INLINE if isinstance(entry.get(f), dict) and entry[f])
        if isinstance(entry.get("source"), str) and (folder is None or folder not in folders):
            left = (f", the {inline} it holds inline left out; index a checkout holding that folder to "
                    "search and install them") if inline else ""
            problems.append(
                Problem(
                    where(rel),
                    f"{label}: plugin {name!r} source {entry['source']!r} is no "
                    f"folder of this repository; indexed from its entry alone{left}",
                )
            )
            folder = None
        elif folder is None and inline:
            # its members are read from the plugin's own files (`skill_files.Reader.entry_members`
            # reads a local plugin's): kept elsewhere, the index holds none of them
            problems.append(Problem(where(rel), (
                f"{label}: plugin {name!r} is kept elsewhere ({_elsewhere(entry.get('source'))}), not in this "
                f"folder: the {inline} its entry holds inline are not indexed, as none of its files are; "
                "index a checkout of it to search and install them"), unread=Unread.NOTHING))
        spec_rel = folder if folder else f"{rel}#{name}"
        specs.append(PluginSpec(spec_rel, folder, None, jsonable(entry), market, rel))
    # several entries at the marketplace root are several plugins of one folder: each is
    # told apart by its name, as an entry at the repository's root is
    root = marketplace_root(rel)
    if sum(s.folder == root for s in specs) > 1:
        for s in specs:
            if s.folder == root:
                s.rel = f"{rel}#{(s.entry or {})['name'].strip()}"
    return specs


def _block_entry(
    data: dict[str, Any], rel: str, entry: object, why: str, folders: set[str], blocked: dict[str, str]
) -> None:
    """Put the folder of this repository that a skipped ``entry`` names in ``blocked``: read
    without the entry, it was a bare plugin, public with its members, where the entry may
    give an ``access``. A folder another entry names is that entry's to say."""
    folder = entry_folder(data, rel, entry) if isinstance(entry, dict) else None
    if folder is None or folder not in folders:
        return
    others = [entry_folder(data, rel, e) for e in data["plugins"] if isinstance(e, dict) and e is not entry]
    if folder not in others:
        blocked.setdefault(folder, why)


def _elsewhere(source: Any) -> str:
    """Where an object ``source`` keeps its plugin, in words: ``github acme/guard``,
    ``url https://...``, ``npm @acme/guard``
    (https://code.claude.com/docs/en/plugin-marketplaces#plugin-sources)."""
    if not isinstance(source, dict):
        return f"source {json.dumps(source)[:120]}"
    where = next((source[k] for k in ("repo", "url", "package", "path") if isinstance(source.get(k), str)), "")
    return " ".join(str(x)[:120] for x in (source.get("source", "source"), where) if x)


def entry_folder(marketplace: dict[str, Any], rel: str, entry: dict[str, Any]) -> str | None:
    """The folder the string ``source`` of ``entry`` names, relative to the repository
    whose ``rel`` is the marketplace file: ``./x`` from the marketplace root (the folder
    holding ``.claude-plugin/``), a bare name below ``metadata.pluginRoot``; None for an
    object source or one leaving the repository."""
    meta = marketplace.get("metadata")
    plugin_root = meta["pluginRoot"] if isinstance(meta, dict) and isinstance(meta.get("pluginRoot"), str) else ""
    return _local_folder(entry.get("source"), marketplace_root(rel), plugin_root)


def marketplace_root(rel: str) -> str:
    """The marketplace root of the marketplace file ``rel``: the folder holding its
    ``.claude-plugin/`` ('' for the repository's own)."""
    return posixpath.dirname(posixpath.dirname(rel))


def _local_folder(source: Any, root: str, plugin_root: str) -> str | None:
    """The folder a string source names, relative to the repository; None if it leaves it."""
    if not isinstance(source, str) or not source.strip() or source.startswith("/"):
        return None
    base = root if source.startswith(("./", "../")) else posixpath.join(root, plugin_root)
    folder = posixpath.normpath(posixpath.join(base, source))
    if folder == ".":
        return ""
    return None if folder.startswith("../") or folder == ".." else folder


def _reason(exc: Exception) -> str:
    return unreadable(exc) if isinstance(exc, OSError) else str(exc)


def _text(meta: dict[str, Any], key: str) -> str:
    value = meta.get(key)
    if isinstance(value, dict):  # author / repository objects: {"name"} or {"url"}
        value = value.get("name") or value.get("url")
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return str(value).strip()
    return ""


def plugin_record(spec: PluginSpec, manifest: dict[str, Any], components: list[str]) -> Record:
    """The PLUGIN record of ``spec``: marketplace entry, then manifest fields over it.

    Args:
        spec: The plugin.
        manifest: Its plugin.json as read (empty when it has none or it was unreadable).
        components: ``"name (kind)"`` of each component in its folder.
    """
    entry = {k: v for k, v in (spec.entry or {}).items() if k != "source"}
    # several entries at one root read its one plugin.json: what tells them apart is their own
    meta = {**manifest, **entry} if spec.shared else {**entry, **manifest}
    folder_name = posixpath.basename(spec.folder) if spec.folder else ""
    name = _text(meta, "name") or folder_name or spec.rel
    description = _text(meta, "description")
    attrs: dict[str, Any] = {k: v for k in _FIELDS if (v := _text(meta, k))}
    for key in ("author", "repository"):
        if value := _text(meta, key):
            attrs[key] = value
    keywords = [k.strip() for k in meta.get("keywords") or [] if isinstance(k, str) and k.strip()]
    if keywords:
        attrs["keywords"] = keywords
    if spec.entry is not None:
        attrs["marketplace"] = spec.marketplace or ""
        attrs["marketplace_source"] = spec.entry.get("source")
    if manifest:
        attrs["plugin_json"] = manifest
    lines = [
        description,
        f"Category: {attrs['category']}" if "category" in attrs else "",
        f"Keywords: {', '.join(keywords)}" if keywords else "",
        f"Components: {', '.join(components)}" if components else "",
    ]
    category = [attrs["category"]] if "category" in attrs else []
    return Record(
        rel=spec.rel,
        kind=NodeKind.PLUGIN,
        name=name,
        description=description,
        text="\n".join(x for x in lines if x) or name,
        tags=tuple(dict.fromkeys(category + keywords)),
        attrs=attrs,
    )
