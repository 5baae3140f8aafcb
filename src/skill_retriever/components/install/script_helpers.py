"""The files a copied hook script uses from beside it, copied beside the copy.

A hook's script often leans on files in its own folder: ``guard.py`` doing
``from rules import RULES`` (``rules.py`` beside it), ``check.sh`` doing
``. "$(dirname "$0")/lib.sh"``, a script reading ``patterns.json`` next to it. Copied
alone to ``.claude/hooks/``, it fails on every call (``ModuleNotFoundError``, ``lib.sh:
not found``), and a PreToolUse guard that fails is protection silently gone. So each
copied script brings the siblings it names, to the same place beside its copy:

- a sibling file whose whole file name (a stem and an extension: ``lib.sh``,
  ``rules.py``, ``config.json``) stands in the script's code, as ``source lib.sh``,
  ``. "$(dirname "$0")/lib.sh"`` or ``open(HERE / "config.json")`` write it (not in a
  comment line: "keep in sync with gate.sh" names another hook's script, not a helper);
- for a Python script, a module it imports by name (``import rules``,
  ``from rules import X``, ``from .rules import X``, ``from . import rules``): the
  sibling ``rules.py``, or the sibling package folder ``rules/`` whole.

Only what the text names is taken, so a hooks folder several hooks share gives each
hook its own helpers and nothing of the others'. The helpers' own helpers are taken
too (one level down), not theirs: a chain any longer is a library, not a script's
helpers. Dotfiles and environment files (``.env``: `private_files`) are never taken;
they hold secrets, not code. A sibling that is a link out of the source root is refused
as a script would be (`read_inside`). The copies are files like the script's, so a
target holding another file at a helper's place is handled as for a script (the
planner's clash handling), and each shows in the plan as a file it creates.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from skill_retriever.components.install.paths import read_inside
from skill_retriever.components.install.private_files import is_private_file
from skill_retriever.components.install.rendered import FileOut

__all__ = ["helper_files"]

#: A file name worth looking for in a script's text: a stem and an extension, no dotfile.
_NAME_RE = re.compile(r"[\w-][\w+-]*(?:\.[\w+-]+)+")
#: ``import a, b as c`` (the modules) or ``from .a.b import x`` / ``from . import a, b``.
_IMPORT_RE = re.compile(
    r"^[ \t]*(?:import[ \t]+(?P<names>[\w., \t]+)"
    r"|from[ \t]+(?P<dot>\.*)(?P<module>\w*)[\w.]*[ \t]+import[ \t]+\(?(?P<members>[\w, \t]+))",
    re.MULTILINE,
)
#: How a whole-line comment starts in the shell, Python and JavaScript.
_COMMENTS = ("#", "//")
#: Folders of a package that are build output, not its code.
_SKIPPED_PARTS = frozenset({"__pycache__"})
#: How many levels below the script are looked at: its helpers and theirs.
_DEPTH = 2


def helper_files(src: Path, dest: str, root: Path) -> list[FileOut]:
    """The siblings script ``src`` (copied to ``dest``) uses, as copies beside ``dest``
    (see the module docstring); none when it names none that exist.

    Raises:
        UnsafePathError: A named sibling resolves outside ``root``.
    """
    folder, place = src.parent, posixpath.dirname(dest)
    found: dict[str, FileOut] = {}
    todo, seen = [src], {src.name}
    for _ in range(_DEPTH):
        named: list[Path] = []
        for script in todo:
            for name in sorted(_named_siblings(script, folder) - seen):
                seen.add(name)
                for path in _files_of(folder / name):
                    rel = path.relative_to(folder).as_posix()
                    got = read_inside(path, root, f"helper {rel} of script {src.name}")
                    if got is not None:
                        found.setdefault(rel, FileOut(posixpath.join(place, rel), got.data, got.mode))
                named += [folder / name] if (folder / name).is_file() else []
        todo = named
    return list(found.values())


def _named_siblings(script: Path, folder: Path) -> set[str]:
    """The names of the files and package folders beside ``script`` that its text names."""
    try:
        text = script.read_text(encoding="utf-8", errors="replace")
        siblings = {p.name: p for p in folder.iterdir()}
    except OSError:
        return set()
    # a comment line naming a file is prose ("keep this in sync with x.sh"), not a use
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(_COMMENTS))
    named = {n for n in _NAME_RE.findall(code) if n in siblings and siblings[n].is_file()}
    if script.suffix == ".py" or (text.startswith("#!") and "python" in text.split("\n", 1)[0]):
        for module in _imported(text):  # both when both are there: which wins is Python's
            if (file := siblings.get(f"{module}.py")) is not None and file.is_file():
                named.add(file.name)
            if (package := siblings.get(module)) is not None and package.is_dir():
                named.add(package.name)
    return {n for n in named if not n.startswith(".") and not is_private_file(n)}


def _imported(text: str) -> set[str]:
    """The top-level module names a Python text imports, relative imports of its own
    folder included (``from .rules import X`` -> ``rules``; ``from . import a`` -> ``a``)."""
    out: set[str] = set()
    for m in _IMPORT_RE.finditer(text):
        if m["names"] is not None:
            out.update(w.split()[0].split(".")[0] for w in m["names"].split(",") if w.split())
        elif len(m["dot"]) > 1:  # from the folder above: no sibling of the script
            continue
        elif m["module"]:
            out.add(m["module"])
        elif m["dot"]:  # from . import a, b: each a module of the folder
            out.update(w.split()[0] for w in m["members"].split(",") if w.split())
    return out


def _files_of(path: Path) -> list[Path]:
    """``path`` itself, or every file of the package folder it is (build output left out)."""
    if not path.is_dir():
        return [path]
    return sorted(
        p
        for p in path.rglob("*")
        if p.is_file()
        and not _SKIPPED_PARTS.intersection(p.relative_to(path).parts)
        and not any(part.startswith(".") for part in p.relative_to(path).parts)
        and p.suffix != ".pyc"
    )
