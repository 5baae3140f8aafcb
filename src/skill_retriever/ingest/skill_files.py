"""What each file of a skills repository is, read into records (a failure costs that file only)."""

from __future__ import annotations

import posixpath
from pathlib import Path

from skill_retriever.ingest import skill_configs as cfg
from skill_retriever.ingest import skill_records as rec
from skill_retriever.ingest.command_places import COMMANDS_FOLDER, command_place
from skill_retriever.ingest.hook_configs import hook_record, is_hook_definition
from skill_retriever.ingest.inline_members import inline_members
from skill_retriever.ingest.plugin_manifests import PluginSpec, is_marketplace
from skill_retriever.ingest.plugin_paths import Declared
from skill_retriever.ingest.result import Note, Problem, Unread, UnreadEntry
from skill_retriever.ingest.skill_links import Corpus
from skill_retriever.model import NodeKind

_IGNORED_STEMS = frozenset({"license", "licence", "copying", "notice"})
_KIND_FOLDERS = {"agents": NodeKind.AGENT, "commands": NodeKind.COMMAND, "hooks": NodeKind.HOOK}
_MCP_FOLDERS = frozenset({"mcp", "mcps", "mcp-servers", "mcp_servers"})
#: Folders that make a root a repository of components rather than one kind's folder.
_LAYOUT_FOLDERS = frozenset({*_KIND_FOLDERS, *_MCP_FOLDERS, "skills", "plugins", ".claude-plugin"})


def is_layout(files: list[str]) -> bool:
    """Whether ``files`` (relative to a root) lie in a repository's own layout: a kind
    folder, ``skills/`` or ``plugins/`` inside it, a SKILL.md or a plugin manifest."""
    for rel in files:
        *folders, base = rel.split("/")
        if _LAYOUT_FOLDERS.intersection(folders) or base.lower() in ("skill.md", "plugin.json"):
            return True
    return False




def _hook_name(folder: str, stem: str) -> str:
    """The name of a hook file that gives none: its stem, but for a plugin's
    ``hooks/hooks.json`` (the file Claude Code's plugins keep their hooks in), whose stem
    names nothing: the folder above ``hooks/`` (``plugins/guard/hooks/hooks.json`` ->
    ``guard-hooks``), so that two plugins' hooks are not both "hooks" in a plan or an
    uninstall."""
    parts = folder.split("/")
    if stem.lower() != "hooks" or len(parts) < 2 or parts[-1].lower() != "hooks":
        return stem
    return f"{parts[-2]}-hooks"


def _kind_folder(parts: list[str]) -> NodeKind | None:
    for part in reversed(parts):
        if part in _KIND_FOLDERS:
            return _KIND_FOLDERS[part]
    return None


