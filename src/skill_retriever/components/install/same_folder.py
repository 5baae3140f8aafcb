"""Skills whose source folders share a name: the second goes by a slug of its name.

A skill whose name Claude Code does not take installs in its source folder's name
(`skill_folder`, 2). Two such skills in folders of one name, ``name: PDF Tools`` in
``a/pdf/`` and ``name: PDF Helper`` in ``b/pdf/``, both claimed ``.claude/skills/pdf/``,
and the second was refused as a clash (`claims`) where, before that rule, each went in a
folder of its own name. So a source folder's name is taken only where nothing else has
it, and a skill whose folder is had goes by a slug of its name (3: ``pdf-helper/``), its
note saying why (`skill_folder.installed_as`). The folder is had:

- in the plan, by a skill whose folder is fixed (its own name, 1, or a slug, 3, or its
  name as a file name, 4), wherever it stands in the plan: a name Claude Code takes is
  never moved for a source folder; or by a skill before it in the plan that took it by
  its source folder;
- in the target, by a component the install record holds under another id: its files
  are there. This keeps installing again from moving anything: the skill that holds
  ``pdf/`` holds it by the record whatever order the next install gives the two in,
  and the other finds it had again, so goes by its slug again, and nothing is written.

A byte-identical ``SKILL.md`` does not have it: that is a copy of the same skill (plugins
re-host skills, `components.dedup`), written once as before (`claims`). Where the slug is
had too (or is the folder's name itself), the skill keeps its source folder and the
clash is refused as before. Two skills whose names Claude Code takes, alike, clash as
before: their folders are their names, and this never moves one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skill_retriever.components.install.inventory import RecordEntry, sha256
from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.paths import fold
from skill_retriever.components.install.plan import Status
from skill_retriever.components.install.rendered import Rendered
from skill_retriever.components.install.skill_folder import SOURCE, SkillFolder, skill_folder, slug
from skill_retriever.model import Node, NodeKind

__all__ = ["set_aside"]

_SKILLS = LAYOUT[NodeKind.SKILL].folder


def _had_in_target(name: str, main: bytes, node_id: str, recorded: Mapping[str, RecordEntry]) -> str:
    """The recorded component, other than ``node_id``, with files in folder ``name``
    (``main``, the skill's ``SKILL.md``, not there: a copy is no other), or ''."""
    below = fold(f"{_SKILLS}/{name}/")
    main_key, ours = f"{below}{fold('SKILL.md')}", sha256(main)
    for other, entry in recorded.items():
        held = {fold(rel): digest for rel, digest in entry.files.items()}
        if other != node_id and any(rel.startswith(below) for rel in held) and held.get(main_key) != ours:
            return entry.name or other
    return ""


def set_aside(
    nodes: Sequence[Node], outs: Sequence[Rendered | tuple[Status, str]], recorded: Mapping[str, RecordEntry]
) -> dict[str, SkillFolder]:
    """Id -> the folder a skill goes in instead of its source folder's name, for each skill
    of the plan whose source folder is had (see the module). ``outs``: what each of ``nodes``
    renders (a skill its `skill_folder`), or why not (a skill refused or skipped has no folder)."""
    skills = [
        (n, skill_folder(n), o.files[0].content)
        for n, o in zip(nodes, outs, strict=True)
        if n.kind is NodeKind.SKILL and isinstance(o, Rendered) and o.files
    ]
    had: dict[str, tuple[bytes, str]] = {}  # folder, folded -> the SKILL.md there and whose
    for n, where, main in skills:
        if where.how != SOURCE:
            had.setdefault(fold(where.name), (main, n.name))

    def by(name: str, main: bytes, node_id: str) -> str:
        there = had.get(fold(name))
        if there is not None and there[0] != main:
            return there[1]
        return _had_in_target(name, main, node_id, recorded)

    moved: dict[str, SkillFolder] = {}
    for n, where, main in skills:
        if where.how != SOURCE:
            continue
        whose = by(where.name, main, n.id)
        made = slug(n.name)
        if whose and made and fold(made) != fold(where.name) and not by(made, main, n.id):
            how = f"a slug of its name: its source folder's name, {where.name}, is {whose}'s here"
            moved[n.id] = where = SkillFolder(made, how)
        had.setdefault(fold(where.name), (main, n.name))
    return moved
