"""Where a slash command goes below ``.claude/commands``: its namespace folders and its
file name, as ingest recorded them (`ingest.command_places`).

Claude Code names a command by its file (``frontend/component.md`` is ``/component``,
labelled "(project:frontend)" in /help), so the command is written at
``.claude/commands/<namespace>/<stem>.md`` (the user scope the same under the home
folder's ``.claude``):

- each folder of ``attrs["command_namespace"]`` (``"git"``, ``"a/b"``; a plugin's command
  starts with its plugin's name) goes through `destination_name`, as a component's name
  does: an index or a JSON graph may hold anything, and a part that is no safe name
  refuses the component rather than lead anywhere else;
- the file's name is ``attrs["command_stem"]`` (the source file's name without ``.md``),
  not the node's name: a frontmatter ``name: trailofbits:ct-check`` would otherwise
  install as ``trailofbits-ct-check.md``, a command ``/trailofbits-ct-check`` its author
  never wrote; Claude Code calls the file ``ct-check.md`` ``/ct-check``, as in the source.

A command several plugins load (marketplace entries sharing one root) is filed by the index
under the first one's name; installed as a member of another (`shared_commands`), that
name is swapped for the other's.

A node without ``command_namespace`` (an index built before it was recorded, or a JSON
graph) installs flat, as ``.claude/commands/<destination_name of its name>.md``, as it
did before; re-indexing its source files it in its folders.
"""

from __future__ import annotations

from collections.abc import Iterable

from skill_retriever.components.install.paths import destination_name
from skill_retriever.components.install.plan import UnsafePathError
from skill_retriever.ingest.command_places import in_plugin
from skill_retriever.model import Node

__all__ = ["command_name", "first_plugin"]


def first_plugin(names: Iterable[str]) -> str | None:
    """The name of ``names`` that sorts first, case aside (None: none): the plugin whose
    folder a command several installed plugins load goes in, whatever the order they were
    installed in. Here, not in `shared_commands` (which reads the index through a
    `CallerView`): `uninstall` needs it too and must not load the index's stores."""
    return min(names, key=lambda n: (n.casefold(), n), default=None)


def command_name(node: Node, plugin: str | None = None) -> tuple[str, list[str]]:
    """What ``{name}`` stands for in the layout's command path (``"git/commit"``, or
    ``"commit"`` flat), and notes for the plan; ``plugin``: the plugin it is installed as
    a member of, when its folder is to be that one's (`shared_commands`).

    Raises:
        UnsafePathError: A folder or the name is no safe file name, or the recorded
            namespace is not text.
    """
    namespace = node.attrs.get("command_namespace")
    if namespace is None:
        return destination_name(node.name), []
    if not isinstance(namespace, str):
        raise UnsafePathError(
            f"command {node.name!r:.80}: its recorded command_namespace {namespace!r:.80} is "
            "not text; re-index its source"
        )
    if plugin is not None:
        namespace = _under(node, namespace, plugin)
    stem = node.attrs.get("command_stem")
    stem = stem if isinstance(stem, str) and stem else node.name
    folders = [destination_name(part) for part in namespace.split("/")] if namespace else []
    name = destination_name(stem)
    notes = []
    if node.name != stem:
        notes.append(
            f"Claude Code names a command by its file: this one is /{name}, and its "
            f"frontmatter name {node.name!r:.80} is not used"
        )
    return "/".join([*folders, name]), notes


def _under(node: Node, namespace: str, plugin: str) -> str:
    """``namespace`` with the name of the plugin the index filed the command under
    (``attrs["plugin"]``, its first folder) swapped for ``plugin``'s."""
    first = node.attrs.get("plugin")
    if not isinstance(first, str) or first == plugin:
        return namespace
    below = "" if namespace == first else namespace.removeprefix(f"{first}/")
    return in_plugin(below, plugin)[0]
