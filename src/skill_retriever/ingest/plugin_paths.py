"""The component paths a ``plugin.json`` declares -> which files of the plugin are what.

Claude Code's plugin manifest may name, besides (or instead of) its default folders
(``commands/``, ``agents/``, ``skills/``, ``hooks/hooks.json``, ``.mcp.json``), paths of its own, relative
to the plugin's folder and starting with ``./`` (its plugins reference, "Component path
fields"): ``commands``, ``agents`` and ``skills`` (a path or a list of paths, each a file
or a folder), ``hooks`` and ``mcpServers`` (a path or a list of paths to JSON files, or an
object written inline). A ``commands`` or ``agents`` path replaces the default folder,
which Claude Code then does not scan (to keep it, a manifest lists it: ``"commands":
["./commands/", "./extras/"]``); a ``skills`` path adds to ``skills/``, but for a marketplace
entry whose source is the marketplace root, whose ``skills`` replace it (the skills there
no path names are none of its: `_root_entry_skills`; several such entries are several
plugins of that folder, each with the skills it names, and a skill none names is indexed
as a skill of no plugin; each of them with its own commands and agents too, a default
folder one replaces staying the others': `_not_loaded`); ``hooks`` and
``mcpServers`` files add to ``hooks/hooks.json`` and ``.mcp.json`` (the plugins reference,
"Path behavior rules": https://code.claude.com/docs/en/plugins-reference#path-behavior-rules).
So the Markdown files of a replaced default folder that no path names are no components:
`declared_paths` gives the folder (``Reader.replaced``), whose files are not read, and says
once, against the manifest, how many it leaves out, as Claude Code warns of the ignored
folder in ``claude plugin list``.

A plugin's marketplace entry may hold the same fields, merged with its plugin.json, or,
with ``"strict": false``, its whole definition
(https://code.claude.com/docs/en/plugin-marketplaces#strict-mode): its paths are read the
same way, relative to the plugin's folder, and so are hooks or servers it holds inline
(`inline_members`, items of the marketplace file that are the plugin's members). An entry
with ``"strict": false`` whose plugin.json declares components too is a conflict Claude
Code refuses to load the plugin over: said against the plugin.json (`_strict_conflict`).

`declared_paths` turns the paths into ``{file: Declared}`` for the files they name: every
``.md`` file below a commands or agents folder (or the file itself), each hooks or
mcpServers JSON file. A skill is a SKILL.md wherever it lies, so a skills path is only
checked. Inline hooks and servers are read from the manifest itself (`skill_files`).

A path that leaves the plugin's folder (absolute, ``../``, or a link leading out of it) or
holds a backslash is refused, and one naming nothing is reported; either is a problem of the manifest, which
was read (``Unread.NOTHING``), and the rest of the plugin is read as usual. A manifest that
cannot be read declares nothing here; reading it is reported once, as the plugin's.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skill_retriever.ingest.plugin_manifests import PluginSpec, marketplace_root
from skill_retriever.ingest.result import Problem, Unread
from skill_retriever.model import NodeKind

__all__ = ["Declared", "declared_paths", "manifest_paths"]

#: The manifest fields that name component paths, and what the files they name are.
_FIELDS: dict[str, NodeKind] = {
    "commands": NodeKind.COMMAND,
    "agents": NodeKind.AGENT,
    "skills": NodeKind.SKILL,
    "hooks": NodeKind.HOOK,
    "mcpServers": NodeKind.MCP_SERVER,
}
#: The fields by which a manifest declares components (strict mode's conflict), those
#: this index does not read (output styles, LSP servers) among them.
_COMPONENT_FIELDS = ("commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers")
#: Fields that may hold their components inline (an object) instead of paths.
_INLINE = frozenset({"hooks", "mcpServers"})
#: Fields whose paths replace the default folder of their name instead of adding to it.
_REPLACING = ("commands", "agents")


@dataclass(frozen=True, slots=True)
class Declared:
    """A file a plugin's manifest names as a component of ``kind``.

    ``base`` is the declared folder it lies below ('' for a file named itself): the
    folders between it and the file are a command's namespace, as those below
    ``commands/`` are. ``plugin`` is the plugin's folder.
    """

    kind: NodeKind
    base: str
    plugin: str

    def below(self, rel: str) -> list[str]:
        """The folders between ``base`` and the file ``rel``."""
        folder = posixpath.dirname(rel)
        if not self.base or folder == self.base:
            return []
        return posixpath.relpath(folder, self.base).split("/")


def manifest_paths(manifest: Mapping[str, object], field: str) -> tuple[list[str], str | None]:
    """The paths ``manifest[field]`` names, and why some of it was not read (or None).

    A string is one path, a list of strings several; an inline object (``hooks``,
    ``mcpServers``) names none. Anything else is refused whole."""
    value = manifest.get(field)
    if value is None or (field in _INLINE and isinstance(value, dict)):
        return [], None
    if isinstance(value, str):
        return [value], None
    shape = "a path, a list of paths or an object" if field in _INLINE else "a path or a list of paths"
    if not isinstance(value, list):
        return [], f"{field!r} must be {shape}, got {type(value).__name__}; ignored"
    paths = [v for v in value if isinstance(v, str)]
    if len(paths) < len(value):
        return paths, f"{field!r} holds entries that are not paths (strings); those are ignored"
    return paths, None


def declared_paths(
    plugins: Mapping[str, PluginSpec],
    read_json: Callable[[str], object],
    files: Collection[str],
    root: Path,
    problems: list[Problem],
    replaced: dict[str, str] | None = None,
    excluded: dict[str, set[str]] | None = None,
) -> dict[str, Declared]:
    """``{file: Declared}`` for the files the plugins' manifests name (module docstring).

    Args:
        plugins: The plugin folders (folder -> spec), as `find_plugins` gives them.
        read_json: Reads a file of the root (relative path) as JSON, or raises.
        files: Every file of the root, relative.
        root: The root, to tell a link leading out of a plugin's folder.
        problems: Where refused and missing paths are reported (the manifest's).
        replaced: Filled with each default folder a manifest's paths replace (its path
            -> the field), whose files no path names are no components.
        excluded: Filled, for each plugin (its key in ``plugins``) whose ``skills`` paths
            replace its ``skills/`` folder (`_root_entry_skills`), with the folders of the
            skills there those paths do not name: skills, but none of that plugin's; and,
            for each of several plugins of one folder, with the files of it that plugin
            does not load (`_not_loaded`).
    """
    out: dict[str, Declared] = {}
    replaced = {} if replaced is None else replaced
    excluded = {} if excluded is None else excluded
    skill_folders = {posixpath.dirname(f) for f in files if posixpath.basename(f).lower() == "skill.md"}
    left_out: list[tuple[str, PluginSpec, str]] = []
    named: dict[str, set[str]] = {}  # each plugin's files its own paths name
    replacing: dict[str, dict[str, str]] = {}  # each plugin's replaced fields -> where it says so
    for key, spec in sorted(plugins.items()):
        folder = spec.folder or ""
        declaring = _declaring(spec, read_json, root)
        problems.extend(_strict_conflict(spec, declaring))
        named_skills: list[str] = []
        for fields, where in declaring:

            def warn(message: str, where: str = where) -> None:
                problems.append(Problem(where, message, unread=Unread.NOTHING))

            _read_paths(fields, folder, files, root, warn, out, named_skills, named.setdefault(key, set()))
        if (unnamed := _root_entry_skills(spec, named_skills, skill_folders)) is not None:
            excluded[key] = unnamed
            left_out.append((key, spec, next(w for fields, w in declaring if fields is spec.entry)))
        replacing[key] = {field: by for field in _REPLACING if (by := next(
            (where for fields, where in declaring if isinstance(fields.get(field), (str, list))), None)) is not None}
    sharing: dict[str, list[str]] = {}
    for key, spec in plugins.items():
        sharing.setdefault(spec.folder or "", []).append(key)
    for key, spec in sorted(plugins.items()):
        folder = spec.folder or ""
        for field, by in replacing[key].items():
            default = posixpath.join(folder, field)
            # several entries at one marketplace root: the folder is loaded, but by those that keep it
            if default in replaced or any(field not in replacing[k] for k in sharing[folder]):
                continue
            replaced[default] = field
            left = [f for f in files if f.startswith(f"{default}/") and f.lower().endswith(".md")
                    and f not in out and not _in_skill(f, default, skill_folders)]
            if left:
                many = f"{len(left)} file{'s' if len(left) > 1 else ''}"
                problems.append(Problem(by, (
                    f"{field!r} replaces the default {field}/ folder, which Claude Code then does not "
                    f"load: its {many} no {field} path names ({left[0]}{', ...' if len(left) > 1 else ''}) "
                    f"not indexed; list './{field}/' in {field!r} to keep them"), unread=Unread.NOTHING))
    problems.extend(_unlisted_skills(plugins, excluded, left_out))
    for folder, keys in sharing.items():
        for key in keys if len(keys) > 1 else ():
            excluded.setdefault(key, set()).update(
                _not_loaded(folder, named, keys, key, set(replacing[key]), files, skill_folders))
    return out


def _declaring(
    spec: PluginSpec, read_json: Callable[[str], object], root: Path
) -> list[tuple[dict[str, Any], str]]:
    """What declares the plugin's components, and where to report it: its plugin.json,
    then its marketplace entry, whose component fields are merged with the plugin.json's
    (or, with ``"strict": false``, are the whole definition: the same fields, read the
    same way; https://code.claude.com/docs/en/plugin-marketplaces#strict-mode)."""
    out: list[tuple[dict[str, Any], str]] = []
    if spec.manifest is not None:
        try:
            manifest = read_json(spec.manifest)
        except Exception:  # noqa: BLE001  (reported once, as the plugin's: `Reader.manifest`)
            manifest = None
        if isinstance(manifest, dict):
            out.append((manifest, str(root / spec.manifest)))
    if spec.entry is not None and spec.marketplace_rel is not None and any(f in spec.entry for f in _FIELDS):
        out.append((spec.entry, str(root / spec.marketplace_rel)))
    return out


def _strict_conflict(spec: PluginSpec, declaring: list[tuple[dict[str, Any], str]]) -> list[Problem]:
    """A plugin whose marketplace entry says ``"strict": false`` (the entry is its whole
    definition) while its plugin.json declares components: Claude Code does not load it
    ("conflicting manifests",
    https://code.claude.com/docs/en/plugin-marketplaces#strict-mode), which is said
    against the plugin.json; both are indexed as read."""
    if spec.entry is None or spec.entry.get("strict") is not False or spec.manifest is None:
        return []
    manifest, where = declaring[0] if declaring and declaring[0][0] is not spec.entry else ({}, "")
    fields = [f for f in _COMPONENT_FIELDS if manifest.get(f) is not None]
    if not fields:
        return []
    name = spec.entry.get("name")
    return [Problem(where, (
        f"plugin {name!r} has conflicting manifests: its marketplace entry ({spec.marketplace_rel}) "
        f"says \"strict\": false, the entry being its whole definition, yet this plugin.json declares "
        f"components ({', '.join(fields)}), so Claude Code does not load the plugin; remove them from "
        "plugin.json, or \"strict\": false from the entry (both are indexed as read)"), unread=Unread.NOTHING)]


def _root_entry_skills(spec: PluginSpec, named: list[str], skill_folders: set[str]) -> set[str] | None:
    """A ``skills`` path adds to the default ``skills/`` folder, but for a marketplace
    entry whose source is the marketplace root, where the entry's ``skills`` replace it
    (the plugins reference, "Path behavior rules":
    https://code.claude.com/docs/en/plugins-reference#path-behavior-rules): the skill
    folders below ``skills/`` that no skills path (``named``, the folders or files they
    name) holds, which are none of this plugin's; None where the paths add."""
    entry, rel = spec.entry, spec.marketplace_rel
    if entry is None or rel is None or spec.folder != marketplace_root(rel) or not isinstance(entry.get("skills"), (str, list)):
        return None
    default = posixpath.join(spec.folder, "skills")
    return {s for s in skill_folders if s.startswith(f"{default}/") and not any(
        not t or s == t or s.startswith(f"{t}/") or posixpath.dirname(t) == s for t in named)}


def _unlisted_skills(
    plugins: Mapping[str, PluginSpec], excluded: Mapping[str, set[str]], left_out: list[tuple[str, PluginSpec, str]]
) -> list[Problem]:
    """Each plugin's skills its ``skills`` paths leave out (`_root_entry_skills`) that no
    other plugin of its folder holds, said once, against the marketplace file: Claude Code
    loads them with no plugin (anthropics/skills lists several plugins at its root, each
    naming its own skills: a skill another entry names is that one's)."""
    out: list[Problem] = []
    said: set[str] = set()
    for key, spec, where in left_out:
        others = [k for k, s in plugins.items() if k != key and s.folder == spec.folder]
        left = sorted(s for s in excluded[key] - said if all(s in excluded.get(k, ()) for k in others))
        said.update(left)
        if not left:
            continue
        many = f"{len(left)} skill{'s' if len(left) > 1 else ''}"
        out.append(Problem(where, (
            f"plugin {(spec.entry or {}).get('name')!r}: 'skills' in its marketplace entry replaces the default "
            f"skills/ folder, its source being the marketplace root, so Claude Code does not load with the plugin "
            f"its {many} no skills path names ({left[0]}{', ...' if len(left) > 1 else ''}): indexed as skills of "
            "no plugin; list './skills/' in 'skills' to keep them"), unread=Unread.NOTHING))
    return out


def _read_paths(
    fields: Mapping[str, object],
    folder: str,
    files: Collection[str],
    root: Path,
    warn: Callable[[str], None],
    out: dict[str, Declared],
    named_skills: list[str],
    named_files: set[str],
) -> None:
    """Add to ``out`` (and to ``named_files``) the files the component paths of ``fields``
    name in the plugin's ``folder``, and to ``named_skills`` what its skills paths name;
    what cannot be read is said by ``warn``."""
    for field, kind in _FIELDS.items():
        paths, why = manifest_paths(fields, field)
        if why is not None:
            warn(why)
        for path in paths:
            named = _named(path, folder, files, root)
            if isinstance(named, str):
                warn(f"{field} path {path!r:.120} {named}")
                continue
            target, found = named
            if kind is NodeKind.SKILL:
                named_skills.append(target)
                continue  # a SKILL.md is a skill wherever it lies
            wanted = ".json" if field in _INLINE else ".md"
            kept = [f for f in found if f.lower().endswith(wanted)]
            if not kept:
                warn(f"{field} path {path!r:.120} holds no {wanted} file; nothing read from it")
            base = "" if target in files else target
            for f in kept:
                out.setdefault(f, Declared(kind, base, folder))
            named_files.update(kept)


def _not_loaded(
    folder: str, named: Mapping[str, set[str]], keys: Collection[str], key: str, replaces: set[str],
    files: Collection[str], skill_folders: set[str],
) -> set[str]:
    """The files of ``folder``, the root of several marketplace entries (``keys``), that the
    plugin ``key`` does not load: those the other entries' paths name and its own do not,
    unless they lie in a default folder it keeps (``commands/``, ``agents/``, ``hooks/``,
    ``.mcp.json``), and the Markdown files of a default folder its paths replace (``replaces``)
    that they do not name. Each entry at the marketplace root loads its own paths, or the
    default folders where it names none
    (https://code.claude.com/docs/en/plugins-reference#path-behavior-rules)."""
    kept = tuple(f"{posixpath.join(folder, f)}/" for f in (*_REPLACING, "hooks") if f not in replaces)
    mine = named.get(key, set())
    others = set().union(*(named.get(k, set()) for k in keys if k != key)) - mine
    out = {f for f in others if not f.startswith(kept) and f != posixpath.join(folder, ".mcp.json")}
    for field in replaces:
        default = f"{posixpath.join(folder, field)}/"
        out |= {f for f in files if f.startswith(default) and f.lower().endswith(".md")
                and f not in mine and not _in_skill(f, default[:-1], skill_folders)}
    return out


def _in_skill(rel: str, top: str, skill_folders: set[str]) -> bool:
    """Whether ``rel`` lies in a skill's folder at or below ``top`` (a skill wherever it lies)."""
    folder = posixpath.dirname(rel)
    while folder.startswith(top):
        if folder in skill_folders:
            return True
        folder = posixpath.dirname(folder)
    return False


def _named(path: str, folder: str, files: Collection[str], root: Path) -> str | tuple[str, list[str]]:
    """The file or folder ``path`` names in the plugin's ``folder`` and the files it
    holds, or why none is read."""
    if not path.strip():
        return "is empty; ignored"
    if "\\" in path:
        return "holds a backslash (Claude Code reads paths with forward slashes, starting with ./); refused"
    if path.startswith("/") or posixpath.normpath(path).split("/")[0] == "..":
        return "leaves the plugin's folder (Claude Code reads only paths below it, starting with ./); refused"
    target = posixpath.normpath(posixpath.join(folder, path))
    if target == ".":
        target = ""
    prefix = f"{target}/" if target else ""
    found = [target] if target in files else sorted(f for f in files if f.startswith(prefix))
    if not found:
        return "names no file or folder of the plugin; nothing read from it"
    plugin = (root / folder).resolve()
    inside = [f for f in found if (root / f).resolve().is_relative_to(plugin)]
    if not inside:
        return "leads out of the plugin's folder through a symbolic link; refused"
    return target, inside
