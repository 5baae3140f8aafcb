"""A name that names no component, taken as the file name Claude Code calls one by.

Claude Code names a command by its file: trailofbits/skills' ``commands/ct-check.md``, whose
frontmatter says ``name: trailofbits:ct-check``, is ``/ct-check``, and the plan says so
(`command_folders`); yet ``install ct-check`` found nothing by that name and only offered
``trailofbits:ct-check``. So when no component or plugin is named ``ref`` (case aside, as
names are compared: `CallerView.named`), the visible components whose file is named so
answer: a command's file stem (``attrs["command_stem"]``, else its path's), an agent's,
a skill's folder. One is taken, the plan's note saying which, by id; several are refused,
each said by id, as several of one name are (`by_name.ambiguous`). Uninstall takes the
same names of what is installed (`recorded_file_name`), and an MCP server's name as
``.mcp.json`` holds it: one Claude Code would not take is written otherwise
(``DeepGraph React MCP`` as ``DeepGraph-React-MCP``), the name the user then sees.

One rule for both (`_names`): a component answers to the name of its source file (a
skill's folder) and to the name of the file it installs as. The two differ when the
frontmatter names it otherwise: ``skills/long-form/SKILL.md`` saying ``name: tidy-writer``
installs as ``.claude/skills/tidy-writer/`` (`skill_folder`), ``agents/rev.md`` saying
``name: Code Reviewer`` as ``.claude/agents/Code-Reviewer.md``; install took only the
first name, uninstall only the second, each refusing the name the other took. (A skill
recorded under a folder an older rule chose, ``PDF-Helper/`` for ``name: PDF Helper`` in
``pdf-tools/``, answers to both as well.) Install reads the source name from
the index's path and works out the installed one as `render` does; uninstall reads the
installed one from the files the record lists and the source one from the record's id
(the index's ``<corpus>/<path>`` of a file it read: an id that is no such path, of a JSON
graph, gives none). A skill that installs in its source folder's name answers to the slug
of its name too, the folder it goes in where another skill has that one (`same_folder`:
``install pdf-helper`` after the plan said ``installed as .claude/skills/pdf-helper/``).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from skill_retriever.components.install.command_folders import command_name
from skill_retriever.components.install.errors import shown_ref
from skill_retriever.components.install.inventory import InstallRecord, RecordEntry
from skill_retriever.components.install.layout import LAYOUT, MCP_FILE
from skill_retriever.components.install.paths import destination_name
from skill_retriever.components.install.plan import (
    UnknownComponentError,
    UnsafePathError,
)
from skill_retriever.components.install.skill_folder import SOURCE, skill_folder, slug
from skill_retriever.model import Node, NodeKind

if TYPE_CHECKING:  # `uninstall` reads no index
    from skill_retriever.components.view import CallerView

__all__ = ["by_file_name", "file_names", "recorded_file_name"]

_SHOWN = 5  # ids said in a refusal
_KINDS = (NodeKind.COMMAND, NodeKind.AGENT, NodeKind.SKILL)


def _names(kind: NodeKind, source: str | None, installed: str | None) -> frozenset[str]:
    """The names (case folded) a component of ``kind`` answers to: ``source``, the path of
    the file it was read from (a skill: its folder's name; else the file's, no ``.md``),
    and ``installed``, the name of the file or folder it installs as. None of either adds
    nothing, nor does a source that is no Markdown file (an id that is not its path)."""
    out: set[str] = set()
    file = PurePosixPath(source.split("#", 1)[0]) if source else None
    if file is not None and file.suffix.casefold() == ".md":
        if kind is NodeKind.SKILL:
            name = file.parent.name if file.name.casefold() == "skill.md" else ""
        else:
            name = file.stem
        out.add(name.casefold())
    if installed:
        out.add(installed.casefold())
    out.discard("")
    return frozenset(out)


def file_names(node: Node) -> frozenset[str]:
    """The file names (no ``.md``, case folded) ``node`` answers to (`_names`); none for
    kinds other than a command, an agent or a skill."""
    if node.kind not in _KINDS:
        return frozenset()
    path = node.attrs.get("path")
    stem = node.attrs.get("command_stem") if node.kind is NodeKind.COMMAND else None
    if isinstance(stem, str) and stem:
        path = f"{stem}.md"  # the name Claude Code calls it by, wherever the file lies
    aside = None
    try:
        if node.kind is NodeKind.COMMAND:
            installed = command_name(node)[0]
        elif node.kind is NodeKind.SKILL:
            folder = skill_folder(node)
            installed = folder.name
            # where its source folder is another's, it goes by a slug of its name (`same_folder`)
            aside = slug(node.name) if folder.how == SOURCE else None
        else:
            installed = destination_name(node.name)
    except UnsafePathError:  # a name no file may have: it installs as none (`render` refuses it)
        installed = None
    names = _names(node.kind, path if isinstance(path, str) else None, installed and installed.rsplit("/", 1)[-1])
    return names | {aside.casefold()} if aside else names


def by_file_name(view: CallerView, ref: str) -> tuple[str, str] | None:
    """The one visible component whose file is named ``ref`` and a note saying so, by id;
    None when none is.

    Raises:
        UnknownComponentError: Several are (each said by id, with what it is named).
    """
    key = ref.casefold()  # spaces kept, as the name lookup keeps them: " x" offers "x" (`suggest`)
    if not key.strip():
        return None
    found = sorted(
        (n for n in view.nodes.values() if key in file_names(n)),
        key=lambda n: n.id,
    )
    if not found:
        return None
    if len(found) == 1:
        node = found[0]
        # Claude Code calls a command by its file; a skill or an agent by its frontmatter name
        called = ", the name Claude Code calls it by" if node.kind is NodeKind.COMMAND else ""
        return node.id, (
            f"no component is named {shown_ref(ref)}; it is the file name of {_what(node)}{called}: "
            "installing that one"
        )
    listed = ", ".join(_what(n) for n in found[:_SHOWN]) + (f" and {len(found) - _SHOWN} more" if len(found) > _SHOWN else "")
    raise UnknownComponentError(
        ref, tuple(n.id for n in found),
        f"no component is named {shown_ref(ref)}, and {len(found)} components have the file name "
        f"{shown_ref(ref)}: {listed}; give the id of the one you want",
    )


def _what(node: Node) -> str:
    return f"{node.kind.value.replace('_', ' ')} {node.name} (id {node.id})"


def _recorded_names(node_id: str, entry: RecordEntry) -> frozenset[str]:
    """The file names (`_names`) of what ``entry`` installed: the source's from its id,
    the installed one from its first file below its kind's folder (a skill's folder)."""
    try:
        kind = NodeKind(entry.kind)
    except ValueError:
        return frozenset()
    if kind is NodeKind.MCP_SERVER:  # its key in .mcp.json, which `claude mcp list` shows too
        return frozenset(server.casefold() for server in entry.mcp)
    if kind not in _KINDS:
        return frozenset()
    folder = f"{LAYOUT[kind].folder}/"
    installed = None
    for rel in entry.files:
        if rel.startswith(folder):
            below = PurePosixPath(rel.removeprefix(folder))
            installed = below.parts[0] if kind is NodeKind.SKILL else below.stem
            break
    return _names(kind, node_id, installed)


def recorded_file_name(record: InstallRecord, ref: str) -> tuple[str, str] | None:
    """The one recorded component whose installed file is named ``ref`` (case aside) and
    a note saying so, by id; None when none is.

    Raises:
        UnknownComponentError: Several are (each said by id; their ids as ``candidates``).
    """
    key = ref.casefold()
    if not key.strip():
        return None
    found = sorted(i for i, e in record.components.items() if key in _recorded_names(i, e))
    if not found:
        return None
    said = [f"{record.components[i].kind.replace('_', ' ')} {record.components[i].name} (id {i})" for i in found]
    if len(found) == 1:
        # a server's name as written: one Claude Code would not take (`DeepGraph React MCP`) is another
        where = f"the name of {said[0]} in {MCP_FILE}" if record.components[found[0]].mcp else f"the file name of {said[0]}"
        return found[0], f"no component installed is named {shown_ref(ref)}; it is {where}: uninstalling that one"
    raise UnknownComponentError(ref, tuple(found), (  # the ids as `candidates` too, as install's refusal
        f"no component installed is named {shown_ref(ref)}, and {len(found)} components installed in "
        f"{record.root} have the file name {shown_ref(ref)}: {', '.join(said[:_SHOWN])}"
        f"{f' and {len(found) - _SHOWN} more' if len(found) > _SHOWN else ''}; give the id of the one you want"
    ))
