"""The skill whose folder holds an item: what a user installs to have it.

A Markdown file inside a skill's folder with a name and a description of its own is an
item (``other``, PART_OF the skill: app-builder's ``templates/python-fastapi/TEMPLATE.md``),
and so is a SKILL.md nested in another skill's folder (``app-builder/templates/SKILL.md``,
``game-development/2d-games/SKILL.md``). Claude Code registers a skill only at ``.claude/skills/<name>/SKILL.md``;
a SKILL.md deeper in that folder is one of the outer skill's files, which it reads by path.
So the skill to name is the outermost one: the PART_OF chain is followed through skills to
the last one the caller may see. A result that said only "python-fastapi [other]" left
the reader to guess it was app-builder's; install named ``templates``, the nested one.
"""

from __future__ import annotations

from skill_retriever.components.view import CallerView
from skill_retriever.model import EdgeKind, Node, NodeKind

__all__ = ["owning_skill", "part_of"]


def owning_skill(view: CallerView, node_id: str) -> Node | None:
    """The outermost skill the caller sees whose folder holds ``node_id``'s file (by PART_OF
    edges between skills), or None when it is part of no skill (a skill of its own, a
    plugin's member, a document)."""
    found: Node | None = None
    seen = {node_id}
    current = node_id
    while True:
        up = [n for e in view.out_edges(current, EdgeKind.PART_OF)
              if (n := view.get(e.target)).kind is NodeKind.SKILL and n.id not in seen]
        if not up:
            return found
        found = min(up, key=lambda n: n.id)  # one folder holds a file: one parent, in practice
        seen.add(found.id)
        current = found.id


def part_of(view: CallerView, node_id: str) -> dict[str, str] | None:
    """`owning_skill` as answers give it (``query --json``, ``get_component``, an install
    plan's component): ``{"id", "name"}``, or None."""
    skill = owning_skill(view, node_id)
    return None if skill is None else {"id": skill.id, "name": skill.name}
