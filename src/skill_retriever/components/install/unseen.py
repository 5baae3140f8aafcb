"""What a target holds that the caller's view of the index does not show.

Someone who may see more (``secops``) can install a private component into a project
that a caller who may not see it (``alice``) installs into too. Its files are there for
anyone to read, but `match_installed` leaves it out of her view, so the index alone
could neither find that her component conflicts with it nor that it is the component
hers requires.

Both are judged here from what she could read anyway, never from the hidden item's
index entry: the public component's own frontmatter, and the files and names in the
target, the install record among them (what each recorded component declared in its own
``conflicts``: `declared_conflicts`). A target is the caller's to write, so an answer
drawn from the index (a record naming a guessed id) would tell her whether such a hidden
item exists and what it conflicts with; what the record itself says tells her only what
its writer put there. So a component installed by hand, in no source of the index, is
judged alike, and the answer never names it: its name and path would name the hidden item.

- `unseen_conflicts`: a component to install conflicts with one the target holds that no
  visible component accounts for, when its own ``conflicts`` names that one, or that
  one's installed file (its frontmatter) names it, or the install record's entry of it
  does (a hook's or an MCP server's entry in the shared JSON files keeps no
  ``conflicts``, so the record keeps them). One conflict per component, with the other
  side `UNSEEN` (never counted: one line says it, however many there are).
- `installed_names`: the names of everything the target holds (`missing` says a
  requirement of that name is installed there).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from skill_retriever.components.conflicts import UNSEEN, UNSEEN_NAME, Conflict
from skill_retriever.components.install.claude_folder import layout_rel
from skill_retriever.components.install.errors import InstallError
from skill_retriever.components.install.inventory import (
    INSTALLABLE,
    InstallRecord,
    installed_components,
)
from skill_retriever.components.install.layout import LAYOUT, scan_files
from skill_retriever.components.view import CallerView
from skill_retriever.components.written_names import conflict_names, written_conflicts
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.ingest.frontmatter_names import CONFLICTS_KEY
from skill_retriever.ingest.mentions import name_key
from skill_retriever.model import NodeKind

__all__ = ["UNSEEN", "UNSEEN_NAME", "installed_names", "unseen_conflicts"]

_HOOKS_PATH = LAYOUT[NodeKind.HOOK].pattern


def installed_names(root: Path) -> frozenset[str]:
    """The name keys of every component ``root`` holds (files, servers, the install
    record), whatever the index shows of them; none for a folder yet to be made."""
    if not root.is_dir():
        return frozenset()
    return frozenset(name_key(n) for item in installed_components(root) for n in item.names)


def _front(path: Path) -> Mapping[str, Any]:
    try:
        return parse_frontmatter(path.read_text(encoding="utf-8", errors="replace")).fields
    except (OSError, FrontmatterError):  # unreadable: it declares nothing we could read
        return {}


class _Visible:
    """Whether something the target holds is a component the caller's view accounts for:
    matched as installed (`match_installed`: its path), or of a visible kind and name.
    The path of every recorded hook without scripts is one, ``settings.json``'s hooks
    (`RecordEntry.first_path`): a visible hook there says nothing of a hidden one."""

    def __init__(self, view: CallerView, installed: Mapping[str, str]) -> None:
        self.paths = set(installed.values()) - {_HOOKS_PATH}
        self.keys = {(n.kind, name_key(n.name)) for n in view.nodes.values() if n.kind in INSTALLABLE}

    def __call__(self, kind: NodeKind, names: Iterable[str], path: str) -> bool:
        return path in self.paths or any((kind, name_key(n)) in self.keys for n in names)


def unseen_conflicts(
    view: CallerView, ids: Sequence[str], root: Path, installed: Mapping[str, str]
) -> list[Conflict]:
    """A conflict of each of ``ids`` with what ``root`` holds and ``view`` does not show
    (see the module).

    Args:
        installed: What `match_installed` found (the components the view accounts for).
    """
    if not root.is_dir():
        return []
    visible = _Visible(view, installed)
    unseen = {
        name_key(n)
        for item in installed_components(root)
        if not (item.id is not None and view.sees(item.id)) and not visible(item.kind, item.names, item.path)
        for n in item.names
    }
    against: set[str] = set()  # name keys the unseen installed files say they conflict with
    for kind, name, path in scan_files(root):
        front = _front(path)
        own = front.get("name")
        names = [name, *([own] if isinstance(own, str) else [])]
        if not visible(kind, names, layout_rel(root, path)):
            against.update(name_key(n) for n in conflict_names(front.get(CONFLICTS_KEY)))
    recorded = _recorded_against(view, root, visible) - against
    out = []
    for node_id in dict.fromkeys(ids):
        node = view.get(node_id)
        mine = any(name_key(n) in unseen for n in written_conflicts(node))
        theirs = _theirs(node.name, name_key(node.name), against, recorded)
        ask = (f"to install {node.name} here, ask whoever installed the other (or someone who "
               "may see it in the index) to uninstall it first, or install into another project")
        if mine:
            why = f"{node.name}'s own conflicts names the installed one"
            why += f", and {theirs[0]}" if theirs else ""
            out.append(Conflict(node_id, UNSEEN, f"{why}; {ask}"))
        elif theirs:
            out.append(Conflict(UNSEEN, node_id, f"{theirs[0]} {theirs[1]}; {ask}"))
    return out


def _theirs(name: str, key: str, files: set[str], recorded: set[str]) -> tuple[str, str] | None:
    """Where the installed one declares its conflict with ``name`` (None: it does not),
    in two parts: "... names it", "in ...", as a reason line reads them."""
    if key in files:
        return f"the installed one's files name {name}", "in their conflicts"
    if key in recorded:  # no installed file says it: a hook's, a server's (their entries keep none)
        return f"the installed one names {name}", "in its own conflicts (the install record keeps them)"
    return None


def _recorded_against(view: CallerView, root: Path, visible: _Visible) -> set[str]:
    """The name keys that the install record says its components the caller cannot see
    declared in their ``conflicts`` (`declared_conflicts`): a hook's or a server's entry
    keeps none of its own."""
    try:
        record = InstallRecord.load(root)
    except InstallError:  # damaged: `installed_components` reads no entry of it either
        return set()
    return {
        name_key(n)
        for node_id, entry in record.components.items()
        if not view.sees(node_id) and not visible(NodeKind(entry.kind), (entry.name,), entry.first_path)
        for n in entry.conflicts
    }
