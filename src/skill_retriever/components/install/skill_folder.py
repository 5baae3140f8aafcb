"""The folder a skill is installed in, ``.claude/skills/<folder>/``: the name Claude Code
calls it by.

Claude Code names a skill by its folder (``.claude/skills/pdf-pro/SKILL.md`` is
``/pdf-pro``) and takes as a skill's name lowercase letters, digits and hyphens, at most
64 characters (`claude_name`, by which `claude_names` checks agents' names too). The
folder is the first of these that is such a name:

1. the skill's name (its frontmatter ``name``, as the index holds it): ``name: tidy-writer``
   in ``skills/long-form/`` installs as ``tidy-writer/``;
2. its source folder's name, the folder its ``SKILL.md`` lies in (for a ``SKILL.md`` at the
   top of the folder indexed, that folder's): ``name: PDF Processing Pro`` in
   ``skills/pdf-pro/`` installs as ``pdf-pro/``;
3. a slug of its name: accents dropped, lowercased, each run of other characters than
   ``a-z`` and ``0-9`` one ``-``, trimmed of ``-``, cut to 64 characters (``PDF Processing
   Pro`` in ``PDF Stuff/`` installs as ``pdf-processing-pro/``);
4. else (no letter or digit of ``a-z0-9`` in the name: ``名前``), as every skill was
   installed before this rule: `destination_name` of its name.

Why the name before the folder (1): Claude Code's documentation (the skills page's
frontmatter reference) has ``name`` as the skill's display name, the folder's name when
it is omitted, and the Agent Skills specification asks that the name be its folder's;
installed under a name Claude Code takes, folder and name agree, whichever a tool goes
by, and the skill is called by the name search showed and install was given. A source
folder that differs from such a name (anthropics/skills' ``template/`` says ``name:
template-skill``) is the author's mismatch, which installing there would copy; and
earlier installs used the name, so keeping it moves nothing.

Why the folder before a slug (2): a name Claude Code does not take agrees with no folder,
so the folder is the one the author's repository calls the skill by, which its own text
runs paths below (``.claude/skills/pdf-pro/scripts/split.py``: `skill_path_refs`). A slug
(3) is for a source folder that is no such name either (``PDF Stuff/``, ``pdf_tools/``).
Before, such a skill installed as `destination_name` of its name (``PDF-Processing-Pro/``):
a command with capitals, the name of neither. A skill installed by 2, 3 or 4 says so in
the note on its name (`installed_as`, said by `claude_names.claude_code_notes`): where it
went, and the command Claude Code offers.

A source folder's name is the skill's only where nothing else has it: two skills in
folders of one name (``PDF Tools`` in ``a/pdf/``, ``PDF Helper`` in ``b/pdf/``) would claim
one folder, and the second was refused as a clash. So where another skill of the same
install holds it (by its own name, 1, wherever it stands in the plan, or by its source
folder before it), or the install record has another component's files in it, the skill
goes by a slug of its name (3: ``pdf-helper/``), the note saying whose the folder is;
where the slug is had too, the clash is refused as before (`same_folder`). A name
Claude Code takes (1) is never moved so: two skills of that one name still clash.

Installs recorded under the older folder still uninstall (uninstall takes the record's
files, not this rule); installing such a skill again moves it: the new folder is
written, and the old one's files, unchanged since, are removed (`retired`). Not where
the two differ only in case (``Metasploit-Framework/`` for ``metasploit-framework/``):
one folder on macOS and Windows, so the target's spelling is kept, with a note (`cases`);
``uninstall`` and ``install`` it again to have the new one.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from skill_retriever.components.install.layout import LAYOUT
from skill_retriever.components.install.paths import destination_name
from skill_retriever.model import Node, NodeKind

__all__ = ["MAX_NAME", "SOURCE", "SkillFolder", "claude_name", "installed_as", "skill_folder", "slug", "source_folder"]

MAX_NAME = 64
_NAME_RE = re.compile(r"[a-z0-9-]+")
_OTHER_RE = re.compile(r"[^a-z0-9]+")
#: `SkillFolder.how` of a skill in its source folder's name (2 in the module)
SOURCE = "its source folder's name"


def claude_name(name: str) -> bool:
    """``name`` is one Claude Code takes as a skill's (or an agent's): lowercase letters,
    digits and hyphens, at most `MAX_NAME` characters."""
    return bool(_NAME_RE.fullmatch(name)) and len(name) <= MAX_NAME


@dataclass(frozen=True)
class SkillFolder:
    """Where a skill goes: ``.claude/skills/<name>/``.

    Attributes:
        name: The folder's name.
        how: '' when it is the skill's own name (1 in the module); else what it is,
            in words for the plan's note (``its source folder's name``).
    """

    name: str
    how: str = ""


def slug(name: str) -> str:
    """``name`` as a name Claude Code takes (3 in the module), '' when nothing of it is
    left: ``PDF Processing Pro`` -> ``pdf-processing-pro``, ``Café_Tools`` -> ``cafe-tools``."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return _OTHER_RE.sub("-", plain.lower()).strip("-")[:MAX_NAME].rstrip("-")


def source_folder(node: Node) -> str:
    """The name of the folder ``node``'s ``SKILL.md`` lies in, '' when its path says none
    (a skill of a JSON graph, a skill read from a file of another name)."""
    path = node.attrs.get("path")
    if not isinstance(path, str) or PurePosixPath(path).name.casefold() != "skill.md":
        return ""
    folder = PurePosixPath(path).parent.name
    root = node.attrs.get("source_root")
    if not folder and isinstance(root, str):  # a SKILL.md at the top of the folder indexed
        folder = Path(root).name
    return folder


def skill_folder(node: Node) -> SkillFolder:
    """The folder ``node`` (a skill) installs in (see the module).

    Raises:
        UnsafePathError: None of 1-3 applies and the name is no file name (`destination_name`).
    """
    if claude_name(node.name):
        return SkillFolder(destination_name(node.name))
    folder = source_folder(node)
    if claude_name(folder):
        return SkillFolder(folder, SOURCE)
    if made := slug(node.name):
        return SkillFolder(made, "a slug of its name")
    return SkillFolder(destination_name(node.name), "its name as a file name")


def installed_as(where: SkillFolder) -> str:
    """The words the plan's note on a skill whose name Claude Code does not take ends
    with: where it goes and what Claude Code calls it; '' for one installed by its name."""
    if not where.how:
        return ""
    said = f"it is installed as {LAYOUT[NodeKind.SKILL].folder}/{where.name}/ ({where.how})"
    if not claude_name(where.name):  # 4 in the module: no name Claude Code takes to offer
        return f"{said}: set its frontmatter name to one"
    return f"{said}, so Claude Code offers it as /{where.name}; set its frontmatter name to {where.name} to make the two agree"
