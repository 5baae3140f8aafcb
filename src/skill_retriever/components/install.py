"""Write components, and what they require, into a project's ``.claude/`` layout.

Layout under the target folder (a project root)::

    .claude/skills/<name>/SKILL.md     the skill, plus every other file of its folder
    .claude/agents/<name>.md           an agent
    .claude/commands/<name>.md         a slash command
    .claude/hooks/<name>.json          a hook's JSON config as published (a Markdown hook: .md);
                                       Claude Code runs hooks from settings.json, so copy the
                                       entry you want into .claude/settings.json "hooks"
    .mcp.json                          MCP servers, merged into "mcpServers" by name (Claude
                                       Code's project-scope MCP file; other servers are kept)

``<name>`` is the component's name with runs of characters other than letters, digits,
``.``, ``_`` and ``-`` turned into ``-``; a name holding ``/``, ``\\`` or ``..`` is refused.

Safety rules:

- Every destination is resolved (symbolic links followed) and must stay inside the
  target; a destination that is itself a symbolic link is never written through.
  Absolute paths and ``..`` in names or file lists are refused.
- A source file of a skill folder must resolve inside that folder (no copying of what a
  catalogue's symbolic link points at elsewhere).
- An existing file that differs is never overwritten without ``force``; an identical one
  is "unchanged". A component with a refused or blocked file writes none of its files.
- Files are written to a temporary name and renamed, so a reader never sees half a file.

Content comes from the component's source file when it is still on disk; otherwise it is
rebuilt from the index (frontmatter + body; for a skill without its folder only SKILL.md).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal

import yaml

from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.model import Node, NodeKind

if TYPE_CHECKING:
    from skill_retriever.components.closure import Closure
    from skill_retriever.stores.index import Index

__all__ = [
    "ComponentPlan",
    "FileAction",
    "InstallError",
    "InstallPlan",
    "InstalledComponent",
    "UnsafePathError",
    "destination_name",
    "install",
    "installed_components",
    "plan_install",
]

MCP_FILE = ".mcp.json"
CLAUDE_DIR = ".claude"
INSTALLABLE = frozenset(
    {NodeKind.SKILL, NodeKind.AGENT, NodeKind.COMMAND, NodeKind.HOOK, NodeKind.MCP_SERVER}
)

#: The keys of an ``mcpServers`` entry that Claude Code reads; a one-server catalogue file
#: also carries catalogue metadata (tags, dates, requires), which is left out.
MCP_ENTRY_KEYS = ("type", "command", "args", "env", "url", "headers", "cwd")

Action = Literal["create", "overwrite", "unchanged", "blocked", "refused"]
Status = Literal["install", "unchanged", "blocked", "refused", "skipped"]


class InstallError(SkillRetrieverError):
    """An install cannot start: the target is not a folder, an id is unknown, ..."""


class UnsafePathError(InstallError):
    """A path would leave the target folder (``..``, absolute, a symbolic link)."""


@dataclass(frozen=True)
class FileAction:
    """What happens to one file (or one ``.mcp.json`` entry) of a component.

    Attributes:
        path: Relative to the target, POSIX style; ``.mcp.json#<server>`` for an MCP entry.
        action: create, overwrite (differs, ``force``), unchanged (identical), blocked
            (differs, no ``force``), refused (unsafe).
        reason: Why, for blocked and refused.
    """

    path: str
    action: Action
    reason: str = ""
    content: bytes = field(default=b"", repr=False, compare=False)
    mode: int = field(default=0o644, repr=False, compare=False)
    mcp_entry: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, str]:
        out = {"path": self.path, "action": self.action}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class ComponentPlan:
    """One component's files and its overall status.

    ``status`` is install (something to write), unchanged, blocked (a differing file and
    no ``force``: nothing written), refused (an unsafe path: nothing written) or skipped
    (a kind that has no place in the layout).
    """

    id: str
    kind: str
    name: str
    status: Status
    files: tuple[FileAction, ...] = ()
    reason: str = ""
    required_by: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "status": self.status,
            "files": [f.to_dict() for f in self.files],
        }
        if self.reason:
            out["reason"] = self.reason
        if self.required_by:
            out["required_by"] = list(self.required_by)
        return out


@dataclass(frozen=True)
class InstallPlan:
    """What an install does (``applied`` False: a plan or a dry run)."""

    target: Path
    components: tuple[ComponentPlan, ...]
    cycles: tuple[tuple[str, ...], ...] = ()
    applied: bool = False

    @property
    def ok(self) -> bool:
        """Nothing blocked or refused."""
        return all(c.status not in ("blocked", "refused") for c in self.components)

    def written(self) -> list[str]:
        """Paths created or overwritten (once applied)."""
        if not self.applied:
            return []
        return [
            f.path
            for c in self.components
            if c.status == "install"
            for f in c.files
            if f.action in ("create", "overwrite")
        ]

    def lines(self) -> list[str]:
        """One line per file, for people: what was (or would be) written and why not."""
        would = "" if self.applied else "would "
        verbs = {
            "create": f"{would}create",
            "overwrite": f"{would}overwrite",
            "unchanged": "unchanged",
        }
        out = [f"target: {self.target}{'' if self.applied else '  (dry run: nothing written)'}"]
        names = {c.id: c.name for c in self.components}
        for c in self.components:
            needed = ", ".join(names.get(i, i) for i in c.required_by)
            via = f" (required by {needed})" if c.required_by else ""
            out.append(
                f"[{c.kind}] {c.name}  {c.id}{via}: {c.status}{f' - {c.reason}' if c.reason else ''}"
            )
            for f in c.files:
                if f.action in verbs and c.status in ("install", "unchanged"):
                    out.append(f"  {verbs[f.action]} {f.path}")
                elif f.action == "blocked":
                    out.append(f"  kept {f.path}: {f.reason}")
                elif f.action == "refused":
                    out.append(f"  refused {f.path}: {f.reason}")
                else:
                    out.append(f"  not written {f.path} ({c.status})")
        for cycle in self.cycles:
            out.append("dependency cycle: " + " -> ".join(cycle))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": str(self.target),
            "applied": self.applied,
            "ok": self.ok,
            "components": [c.to_dict() for c in self.components],
            "written": self.written(),
            "cycles": [list(c) for c in self.cycles],
        }


@dataclass(frozen=True)
class InstalledComponent:
    """A component found in a target's layout."""

    kind: NodeKind
    names: tuple[str, ...]  # folder / file name and, when given, the frontmatter name
    path: str  # relative to the target


