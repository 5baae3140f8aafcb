"""A name that names no component, taken as the file name Claude Code calls one by.

Claude Code names a command by its file: trailofbits/skills' ``commands/ct-check.md``, whose
frontmatter says ``name: trailofbits:ct-check``, is ``/ct-check``, and the plan says so
(`command_folders`); yet ``install ct-check`` found nothing by that name and only offered
``trailofbits:ct-check``. So when no component or plugin is named ``ref`` (case aside, as
names are compared: `CallerView.named`), the visible components whose file is named so
answer: a command's file stem (``attrs["command_stem"]``, else its path's), an agent's,
a skill's folder. One is taken, the plan's note saying which, by id; several are refused,
each said by id, as several of one name are (`by_name.ambiguous`). Uninstall takes the
same name of what is installed (`recorded_file_name`), read from the files the record lists.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from skill_retriever.components.install.errors import shown_ref
from skill_retriever.components.install.inventory import InstallRecord, RecordEntry
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.plan import InstallError, UnknownComponentError
from skill_retriever.model import Node, NodeKind

if TYPE_CHECKING:  # `uninstall` reads no index
    from skill_retriever.components.view import CallerView

__all__ = ["by_file_name", "file_name", "recorded_file_name"]

_SHOWN = 5  # ids said in a refusal
_KINDS = (NodeKind.COMMAND, NodeKind.AGENT, NodeKind.SKILL)


def file_name(node: Node) -> str | None:
    """The file name (no ``.md``) Claude Code knows ``node`` by, a skill's folder's name;
    None for other kinds, or when the index recorded no path."""
    if node.kind not in _KINDS:
        return None
    stem = node.attrs.get("command_stem") if node.kind is NodeKind.COMMAND else None
    if isinstance(stem, str) and stem:
        return stem
    path = node.attrs.get("path")
    if not isinstance(path, str) or not path:
        return None
    file = PurePosixPath(path.split("#", 1)[0])
    return file.parent.name if node.kind is NodeKind.SKILL else file.stem


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
        (n for n in view.nodes.values() if (name := file_name(n)) is not None and name.casefold() == key),
        key=lambda n: n.id,
    )
    if not found:
        return None
    if len(found) == 1:
        node = found[0]
        return node.id, (
            f"no component is named {shown_ref(ref)}; it is the file name of {_what(node)}, the "
            "name Claude Code calls it by: installing that one"
        )
    listed = ", ".join(_what(n) for n in found[:_SHOWN]) + (f" and {len(found) - _SHOWN} more" if len(found) > _SHOWN else "")
    raise UnknownComponentError(
        ref, tuple(n.id for n in found),
        f"no component is named {shown_ref(ref)}, and {len(found)} components have the file name "
        f"{shown_ref(ref)}: {listed}; give the id of the one you want",
    )


def _what(node: Node) -> str:
    return f"{node.kind.value.replace('_', ' ')} {node.name} (id {node.id})"


def _installed_name(entry: RecordEntry) -> str | None:
    """The file name (no ``.md``) of what ``entry`` installed, a skill's folder's name:
    read from its first file below its kind's folder; None for other kinds."""
    kind = NodeKind(entry.kind)
    if kind not in _KINDS:
        return None
    folder = f"{LAYOUT[kind].folder}/"
    for rel in entry.files:
        if rel.startswith(folder):
            below = PurePosixPath(rel.removeprefix(folder))
            return below.parts[0] if kind is NodeKind.SKILL else below.stem
    return None


def recorded_file_name(record: InstallRecord, ref: str) -> tuple[str, str] | None:
    """The one recorded component whose installed file is named ``ref`` (case aside) and
    a note saying so, by id; None when none is.

    Raises:
        InstallError: Several are (each said by id).
    """
    key = ref.casefold()
    if not key.strip():
        return None
    found = sorted(i for i, e in record.components.items() if (n := _installed_name(e)) and n.casefold() == key)
    if not found:
        return None
    said = [f"{record.components[i].kind.replace('_', ' ')} {record.components[i].name} (id {i})" for i in found]
    if len(found) == 1:
        return found[0], (
            f"no component installed is named {shown_ref(ref)}; it is the file name of {said[0]}: "
            "uninstalling that one"
        )
    raise InstallError(
        f"no component installed is named {shown_ref(ref)}, and {len(found)} components installed in "
        f"{record.root} have the file name {shown_ref(ref)}: {', '.join(said[:_SHOWN])}"
        f"{f' and {len(found) - _SHOWN} more' if len(found) > _SHOWN else ''}; give the id of the one you want"
    )
