"""The files of a skill's folder that one caller may be shown and sent.

A skill lists the other files of its folder in ``attrs["files"]`` (relative paths), and
installing it copies them. A Markdown file among them with frontmatter is an item of the
index too (its id: the skill's folder, then the path), with ``access`` labels of its own:
a template marked ``access: [alice]`` inside a public skill is private. Listed and copied
for every caller, it was named to, and written into the project of, a caller who may not
see it (found in an MCP walkthrough: a public caller's install wrote the private
template). Such a file is left out for that caller, silently: a count or a note would
say that a private item is there.

A skill nested in the folder (``inner/SKILL.md``) owns the files below its own folder
(``inner/scripts/rotate.sh``), which are no items of their own: when the nested skill is
hidden, they are hidden with it (installing the public skill wrote a private skill's
scripts; `tests/components/test_nested_private_skill_files.py`).
"""

from __future__ import annotations

import posixpath

from skill_retriever.components.view import CallerView
from skill_retriever.model import Node, NodeKind

__all__ = ["hidden_folder_items", "shown_files"]


def hidden_folder_items(view: CallerView, node_id: str, files: list[str]) -> frozenset[str]:
    """Those of ``files`` (a skill's folder files, relative to the folder of ``node_id``)
    that are items of the index ``view`` does not show."""
    folder = posixpath.dirname(node_id)
    nodes = view.snapshot.nodes
    hidden = {
        rel for rel in files if (i := f"{folder}/{rel}" if folder else rel) in nodes and not view.sees(i)
    }
    # a hidden skill's folder is its own: the files below it go with it
    owned = tuple(
        posixpath.dirname(rel) + "/" for rel in hidden
        if posixpath.dirname(rel) and nodes[f"{folder}/{rel}" if folder else rel].kind is NodeKind.SKILL
    )
    if owned:
        hidden.update(rel for rel in files if rel.startswith(owned))
    return frozenset(hidden)


def shown_files(view: CallerView | None, node: Node) -> list[str]:
    """``node``'s folder files (``attrs["files"]``, the text entries) that the caller of
    ``view`` may be shown and sent; all of them when there is no view (the caller sees
    everything)."""
    listed = [f for f in node.attrs.get("files") or [] if isinstance(f, str)]
    if view is None or not listed:
        return listed
    hidden = hidden_folder_items(view, node.id, listed)
    return [f for f in listed if f not in hidden]