# -- names and paths ----------------------------------------------------------------------
_SLUG_RE = re.compile(r"[^\w.-]+")


def destination_name(name: str) -> str:
    """The file or folder name a component is installed under.

    File systems cap a name at 255 bytes (ext4, APFS, NTFS in UTF-16 units), so a slug
    longer than 100 UTF-8 bytes is cut there and ends in ``-`` and 8 hex digits of the
    SHA-256 of the whole name: at most 109 bytes, room left for ``.md``, and two long
    names that share their first 100 bytes still get different files.

    Raises:
        UnsafePathError: The name holds a path separator or ``..``, or nothing usable.
    """
    import hashlib  # local: this function is the only user in the module

    limit = 100
    if "/" in name or "\\" in name or "\x00" in name or ".." in name:
        raise UnsafePathError(
            f"component name {name!r:.120} holds a path separator or '..'; refusing it"
        )
    slug = _SLUG_RE.sub("-", name.strip()).strip("-.")
    if not slug:
        raise UnsafePathError(f"component name {name!r:.120} gives no usable file name")
    encoded = slug.encode("utf-8")
    if len(encoded) <= limit:
        return slug
    # errors="ignore" drops a character the cut split in half.
    head = encoded[:limit].decode("utf-8", "ignore").rstrip("-.")
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{head}-{digest}"


def _relative_parts(rel: str, what: str) -> tuple[str, ...]:
    """Parts of a relative POSIX path; absolute, ``..``, ``.``, empty or ``\\`` refused."""
    if not rel or "\\" in rel or "\x00" in rel:
        raise UnsafePathError(f"{what} {rel!r} is not a plain relative path")
    p = PurePosixPath(rel)
    if p.is_absolute() or re.match(r"^[A-Za-z]:", rel):
        raise UnsafePathError(
            f"{what} {rel!r} is absolute; only paths inside the target are allowed"
        )
    if any(part in ("..", ".", "") for part in rel.split("/")):
        raise UnsafePathError(f"{what} {rel!r} holds '..' or an empty part; refusing it")
    return p.parts


