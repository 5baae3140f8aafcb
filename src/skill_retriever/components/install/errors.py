"""The errors of an install (`plan` re-exports them: they were defined there first)."""

from __future__ import annotations

from skill_retriever.exceptions import SkillRetrieverError

__all__ = ["InstallError", "UnknownComponentError", "UnsafePathError"]


class InstallError(SkillRetrieverError):
    """An install cannot start: the target is not a folder, an id is unknown, ..."""


class UnsafePathError(InstallError):
    """A path would leave the target folder or a source root (``..``, absolute, a link)."""


class UnknownComponentError(InstallError):
    """No visible component, or several, answer to a reference.

    Attributes:
        ref: What the caller gave.
        candidates: The ids of the visible components of that name (empty: none).

    ``message``, when given, is the refusal itself: it says what each candidate is.
    """

    def __init__(self, ref: str, candidates: tuple[str, ...] = (), message: str = "") -> None:
        self.ref = ref
        self.candidates = candidates
        if message:
            msg = message
        elif candidates:
            listing = ", ".join(candidates[:5])
            msg = f"{len(candidates)} components are named {ref!r:.200} ({listing}); give the id"
        else:
            msg = (
                f"no component {ref!r:.200} in the index; find ids with "
                '`skill-retriever query "<the task>" --kinds skill,agent,command,hook,mcp_server`'
            )
        super().__init__(msg)
