"""The node an install reference names: an id, or a name (`by_name` for several of one
name, `copies` for byte-identical copies, `not_installable` for items install has no
place for, `suggest` for close names when nothing answers)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from skill_retriever.components.install.by_file_name import by_file_name
from skill_retriever.components.install.by_name import (
    Candidate,
    ambiguous,
    candidates,
    plugin_note,
    plugin_over_members,
)
from skill_retriever.components.install.copies import copies_note, same_copies
from skill_retriever.components.install.errors import UnknownNamesError, shown_ref
from skill_retriever.components.install.not_installable import NotInstallableError, no_place_message
from skill_retriever.components.install.plan import UnknownComponentError
from skill_retriever.components.install.plugin_entry import same_marketplace
from skill_retriever.components.install.suggest import close_names
from skill_retriever.components.view import CallerView, as_view

if TYPE_CHECKING:
    from skill_retriever.stores.index import Index

__all__ = ["resolve", "resolve_all", "resolve_id"]


def resolve(view: CallerView, ref: str) -> tuple[str, str]:
    """The visible node ``ref`` names and a note when a name chose among several: the
    plugin over its own members of that name, or the first of byte-identical copies. A
    plugin may be named as Claude Code names it, ``<plugin>@<marketplace>``; a name no
    component has may be the file name of one (`by_file_name`: ``ct-check``).

    Raises:
        UnknownComponentError: Nothing answers to ``ref`` (close names the caller may
            see in ``suggestions``), or several that are neither (`NotInstallableError`:
            only items install has no place for).
    """
    if ref in view:
        return ref, ""
    found = candidates(view, ref) or _in_marketplace(view, ref)
    if len(found) == 1:
        return found[0].id, ""
    if not found and (by_file := by_file_name(view, ref)) is not None:  # /ct-check: its file's name
        return by_file
    if not found:
        if held := view.named(ref):  # query shows them: say what they are
            raise NotInstallableError(ref, tuple(n.id for n in held), no_place_message(view, ref, held))
        if others := _other_marketplaces(view, ref):  # the name Claude Code gives it, then why not
            why = "; ".join(f"plugin {shown_ref(n)} is of marketplace {shown_ref(m)}" for n, m in others)
            raise UnknownComponentError(ref, index_dir=view.snapshot.path, suggestions=[f"{n}@{m}" for n, m in others],
                                        why=f": {why}, not {shown_ref(ref.rpartition('@')[2])}")
        raise UnknownComponentError(ref, index_dir=view.snapshot.path, suggestions=close_names(view, ref))
    ids = tuple(c.id for c in found)
    plugin = plugin_over_members(found)
    if plugin is not None:
        return plugin.id, plugin_note(ref, plugin, found)
    plugins = any(c.is_plugin for c in found)
    one_kind = not plugins and len({c.kind for c in found}) == 1
    if one_kind and same_copies(view, [view.get(i) for i in ids]):
        return ids[0], copies_note(ref, ids)
    raise UnknownComponentError(ref, ids, ambiguous(ref, found, differ=one_kind))


def _in_marketplace(view: CallerView, ref: str) -> list[Candidate]:
    """The plugin ``ref`` names as Claude Code does, ``<plugin>@<marketplace>``
    (``/plugin install kubernetes-operations@claude-code-workflows``): the visible plugin of
    that name whose marketplace entry is in that marketplace, if one is, each name compared
    case aside; [] otherwise."""
    name, at, market = ref.rpartition("@")
    if not at or not name.strip() or not market.strip():
        return []
    return [c for c in candidates(view, name)
            if c.is_plugin and same_marketplace(view.get(c.id).attrs.get("marketplace"), market)]


def _other_marketplaces(view: CallerView, ref: str) -> list[tuple[str, str]]:
    """Name and marketplace of each visible plugin ``<plugin>@<marketplace>`` names by
    its name only (another marketplace's, as the index records its entry), by id."""
    name, at, market = ref.rpartition("@")
    if not at or not name.strip() or not market.strip():
        return []
    found = [view.get(c.id) for c in candidates(view, name) if c.is_plugin]
    return [(n.name, m) for n in sorted(found, key=lambda n: n.id)
            if isinstance(m := n.attrs.get("marketplace"), str) and m][:5]


def resolve_all(view: CallerView, refs: Sequence[str]) -> list[tuple[str, str]]:
    """`resolve` for each of ``refs``, in order; every name that answers to nothing is
    said in one error (each with its close names), so that one run shows every typo.

    Raises:
        UnknownComponentError: Names that answer to nothing (`UnknownNamesError` when
            several do) before any other refusal; else the first other refusal of `resolve`.
    """
    found: list[tuple[str, str]] = []
    unknown: dict[str, UnknownComponentError] = {}  # by ref: a name given twice is said once
    refused: UnknownComponentError | None = None
    for ref in refs:
        try:
            found.append(resolve(view, ref))
        except UnknownComponentError as exc:
            # several answer, a kind install cannot place, or nothing given: said alone
            plain = not exc.candidates and ref.strip() and not isinstance(exc, NotInstallableError)
            if plain:
                unknown.setdefault(ref, exc)
            elif refused is None:
                refused = exc
    if len(unknown) == 1:
        raise next(iter(unknown.values()))
    if unknown:
        raise UnknownNamesError([(r, e.suggestions) for r, e in unknown.items()], view.snapshot.path)
    if refused is not None:
        raise refused
    return found


def resolve_id(
    source: Index | CallerView, ref: str, *, principals: Iterable[str] | None = None
) -> str:
    """A visible node id, or the id of the one visible installable component (or plugin)
    of that name; of a plugin and its own members of that name, the plugin; of
    byte-identical copies, the first by id (`resolve`, which also says why).

    Raises:
        UnknownComponentError: Nothing, or several components, answer to ``ref``
            (`NotInstallableError`: only items install has no place for).
    """
    return resolve(as_view(source, principals), ref)[0]