def safe_destination(root: Path, rel: str) -> Path:
    """``root / rel`` after checking it stays inside ``root`` once links are resolved.

    Raises:
        UnsafePathError: ``rel`` is absolute or climbs out, a symbolic link on the way
            leads outside, or the file itself is a symbolic link.
    """
    parts = _relative_parts(rel, "destination")
    dest = root.joinpath(*parts)
    real_root = root.resolve()
    resolved = dest.resolve()
    if not resolved.is_relative_to(real_root):
        raise UnsafePathError(f"{rel} resolves to {resolved}, outside the target {real_root}")
    if dest.is_symlink():
        raise UnsafePathError(f"{rel} is a symbolic link; refusing to write through it")
    return dest


# -- what a component's files are -------------------------------------------------------
@dataclass(frozen=True)
class _File:
    rel: str
    content: bytes
    mode: int = 0o644


def _read_source(node: Node, suffixes: tuple[str, ...]) -> tuple[Path, bytes] | None:
    """The component's own source file, when it is on disk and has the expected suffix."""
    if not node.source:
        return None
    path = Path(node.source)
    try:
        real = path.resolve()
        if not real.is_file() or not real.name.lower().endswith(suffixes):
            return None
        return path, real.read_bytes()
    except OSError:
        return None


def _mode(path: Path) -> int:
    try:
        return 0o755 if path.stat().st_mode & stat.S_IXUSR else 0o644
    except OSError:
        return 0o644


def _markdown(node: Node) -> bytes:
    """Rebuild a Markdown component from the index: frontmatter then body."""
    front: dict[str, Any] = {"name": node.name}
    if node.description:
        front["description"] = node.description
    extra = node.attrs.get("frontmatter")
    if isinstance(extra, Mapping):
        front.update({k: v for k, v in extra.items() if k not in ("name", "description")})
    head = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000).strip()
    return f"---\n{head}\n---\n\n{node.text.strip()}\n".encode()


def _hook_json(node: Node) -> bytes:
    hooks: dict[str, list[dict[str, Any]]] = {}
    for run in node.attrs.get("runs") or []:
        if isinstance(run, Mapping) and isinstance(run.get("command"), str):
            group: dict[str, Any] = {"hooks": [{"type": "command", "command": run["command"]}]}
            if run.get("matcher"):
                group["matcher"] = run["matcher"]
            hooks.setdefault(str(run.get("event") or "PreToolUse"), []).append(group)
    doc = {"name": node.name, "description": node.description, "hooks": hooks}
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()


def _mcp_entry(node: Node) -> dict[str, Any]:
    """The ``mcpServers`` entry: from the source file when present, else from the index
    (environment values become ``${NAME}`` references; the index keeps names only)."""
    found = _read_source(node, (".json",))
    if found is not None:
        try:
            data = json.loads(found[1].decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError):
            data = None
        if isinstance(data, dict):
            servers = data.get("mcpServers")
            key = node.id.rsplit("#", 1)[1] if "#" in node.id else node.name
            if isinstance(servers, dict) and isinstance(servers.get(key), dict):
                return dict(servers[key])
            if servers is None and ("command" in data or "url" in data):
                return {k: v for k, v in data.items() if k in MCP_ENTRY_KEYS}
    entry: dict[str, Any] = {}
    a = node.attrs
    if a.get("transport"):
        entry["type"] = a["transport"]
    if a.get("command"):
        entry["command"] = a["command"]
        entry["args"] = list(a.get("args") or [])
    if a.get("url"):
        entry["url"] = a["url"]
    if a.get("env_keys"):
        entry["env"] = {k: f"${{{k}}}" for k in a["env_keys"]}
    if not entry:
        raise InstallError(f"MCP server {node.id!r} has neither a command nor a URL in the index")
    return entry


