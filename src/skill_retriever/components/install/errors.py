"""The errors of an install (`plan` re-exports them: they were defined there first)."""

from __future__ import annotations

from collections.abc import Sequence

from skill_retriever.advice import Placeholder, Word, command
from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.model import NodeKind
from skill_retriever.shown_value import shown

__all__ = ["InstallError", "UnknownComponentError", "UnknownNamesError", "UnsafePathError", "shown_ref"]

#: What ``install`` takes, so what the advised query searches: `layout.LAYOUT`'s kinds
#: (not imported: `layout` reaches `plan`, which re-exports these errors) and plugins, which
#: install their members (a user who mistyped a plugin was sent to a search that hid it).
_INSTALLS = ",".join(k.value for k in (
    NodeKind.SKILL, NodeKind.AGENT, NodeKind.COMMAND, NodeKind.HOOK, NodeKind.MCP_SERVER, NodeKind.PLUGIN))


def shown_ref(ref: str) -> str:
    """``ref`` quoted for a message: whole when short, else its start and its length."""
    return shown(ref)  # a 100 KB id an agent sent must not come back whole in the error it reads


class InstallError(SkillRetrieverError):
    """An install cannot start: the target is not a folder, an id is unknown, ..."""


class UnsafePathError(InstallError):
    """A path would leave the target folder or a source root (``..``, absolute, a link)."""


class UnknownComponentError(InstallError):
    """No visible component, or several, answer to a reference.

    Attributes:
        ref: What the caller gave.
        candidates: The ids of the visible components of that name (empty: none).
        suggestions: Close names the caller may see and install (`suggest`), best first.

    ``message``, when given, is the refusal itself: it says what each candidate is.
    ``index_dir``: the index searched, which the advised ``query`` then names. ``why``:
    said after "no component X in the index" (what the name came close to).
    """

    def __init__(
        self,
        ref: str,
        candidates: tuple[str, ...] = (),
        message: str = "",
        index_dir: Word | None = None,
        suggestions: Sequence[str] = (),
        why: str = "",
    ) -> None:
        self.ref = ref
        self.candidates = candidates
        self.suggestions = tuple(suggestions)
        find = _find(index_dir)
        if message:
            msg = message
        elif candidates:
            listing = ", ".join(candidates[:5])
            msg = f"{len(candidates)} components are named {shown_ref(ref)} ({listing}); give the id"
        elif not ref.strip():
            msg = f"the component id or name given is empty; give one ({find})"
        elif self.suggestions:
            msg = (f"no component {shown_ref(ref)} in the index{why}; close names: "
                   f"{', '.join(self.suggestions)}; or {find}")
        else:
            msg = f"no component {shown_ref(ref)} in the index{why}; {find}"
        super().__init__(msg)


def _find(index_dir: Word | None) -> str:
    """The advice to search for ids, naming the index searched."""
    query = ["query", Placeholder('"<the task>"'), "--kinds", _INSTALLS]
    return f"find ids with `{command(query, index_dir)}`"


#: Most names that answer to nothing said one by one; the rest are counted (an agent that
#: sent 5,000 made-up ids got a 109,000-character error back into its context).
_NAMED_UNKNOWN = 10


def no_component(unknown: Sequence[tuple[str, Sequence[str]]]) -> str:
    """``no component 'a' (close names: x, y), no component 'b'``: each name given, said
    as one alone is (so an agent's typed name reads alike, private or not there at all);
    past the first ten, how many more."""
    said = ", ".join(
        f"no component {shown_ref(ref)}" + (f" (close names: {', '.join(names)})" if names else "")
        for ref, names in unknown[:_NAMED_UNKNOWN]
    )
    more = len(unknown) - _NAMED_UNKNOWN
    return said + (f", and {more:,} more name(s) that answer to nothing" if more > 0 else "")


class UnknownNamesError(UnknownComponentError):
    """Several names given answer to nothing: each is said, with its close names, in one
    line, so that one run shows every typo (``ref`` and ``suggestions`` are the first's).

    Attributes:
        unknown: Each name given and its close names, in the order given.
    """

    def __init__(self, unknown: Sequence[tuple[str, Sequence[str]]], index_dir: Word | None = None) -> None:
        self.unknown = tuple((ref, tuple(names)) for ref, names in unknown)
        offered = "give a close name, or " if any(names for _, names in self.unknown) else ""
        message = f"{no_component(self.unknown)} in the index; {offered}{_find(index_dir)}"
        ref, names = self.unknown[0]
        super().__init__(ref, message=message, index_dir=index_dir, suggestions=names)
