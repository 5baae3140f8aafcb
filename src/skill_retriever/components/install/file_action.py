"""What an install does with one file it would write, given what the target holds there.

An existing file that differs is kept without ``force`` (an identical one is
"unchanged"), unless it is what an earlier install of the same component wrote there,
unchanged since: a new version updates it. The plan line says which of the user's files
it is: one no install wrote "exists and differs"; one an install wrote and the user edited
since is "changed since it was installed", and is blocked only when this version differs
from the one installed: when it is that one, nothing is updated and the file is
"unchanged", the user's edit theirs. ``force`` overwrites either, and the line says
where the user's copy goes (`inventory.backup_path`, as `replaced.keep_file` keeps it),
for uninstall to put back. What another installed component wrote, exactly, is refused,
force or not (`theirs`). Paths that differ only in case are one path (`cases`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from skill_retriever.advice import Word, command
from skill_retriever.components.install.cases import CaseFolders, case_note
from skill_retriever.components.install.component_plan import Action, FileAction
from skill_retriever.components.install.errors import UnsafePathError
from skill_retriever.components.install.inventory import backup_path, sha256
from skill_retriever.components.install.layout import RECORD_FILE, reserved_reason
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.rendered import FileOut

__all__ = ["SERVER_KEPT", "file_action", "joined", "theirs"]

#: Why a forced server entry is no loss: `replaced.keep_server` records the user's entry.
SERVER_KEPT = f"your entry is kept in {RECORD_FILE}; uninstall puts it back"
#: A file the user edited after an install of this component wrote it.
CHANGED = "changed since it was installed"
#: Such a file, when this version is the one installed: left as the user made it.
YOURS = f"yours, {CHANGED} (this version is the one installed then: nothing to update)"

#: Who recorded a path (any content): their name and id, or None.
Writer = Callable[[str], tuple[str, str] | None]


def file_action(
    root: Path,
    f: FileOut,
    force: bool,
    cases: CaseFolders,
    ours: Mapping[str, str],
    owner: Callable[[str, str], tuple[str, str] | None],
    where: Sequence[Word],
    writer: Writer = lambda _: None,
) -> FileAction:
    """What happens to ``f``, at the target's spelling of its path (`cases`): see the
    module. ``ours``: path -> SHA-256 an earlier install of this component recorded;
    ``owner``: another recorded component that wrote exactly that content there;
    ``writer``: another recorded component that wrote the path, whatever it holds now."""
    spelled = cases.spellings(f.rel)
    if len(spelled) > 1:
        why = (
            f"the target holds {' and '.join(spelled)}, which differ from it only in case; "
            "macOS and Windows cannot tell them apart: remove or rename all but one"
        )
        return FileAction(f.rel, "refused", why)
    rel = spelled[0]
    reserved = reserved_reason(rel)
    if reserved:
        return FileAction(rel, "refused", reserved)
    note = case_note(f.rel, rel) if rel != f.rel else ""
    try:
        dest = safe_destination(root, rel)
    except UnsafePathError as exc:
        return FileAction(rel, "refused", str(exc))
    if dest.exists() and not dest.is_file():
        return FileAction(rel, "refused", joined("exists and is not a regular file", note))
    if not dest.exists():
        return FileAction(rel, "create", note, content=f.content, mode=f.mode)
    try:
        held = dest.read_bytes()
    except OSError as exc:
        why = f"cannot read the existing file: {exc.strerror or exc}"
        return FileAction(rel, "refused", joined(why, note))
    if held == f.content:
        return FileAction(rel, "unchanged", note, content=f.content, mode=f.mode)
    digest = sha256(held)
    if ours.get(rel) == digest:
        why = joined("updates what an earlier install of it wrote, unchanged since", note)
        return FileAction(rel, "overwrite", why, content=f.content, mode=f.mode)
    if (other := owner(rel, digest)) is not None:
        return FileAction(rel, "refused", joined(theirs(other, "wrote", where), note), content=f.content, mode=f.mode)
    if ours.get(rel) == sha256(f.content) and not force:
        # The user edited what this very version installed: nothing to update, and their
        # edit is theirs (force puts the installed version back, keeping their copy).
        return FileAction(rel, "unchanged", joined(YOURS, note), content=f.content, mode=f.mode)
    by = writer(rel)
    what = CHANGED if rel in ours else f"changed since {by[0]} ({by[1]}) installed it" if by else "exists and differs"
    action: Action = "overwrite" if force else "blocked"
    why = f"{what}; {_kept_copy(root, rel, held)}" if force else f"{what}; force overwrites it"
    return FileAction(rel, action, joined(why, note), content=f.content, mode=f.mode)


def _kept_copy(root: Path, rel: str, held: bytes) -> str:
    """Where ``force`` keeps the user's file it overwrites (`replaced.keep_file`), and
    where the copy kept there before goes, when it is another version."""
    backup = backup_path(rel)
    try:
        there = safe_destination(root, backup)
        earlier = there.is_file() and there.read_bytes() != held
    except (UnsafePathError, OSError):  # said by the real run, which checks it again
        earlier = False
    aside = f" (the copy kept there before is moved aside, to {backup}.~N~)" if earlier else ""
    return f"your copy goes to {backup}{aside}; uninstall puts it back"


def theirs(other: tuple[str, str], did: str, where: Sequence[Word]) -> str:
    """Why a file or server that another installed component put there is refused, force
    or not: force keeps no copy of what an install wrote, so it would be gone for good,
    and uninstalling either component would then leave the other's record wrong (the one
    that stays would claim a file it did not write)."""
    name, node_id = other
    return (f"holds what the installed {name} ({node_id}) {did}; uninstall it first "
            f"(`{command(['uninstall', node_id, *where])}`), then install this")


def joined(why: str, note: str) -> str:
    return f"{why} ({note})" if note else why