def _component_files(node: Node) -> tuple[list[_File], str]:
    """The files to write for ``node`` (relative to the target) and a note.

    Raises:
        UnsafePathError: The name or a file of the skill folder is unsafe.
    """
    name = destination_name(node.name)
    note = ""
    if node.kind is NodeKind.SKILL:
        base = f"{CLAUDE_DIR}/skills/{name}"
        found = _read_source(node, ("skill.md",))
        files = [_File(f"{base}/SKILL.md", found[1] if found else _markdown(node))]
        listed = [f for f in node.attrs.get("files") or [] if isinstance(f, str)]
        if found is None:
            return files, (
                "source folder not on disk: SKILL.md rebuilt from the index, "
                f"{len(listed)} folder file(s) not copied"
            ) if listed else "SKILL.md rebuilt from the index"
        folder = found[0].parent
        real_folder = folder.resolve()
        for rel in listed:
            parts = _relative_parts(rel, f"file of skill {node.name!r}")
            src = folder.joinpath(*parts)
            real = src.resolve()
            if not real.is_relative_to(real_folder):
                raise UnsafePathError(
                    f"{rel} of skill {node.name!r} leads outside its folder (to {real})"
                )
            if rel.lower() == "skill.md":
                continue
            try:
                files.append(_File(f"{base}/{'/'.join(parts)}", real.read_bytes(), _mode(real)))
            except OSError as exc:
                note = f"{rel} not copied: {exc.strerror or exc}"
        return files, note
    if node.kind in (NodeKind.AGENT, NodeKind.COMMAND):
        kind_dir = "agents" if node.kind is NodeKind.AGENT else "commands"
        found = _read_source(node, (".md",))
        return [
            _File(f"{CLAUDE_DIR}/{kind_dir}/{name}.md", found[1] if found else _markdown(node))
        ], ("" if found else "rebuilt from the index")
    if node.kind is NodeKind.HOOK:
        found = _read_source(node, (".json", ".md"))
        if found is not None:
            suffix = ".md" if found[0].name.lower().endswith(".md") else ".json"
            return [_File(f"{CLAUDE_DIR}/hooks/{name}{suffix}", found[1])], ""
        return [
            _File(f"{CLAUDE_DIR}/hooks/{name}.json", _hook_json(node))
        ], "rebuilt from the index"
    raise InstallError(f"{node.kind.value} has no file layout")  # MCP servers go to .mcp.json


# -- planning -----------------------------------------------------------------------------
def _file_action(root: Path, f: _File, force: bool) -> FileAction:
    try:
        dest = safe_destination(root, f.rel)
    except UnsafePathError as exc:
        return FileAction(f.rel, "refused", str(exc))
    if dest.exists() and not dest.is_file():
        return FileAction(f.rel, "refused", "exists and is not a regular file")
    if not dest.exists():
        return FileAction(f.rel, "create", content=f.content, mode=f.mode)
    try:
        same = dest.read_bytes() == f.content
    except OSError as exc:
        return FileAction(f.rel, "refused", f"cannot read the existing file: {exc.strerror or exc}")
    if same:
        return FileAction(f.rel, "unchanged", content=f.content, mode=f.mode)
    if force:
        return FileAction(f.rel, "overwrite", content=f.content, mode=f.mode)
    return FileAction(
        f.rel,
        "blocked",
        "exists and differs; use --force to overwrite",
        content=f.content,
        mode=f.mode,
    )


def _read_mcp_file(root: Path) -> tuple[dict[str, Any] | None, str]:
    """The target's ``.mcp.json`` (``{}`` when missing), or None and why it is unusable."""
    try:
        path = safe_destination(root, MCP_FILE)
    except UnsafePathError as exc:
        return None, str(exc)
    if not path.exists():
        return {}, ""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"the existing {MCP_FILE} is unreadable ({exc}); fix or move it first"
    if not isinstance(data, dict) or not isinstance(data.get("mcpServers", {}), dict):
        return None, f"the existing {MCP_FILE} has no 'mcpServers' object; fix or move it first"
    return data, ""


