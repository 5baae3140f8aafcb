"""The component paths a ``plugin.json`` declares -> which files of the plugin are what.

Claude Code's plugin manifest may name, besides its default folders (``commands/``,
``agents/``, ``skills/``, ``hooks/hooks.json``, ``.mcp.json``), paths of its own, relative
to the plugin's folder and starting with ``./`` (its plugins reference, "Component path
fields"): ``commands``, ``agents`` and ``skills`` (a path or a list of paths, each a file
or a folder), ``hooks`` and ``mcpServers`` (a path or a list of paths to JSON files, or an
object written inline). Those paths add to the default folders: both are read.

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

from skill_retriever.ingest.plugin_manifests import PluginSpec
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
#: Fields that may hold their components inline (an object) instead of paths.
_INLINE = frozenset({"hooks", "mcpServers"})


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
) -> dict[str, Declared]:
    """``{file: Declared}`` for the files the plugins' manifests name (module docstring).

    Args:
        plugins: The plugin folders (folder -> spec), as `find_plugins` gives them.
        read_json: Reads a file of the root (relative path) as JSON, or raises.
        files: Every file of the root, relative.
        root: The root, to tell a link leading out of a plugin's folder.
        problems: Where refused and missing paths are reported (the manifest's).
    """
    out: dict[str, Declared] = {}
    for folder, spec in sorted(plugins.items()):
        if spec.manifest is None:
            continue
        try:
            manifest = read_json(spec.manifest)
        except Exception:  # noqa: BLE001, S112  (reported once, as the plugin's: `Reader.manifest`)
            continue
        if not isinstance(manifest, dict):
            continue
        where = str(root / spec.manifest)

        def warn(message: str, where: str = where) -> None:
            problems.append(Problem(where, message, unread=Unread.NOTHING))

        for field, kind in _FIELDS.items():
            paths, why = manifest_paths(manifest, field)
            if why is not None:
                warn(why)
            for path in paths:
                named = _named(path, folder, files, root)
                if isinstance(named, str):
                    warn(f"{field} path {path!r:.120} {named}")
                    continue
                target, found = named
                if kind is NodeKind.SKILL:
                    continue  # a SKILL.md is a skill wherever it lies
                wanted = ".json" if field in _INLINE else ".md"
                kept = [f for f in found if f.lower().endswith(wanted)]
                if not kept:
                    warn(f"{field} path {path!r:.120} holds no {wanted} file; nothing read from it")
                base = "" if target in files else target
                for f in kept:
                    out.setdefault(f, Declared(kind, base, folder))
    return out


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
