"""The ids ``uninstall_components`` is given, as the caller may see them. A name that
answers to nothing is told the close names of what is installed in the target that the
caller may see, as ``skill-retriever uninstall`` offers them ("close names installed"):
the tool said only "call search_components", which finds what the index holds, not what
was installed there, and offered no name at all (`tests/adapters/test_mcp_uninstall_close_names.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from skill_retriever.adapters.mcp_arguments import ToolError, checked_ref
from skill_retriever.adapters.mcp_names import unknown_names_said
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
        names = _installed_names(view, target) if unknown else []
        close = [(ref, close_among(ref, names)) for ref in unknown]
        if not any(found for _, found in close):
            raise ToolError(unknown_names_said(exc, "ids")) from exc
        said = ", ".join(
            f"no component {shown_ref(ref)}" + (f" (close names installed: {', '.join(found)})" if found else "")
            for ref, found in close[:10]
        )
        more = f", and {len(close) - 10:,} more name(s) that answer to nothing" if len(close) > 10 else ""
        raise ToolError(f"{said}{more} installed in {target}; pass a close name as ids") from exc


def _installed_names(view: CallerView, target: str) -> list[str]:
    """The names of the components and plugins installed in ``target`` that ``view``'s
    caller may see (none where the target holds no record, or one that cannot be read:
    the uninstall itself then says why)."""
    root, _ = install_root(target, False, None, must_exist=True)
    try:
        record = InstallRecord.load(root)
    except InstallError:  # an unreadable record: the uninstall's own refusal names it
        return []
    shown = [e.name for i, e in record.components.items() if i in view]
    return shown + [e.name for i, e in record.plugins.items() if i in view]