def _mcp_action(node: Node, existing: dict[str, Any] | None, why: str, force: bool) -> FileAction:
    name = destination_name(node.name)
    rel = f"{MCP_FILE}#{name}"
    if existing is None:
        return FileAction(rel, "refused", why)
    entry = _mcp_entry(node)
    current = existing.get("mcpServers", {}).get(name)
    if current is None:
        return FileAction(rel, "create", mcp_entry=entry)
    if current == entry:
        return FileAction(rel, "unchanged", mcp_entry=entry)
    if force:
        return FileAction(rel, "overwrite", mcp_entry=entry)
    return FileAction(
        rel,
        "blocked",
        f"server {name!r} is configured differently; use --force to replace it",
        mcp_entry=entry,
    )


def _status(actions: Sequence[FileAction]) -> Status:
    kinds = {a.action for a in actions}
    if "refused" in kinds:
        return "refused"
    if "blocked" in kinds:
        return "blocked"
    return "install" if kinds & {"create", "overwrite"} else "unchanged"


def plan_install(
    index: Index,
    ids: Iterable[str],
    target: str | Path,
    *,
    force: bool = False,
    with_dependencies: bool = True,
    closure: Closure | None = None,
) -> InstallPlan:
    """Plan installing ``ids`` (and, by default, what they require) into ``target``.

    Nothing is written. Ids may also be component names when they name one component.

    Raises:
        InstallError: ``target`` is a file, or an id / name is unknown or ambiguous.
    """
    from skill_retriever.components.closure import dependency_closure

    root = Path(target).expanduser().absolute()
    if root.exists() and not root.is_dir():
        raise InstallError(f"target {root} is a file; give the project folder to install into")
    wanted = [resolve_id(index, i) for i in ids]
    if not wanted:
        raise InstallError("nothing to install: give one or more component ids")
    if closure is None:
        closure = dependency_closure(index.graph, wanted) if with_dependencies else None
    order = list(closure.ids) if closure is not None else list(dict.fromkeys(wanted))
    required_by = closure.required_by if closure is not None else {}
    mcp_existing, mcp_why = _read_mcp_file(root)
    claimed: dict[str, str] = {}
    plans: list[ComponentPlan] = []
    for node_id in order:
        node = index.get(node_id)
        via = tuple(required_by.get(node_id, ())) if node_id not in wanted else ()
        if node.kind not in INSTALLABLE:
            plans.append(
                ComponentPlan(
                    node.id,
                    node.kind.value,
                    node.name,
                    "skipped",
                    reason=f"a {node.kind.value} has no place in the .claude layout",
                    required_by=via,
                )
            )
            continue
        note = ""
        try:
            if node.kind is NodeKind.MCP_SERVER:
                actions = [_mcp_action(node, mcp_existing, mcp_why, force)]
            else:
                files, note = _component_files(node)
                actions = [_file_action(root, f, force) for f in files]
        except UnsafePathError as exc:
            plans.append(
                ComponentPlan(
                    node.id, node.kind.value, node.name, "refused", reason=str(exc), required_by=via
                )
            )
            continue
        except InstallError as exc:
            plans.append(
                ComponentPlan(
                    node.id, node.kind.value, node.name, "skipped", reason=str(exc), required_by=via
                )
            )
            continue
        for i, a in enumerate(actions):
            owner = claimed.setdefault(a.path, node.id)
            if owner != node.id:
                actions[i] = replace(a, action="blocked", reason=f"{owner} installs the same path")
        plans.append(
            ComponentPlan(
                node.id, node.kind.value, node.name, _status(actions), tuple(actions), note, via
            )
        )
    return InstallPlan(root, tuple(plans), closure.cycles if closure is not None else ())


def resolve_id(index: Index, ref: str) -> str:
    """A node id, or the id of the one installable component with that name.

    Raises:
        InstallError: Nothing, or several components, answer to ``ref``.
    """
    if ref in index:
        return ref
    named = [n for n in index.nodes_named({ref.casefold()}) if n.kind in INSTALLABLE]
    if len(named) == 1:
        return named[0].id
    if not named:
        raise InstallError(
            f"no component {ref!r} in the index at {index.path}; use an id from `query`"
        )
    listing = ", ".join(n.id for n in named[:5])
    raise InstallError(f"{len(named)} components are named {ref!r} ({listing}); give the id")


