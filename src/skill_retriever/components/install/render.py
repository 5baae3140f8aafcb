"""What installing one component writes, kind by kind (where: `layout`).

Content comes from the component's source file when it lies inside its source root and
is still on disk (see `paths`); otherwise it is rebuilt from the index: frontmatter and
body for a Markdown component (a skill without its folder gets only SKILL.md), the
recorded ``hooks`` mapping (or the older ``runs`` list) for a hook, the recorded command,
arguments and variable names for an MCP server.

Skills, agents and commands are rendered here (a skill in the folder Claude Code will call
it by: `skill_folder`; a command in its folders below ``.claude/commands``, under its
file's name: `command_folders`); hooks by `render_hook` (their
``settings.json`` entries, scripts and command rewriting), MCP servers by `render_mcp`
(their ``.mcp.json`` entry); the result types are in `rendered`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from skill_retriever.components.folder_files import shown_files
from skill_retriever.components.install.claude_names import claude_code_notes
from skill_retriever.components.install.command_folders import command_name
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.not_installable import memberless_plugin, no_place_message
from skill_retriever.components.install.paths import (
    destination_name,
    read_inside,
    read_source,
    relative_parts,
    source_root_of,
)
from skill_retriever.components.install.plan import Scope, UnsafePathError
from skill_retriever.components.install.private_files import is_private_file, private_file_note
from skill_retriever.components.install.rendered import (
    FileOut,
    Rendered,
    SkipComponent,
    rebuilt_note,
)
from skill_retriever.components.install.skill_folder import SkillFolder, installed_as, skill_folder
from skill_retriever.components.view import CallerView
from skill_retriever.model import EdgeKind, Node, NodeKind

#: `FileOut`, `Rendered` and `SkipComponent` are re-exported: they lived here.
__all__ = ["FileOut", "Rendered", "SkipComponent", "render"]


def render(
    node: Node,
    scope: Scope,
    user_folder: Path | None = None,
    view: CallerView | None = None,
    *,
    with_plugin: bool = False,
    plugin: str | None = None,
    folder: SkillFolder | None = None,
) -> Rendered:
    """What installing ``node`` writes (``user_folder``: a user install's
    ``$CLAUDE_CONFIG_DIR``, whose absolute path its hook commands name, `render_hook`;
    ``view``: the caller's view of the index, where a skip finds what to install instead;
    ``with_plugin``: written as a member of its plugin, which its notes word so, `claude_code_notes`;
    ``plugin``: the plugin whose folder a command goes in, `shared_commands`;
    ``folder``: a skill's folder when not its `skill_folder`, its source folder's being
    another's, `same_folder`).

    Raises:
        UnsafePathError: A name, a source file or a listed file is unsafe (refused).
        SkipComponent: This install has no place for it (skipped, with the reason).
    """
    if node.kind is NodeKind.MCP_SERVER:
        if scope == "user":
            raise SkipComponent(
                "user-scope MCP servers live in ~/.claude.json, which install does not edit; "
                "install it into a project, or add it with `claude mcp add --scope user`"
            )
        from skill_retriever.components.install.render_mcp import (
            render_mcp,  # here: it reads redaction and manifests
        )

        return render_mcp(node)
    if node.kind is NodeKind.HOOK:
        from skill_retriever.components.install.render_hook import (
            render_hook,  # here: it reads hook definitions
        )

        return render_hook(node, scope, user_folder)
    if node.kind is NodeKind.SKILL:  # in the folder Claude Code will call it by (`skill_folder`)
        where = folder or skill_folder(node)
        out = _skill(node, LAYOUT[NodeKind.SKILL].path(where.name), view)
        out.notes += claude_code_notes(
            node.kind, out.files[0].content, with_plugin=with_plugin, installed_as=installed_as(where),
            plugin_agents=_plugin_agents(view, node),
        )
        return out
    if node.kind in (NodeKind.AGENT, NodeKind.COMMAND):
        # A command keeps its folders below commands/ and its file's name (`command_folders`).
        name, named = (
            command_name(node, plugin)
            if node.kind is NodeKind.COMMAND
            else (destination_name(node.name), [])
        )
        found = read_source(node, (".md",))
        out = Rendered(
            [FileOut(LAYOUT[node.kind].path(name), found.data if found else _markdown(node))],
            notes=named,
        )
        if found is None:
            out.notes.append(rebuilt_note(node))
        else:
            out.notes += _frontmatter_note(node)
        out.notes += claude_code_notes(
            node.kind, out.files[0].content, with_plugin=with_plugin, plugin_agents=_plugin_agents(view, node)
        )
        return out
    if node.kind is NodeKind.PLUGIN:  # one with members stands for them (`expand_plugins`)
        raise SkipComponent(memberless_plugin(view, node))
    raise SkipComponent(no_place_message(view, node.name, [node]))  # the words of `resolve_id`


def _frontmatter_note(node: Node) -> list[str]:
    """The note on a source file copied as it is whose frontmatter only the index's lenient
    reading could use (``frontmatter_recovered``): Claude Code parses it as YAML and may
    not read the name and description. It is copied unchanged all the same: the file is
    its author's to fix, and the note says how."""
    reason = node.attrs.get("frontmatter_recovered")
    if not reason:
        return []
    note = (
        f"its frontmatter is not valid YAML ({reason}); Claude Code may not read its name "
        "and description: quote values holding ': '"
    )
    return [note]


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


def _skill(node: Node, main: str, view: CallerView | None) -> Rendered:
    base = posixpath.dirname(main)
    found = read_source(node, ("skill.md",))
    out = Rendered([FileOut(main, found.data if found else _markdown(node))])
    listed = shown_files(view, node)  # a private template of a public skill is not the caller's
    if found is None:
        extra = f"; {len(listed)} folder file(s) not copied" if listed else ""
        out.notes.append(f"SKILL.md {rebuilt_note(node)}{extra}")
        out.complete = not listed
        return out
    out.notes += _frontmatter_note(node)
    root = source_root_of(node)
    assert root is not None  # read_source reads nothing without one
    folder = found.path.parent
    real_folder = folder.resolve()
    for rel in listed:
        parts = relative_parts(rel, f"file of skill {node.name!r}")
        src = folder.joinpath(*parts)
        if not src.resolve().is_relative_to(real_folder):
            raise UnsafePathError(f"{rel} of skill {node.name!r} leads outside its folder")
        if rel.lower() == "skill.md":
            continue
        if is_private_file(rel):  # a key of whoever indexed it: never into a project's .claude/
            out.notes.append(private_file_note(rel))
            continue
        got = read_inside(src, root, f"{rel} of skill {node.name!r}")
        if got is None:
            out.notes.append(f"{rel} not copied: not on disk")
            out.complete = False
        else:
            out.files.append(FileOut(f"{base}/{'/'.join(parts)}", got.data, got.mode))
    return out


def _plugin_agents(view: CallerView | None, node: Node) -> dict[str, list[str]]:
    """The agents of each plugin ``node`` is part of, by plugin name (as the caller may
    see them): what its text may name through the plugin (`claude_names.namespaced_mentions`)."""
    if view is None:
        return {}
    plugins = (view.get(e.target) for e in view.out_edges(node.id, EdgeKind.PART_OF))
    return {
        p.name: [m.name for e in view.in_edges(p.id, EdgeKind.PART_OF) if (m := view.get(e.source)).kind is NodeKind.AGENT]
        for p in plugins
        if p.kind is NodeKind.PLUGIN
    }