class Reader:
    """Reads the files of one root; every file's failure becomes a problem of that file."""

    def __init__(self, root: Path, corpus: str, files: list[str], max_bytes: int) -> None:
        self.root, self.corpus, self.max_bytes = root, corpus, max_bytes
        self.files = set(files)
        # The root's own name says what its files are only when the root is one kind's
        # folder indexed by itself (``components/hooks``); a repository cloned under such
        # a name (wshobson/agents into ``agents/``) would make every stray Markdown file
        # with a name and a description an agent: there the folders inside decide.
        self.root_names = [] if is_layout(files) else [root.resolve().name]
        #: The files plugin manifests name as components (`plugin_paths.declared_paths`).
        self.declared: dict[str, Declared] = {}
        #: Default folders (``plugins/x/commands``) a manifest's paths replace, whose
        #: Markdown files no path names Claude Code does not load (`plugin_paths`).
        self.replaced: dict[str, str] = {}
        #: Plugin key -> the skill folders in its skills/ that the skills paths replacing
        #: it do not name, and the files of its folder another plugin there loads and it
        #: does not: components, but none of that plugin's (`plugin_paths`).
        self.excluded: dict[str, set[str]] = {}

    def folders(self, folder: str, skill: str | None) -> list[str]:
        """The folder names that say what a file is: outside skills every folder from the
        root down, the root's own name included unless the root holds a repository's layout
        (`is_layout`), so indexing a ``hooks/`` or ``mcps/`` folder itself reads its files as
        such; inside a skill's folder none. There an ``agents/`` or ``commands/`` folder
        holds prompts the skill reads by path, which Claude Code never registers
        (anthropics' skill-creator keeps ``agents/analyzer.md`` for subagents it starts
        itself): such a file is the skill's, as any other (an OTHER part when named and
        described)."""
        if skill is not None:
            return []
        return [*self.root_names, *(folder.split("/") if folder else [])]

    def where(self, rel: str) -> str:
        return str(self.root / rel)

    def json(self, rel: str) -> object:
        return cfg.json_document(rec.read_text(self.root / rel, self.max_bytes))

    def records(self, rel: str, is_skill: bool, skill: str | None, out: Corpus) -> list[rec.Record]:
        """The records of one file, or [] after reporting why it cannot be read."""
        try:
            return self._records(rel, is_skill, skill)
        except rec.EmptyRecordError as exc:  # read, and empty: what it held goes
            out.problems.append(Problem(self.where(rel), str(exc), unread=Unread.NOTHING))
        except rec.RecordError as exc:
            out.problems.append(Problem(self.where(rel), str(exc)))
        except OSError as exc:
            out.problems.append(Problem(self.where(rel), rec.unreadable(exc)))
        except Exception as exc:  # noqa: BLE001  (the per-file boundary, reported below)
            # One file must never abort a run: whatever its content makes a parser raise
            # (a bug of ours, PyYAML's or json's included) costs this file only, and is
            # reported with the exception's type so that it can be fixed.
            out.problems.append(
                Problem(self.where(rel), f"unexpected {type(exc).__name__} while reading: "
                        f"{exc}; file skipped (please report this)")
            )
        return []

    def _records(self, rel: str, is_skill: bool, skill: str | None) -> list[rec.Record]:
        base, folder = posixpath.basename(rel), posixpath.dirname(rel)
        stem, ext = posixpath.splitext(base)
        lower_ext = ext.lower()
        if base == "plugin.json":  # read as the plugin's manifest (`manifest`); its inline members here
            return self.plugin_members(rel) if skill is None else []
        if stem.lower() in _IGNORED_STEMS or is_marketplace(rel):
            return []
        # a file of a skill's folder is the skill's, whatever path names it (Claude Code's
        # reference points "commands" at skill folders: their SKILL.md is the command)
        declared = self.declared.get(rel) if skill is None and not is_skill else None
        if declared is not None:
            return self._declared(rel, declared, stem)
        if skill is None and not is_skill and lower_ext == ".md" and self._replaced(folder):
            return []  # reported once, against the manifest (`plugin_paths.declared_paths`)
        context = self.folders(folder, skill)
        kind = NodeKind.SKILL if is_skill else _kind_folder(context)
        if lower_ext == ".md":
            default = (posixpath.basename(folder) or self.corpus) if is_skill else stem
            return self._markdown(rel, kind, context, default, labelled_items=skill is not None)
        if lower_ext != ".json" or skill is not None:
            return []
        if kind is NodeKind.HOOK:
            data = self.json(rel)
            return [hook_record(data, rel, _hook_name(folder, stem), self.files)] if is_hook_definition(data) else []
        if base in (".mcp.json", "mcp.json") or _MCP_FOLDERS.intersection(context):
            return cfg.mcp_records(self.json(rel), rel, stem)
        return []

    def _markdown(
        self, rel: str, kind: NodeKind | None, context: list[str], default: str, *, labelled_items: bool = False
    ) -> list[rec.Record]:
        text = rec.read_text(self.root / rel, self.max_bytes)
        made = rec.markdown_record(text, rel, kind or NodeKind.OTHER, default, labelled_items=labelled_items)
        if made is not None and made.kind is NodeKind.COMMAND:
            # Where the file lies below commands/ is what Claude Code names and files
            # it by (`command_places`): kept so that install writes it there.
            place, notes = command_place(context, posixpath.splitext(posixpath.basename(rel))[0])
            made.attrs.update(place)
            made.warnings += notes
        return [made] if made else []

    def _declared(self, rel: str, declared: Declared, stem: str) -> list[rec.Record]:
        """A file its plugin's manifest names as a component (`plugin_paths`): read as
        one of the default folder's, a command namespaced by the folders below the
        declared one as by those below ``commands/``."""
        if declared.kind is NodeKind.HOOK:
            data = self.json(rel)
            if not is_hook_definition(data):
                raise rec.RecordError(
                    "named as hooks by its plugin's plugin.json, but holds no 'hooks' mapping; "
                    "write it as hooks/hooks.json is written"
                )
            name = self._plugin_hooks_name(declared.plugin) if stem.lower() == "hooks" else stem
            return [hook_record(data, rel, name, self.files)]
        if declared.kind is NodeKind.MCP_SERVER:
            return cfg.mcp_records(self.json(rel), rel, stem)
        return self._markdown(rel, declared.kind, [COMMANDS_FOLDER, *declared.below(rel)], stem)

    def _replaced(self, folder: str) -> bool:
        """Whether ``folder`` is, or lies in, a default folder a manifest's paths replace."""
        while folder:
            if folder in self.replaced:
                return True
            folder = posixpath.dirname(folder)
        return False

    def _plugin_hooks_name(self, plugin: str) -> str:
        """What a plugin's hooks file named ``hooks.json``, or its inline hooks, is called:
        ``<plugin folder>-hooks``, as its ``hooks/hooks.json`` is (`_hook_name`)."""
        return f"{posixpath.basename(plugin) or self.corpus}-hooks"

    def plugin_members(self, rel: str) -> list[rec.Record]:
        """The hooks and MCP servers a ``plugin.json`` holds inline, members of its plugin
        as its ``hooks/hooks.json`` and ``.mcp.json`` are: installing the plugin installs
        them. ``"hooks": {event: [...]}`` is one HOOK record (``rel#hooks``, named
        `_plugin_hooks_name`, its commands redacted as a hooks.json's are); each of
        ``"mcpServers": {name: {...}}`` one server (``rel#name``). A manifest that cannot
        be read is reported once, as the plugin's (`manifest`); paths in these fields are
        read as their files (`plugin_paths`)."""
        try:
            data = self.json(rel)
        except (rec.RecordError, OSError):
            return []
        if not isinstance(data, dict):
            return []
        folder = posixpath.dirname(rel)
        plugin = posixpath.dirname(folder) if posixpath.basename(folder) == ".claude-plugin" else folder
        return inline_members(data, rel, self._plugin_hooks_name(plugin), self.files)

    def entry_members(self, spec: PluginSpec, problems: list[Problem]) -> list[rec.Record]:
        """The hooks and MCP servers a plugin's marketplace entry holds inline, read as a
        ``plugin.json``'s are (`inline_members`), members of the plugin as those are:
        ``<marketplace.json>#<plugin>#hooks`` and ``<marketplace.json>#<plugin>#<server>``,
        each with ``attrs["marketplace_entry"]``, the entry's name, by which the installer
        finds them in the file. The hook is named ``<plugin>-entry-hooks``: Claude Code loads
        it besides the plugin's ``hooks/hooks.json`` (``<folder>-hooks``), and several
        entries may share one folder, the marketplace root; a name of its own, the same
        every run, installs it and keeps a query from folding one into the other as a copy.
        What cannot be read is said against the marketplace file, naming the plugin (the
        file holds every plugin's entry)."""
        entry, rel = spec.entry, spec.marketplace_rel
        if entry is None or rel is None or spec.folder is None:
            return []
        name = str(entry.get("name", "")).strip()
        try:
            made = inline_members(entry, f"{rel}#{name}", f"{name}-entry-hooks", self.files)
        except rec.RecordError as exc:
            problems.append(Problem(self.where(rel), f"plugin {name!r}: the hooks or MCP servers its "
                                    f"marketplace entry holds inline are not indexed: {exc}"))
            return []
        for record in made:
            record.attrs["marketplace_entry"] = name
            record.warnings = [UnreadEntry(f"plugin {name!r}: {w}", w.rel) if isinstance(w, UnreadEntry)
                               else (Note if isinstance(w, Note) else str)(f"plugin {name!r}: {w}")
                               for w in record.warnings]
        return made

    def manifest(self, spec: PluginSpec, problems: list[Problem]) -> dict[str, object] | None:
        """The fields of ``spec``'s plugin.json (``{}`` when it has none); None, with a
        problem, when it cannot be read: its ``access`` is not known, so the plugin and
        its members are not indexed this run (the problem keeps what was, `skills`)."""
        if spec.manifest is None:
            return {}
        try:
            return cfg.plugin_meta(self.json(spec.manifest))
        except rec.RecordError as exc:
            why = str(exc)
        except OSError as exc:
            why = rec.unreadable(exc)
        except Exception as exc:  # noqa: BLE001  (the per-file boundary, as in `records`)
            why = f"unexpected {type(exc).__name__}: {exc} (please report this)"
        problems.append(Problem(self.where(spec.manifest), f"plugin not indexed, nor are its members (who may "
                                f"see them is its 'access' to say): {why}"))
        return None


__all__ = ["Reader", "is_layout"]