# -- writing ------------------------------------------------------------------------------
def _write_atomic(dest: Path, content: bytes, mode: int) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content)
        os.chmod(tmp, mode)
        os.replace(tmp, dest)  # replaces a path, never follows a link at dest
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def apply_plan(plan: InstallPlan) -> InstallPlan:
    """Write what ``plan`` says (components with status install); returns it as applied.

    Every destination is checked again right before writing.
    """
    root = plan.target
    root.mkdir(parents=True, exist_ok=True)
    mcp_updates: dict[str, Mapping[str, Any]] = {}
    for c in plan.components:
        if c.status != "install":
            continue
        for f in c.files:
            if f.action not in ("create", "overwrite"):
                continue
            if f.mcp_entry is not None:
                mcp_updates[f.path.split("#", 1)[1]] = f.mcp_entry
            else:
                _write_atomic(safe_destination(root, f.path), f.content, f.mode)
    if mcp_updates:
        data, why = _read_mcp_file(root)
        if data is None:
            raise InstallError(why)
        servers = dict(data.get("mcpServers", {}))
        servers.update(mcp_updates)
        data = {**data, "mcpServers": servers}
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        _write_atomic(safe_destination(root, MCP_FILE), text.encode(), 0o644)
    return replace(plan, applied=True)


def install(
    index: Index,
    ids: Iterable[str],
    target: str | Path,
    *,
    force: bool = False,
    dry_run: bool = False,
    with_dependencies: bool = True,
) -> InstallPlan:
    """Plan, and unless ``dry_run``, write ``ids`` and what they require into ``target``."""
    plan = plan_install(index, ids, target, force=force, with_dependencies=with_dependencies)
    return plan if dry_run else apply_plan(plan)


# -- what is installed already ------------------------------------------------------------
def _front_name(path: Path) -> str | None:
    from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter

    try:
        name = parse_frontmatter(path.read_text(encoding="utf-8", errors="replace")).fields.get(
            "name"
        )
    except (OSError, FrontmatterError):
        return None
    return name.strip() if isinstance(name, str) and name.strip() else None


def installed_components(target: str | Path) -> list[InstalledComponent]:
    """The components a target folder already holds, read from its layout."""
    root = Path(target)
    claude = root / CLAUDE_DIR
    found: list[InstalledComponent] = []

    def names(stem: str, fm: str | None) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for n in (stem, fm) if n))

    if (claude / "skills").is_dir():
        for skill in sorted((claude / "skills").glob("*/SKILL.md")):
            found.append(
                InstalledComponent(
                    NodeKind.SKILL,
                    names(skill.parent.name, _front_name(skill)),
                    skill.relative_to(root).as_posix(),
                )
            )
    for folder, kind in (("agents", NodeKind.AGENT), ("commands", NodeKind.COMMAND)):
        if (claude / folder).is_dir():
            for md in sorted((claude / folder).rglob("*.md")):
                found.append(
                    InstalledComponent(
                        kind, names(md.stem, _front_name(md)), md.relative_to(root).as_posix()
                    )
                )
    if (claude / "hooks").is_dir():
        for hook in sorted((claude / "hooks").iterdir()):
            if hook.suffix in (".json", ".md") and hook.is_file():
                found.append(
                    InstalledComponent(
                        NodeKind.HOOK, (hook.stem,), hook.relative_to(root).as_posix()
                    )
                )
    data, _ = _read_mcp_file(root) if root.is_dir() else (None, "")
    for server in (data or {}).get("mcpServers", {}):
        found.append(
            InstalledComponent(NodeKind.MCP_SERVER, (str(server),), f"{MCP_FILE}#{server}")
        )
    return found


def match_installed(index: Index, target: str | Path) -> dict[str, str]:
    """Index ids of components installed in ``target`` (same kind and name) -> where."""
    installed = installed_components(target)
    if not installed:
        return {}
    by_key: dict[tuple[NodeKind, str], str] = {}
    for item in installed:
        for name in item.names:
            by_key.setdefault((item.kind, _key(name)), item.path)
    out: dict[str, str] = {}
    for node in index.nodes.values():
        if node.kind in INSTALLABLE:
            where = by_key.get((node.kind, _key(node.name)))
            if where is not None:
                out[node.id] = where
    return out


def _key(name: str) -> str:
    return _SLUG_RE.sub("-", name.strip()).strip("-.").casefold()
