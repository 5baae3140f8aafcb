"""The ids ``uninstall_components`` is given, as the caller may see them. A name that
answers to nothing is told the close names of what is installed in the target that the
caller may see, as ``skill-retriever uninstall`` offers them ("close names installed"):
the tool said only "call search_components", which finds what the index holds, not what
was installed there, and offered no name at all. Every name that answers to nothing is also
told the CLI command that takes back what the target's install record holds: "no component"
alone left an agent unable to undo its own install once the source was indexed again
without it; said whether the record holds the name or not, so a private id still reads as
an unknown one (`tests/adapters/test_mcp_uninstall_close_names.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from skill_retriever.adapters.mcp_arguments import ToolError, checked_ref
from skill_retriever.adapters.mcp_names import unknown_names_said
from skill_retriever.advice import command
from skill_retriever.components.install.errors import (
    InstallError,
    UnknownComponentError,
    UnknownNamesError,
    shown_ref,
)
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.not_installable import NotInstallableError
from skill_retriever.components.install.resolve import resolve_all
from skill_retriever.components.install.suggest import close_among
from skill_retriever.components.install.target import install_root
from skill_retriever.components.view import CallerView

__all__ = ["installed_ids"]

#: The longest name written into the advised command (a longer one is no name: NAME).
MAX_NAMED = 200


def installed_ids(view: CallerView, refs: Sequence[str], target: str) -> list[str]:
    """The node id of each of ``refs`` as ``view``'s caller may see it (an id, or a unique
    name; an item the caller may not see is no component, as one that does not exist).

    Raises:
        ToolError: A ref is empty, or names nothing the caller sees (with the close names
            of what is installed in ``target`` that the caller may see, when there are
            some, else `unknown_names_said`'s words), several things, or an item of a
            kind install has no place for.
    """
    for i, ref in enumerate(refs):
        checked_ref(ref, f"ids[{i}]")
    try:
        return [node_id for node_id, _ in resolve_all(view, refs)]
    except UnknownComponentError as exc:
        if isinstance(exc, UnknownNamesError):
            unknown = [r for r, _ in exc.unknown]
        elif exc.candidates or isinstance(exc, NotInstallableError):  # not a name unknown
            unknown = []
        else:
            unknown = [exc.ref]
        record = _record(target) if unknown else None
        names = _installed_names(view, record)
        close = [(ref, close_among(ref, names)) for ref in unknown]
        said = unknown_names_said(exc, "ids") + _record_hint(unknown, target)
        if any(found for _, found in close):  # the names the caller meant, most likely: only those
            said = ", ".join(
                f"no component {shown_ref(ref)}" + (f" (close names installed: {', '.join(found)})" if found else "")
                for ref, found in close[:10]
            )
            more = f", and {len(close) - 10:,} more name(s) that answer to nothing" if len(close) > 10 else ""
            said = f"{said}{more} installed in {target}; pass a close name as ids"
        raise ToolError(said) from exc


def _record(target: str) -> InstallRecord | None:
    """The install record of ``target`` (None where it cannot be read: the uninstall's
    own refusal names why)."""
    root, _ = install_root(target, False, None, must_exist=True)
    try:
        return InstallRecord.load(root)
    except InstallError:
        return None


def _record_hint(refs: list[str], target: str) -> str:
    """The CLI command that takes back a component ``target``'s install record holds but the
    index no longer shows the caller (its source indexed again without it): this tool reads
    the index and cannot. Said for every name that answers to nothing, whether the record
    holds it or not, so the answer tells nothing of what others installed there or may see
    (a private id reads as an unknown one: `tests/adapters/test_mcp_uninstall_tool.py`)."""
    if not refs:
        return ""
    named = [r for r in dict.fromkeys(refs) if len(r) <= MAX_NAMED][:10] or ["NAME"]
    them = "it" if len(refs) == 1 else "them"
    return (
        f"; if {target}'s install record holds {them} (installed before the source was indexed again "
        f"without {them}), `{command(['uninstall', *named, '--target', target])}` takes {them} back: it reads "
        "the project's install record, not the index"
    )


def _installed_names(view: CallerView, record: InstallRecord | None) -> list[str]:
    """The names of the components and plugins ``record`` holds that ``view``'s caller may see."""
    if record is None:
        return []
    shown = [e.name for i, e in record.components.items() if i in view]
    return shown + [e.name for i, e in record.plugins.items() if i in view]
