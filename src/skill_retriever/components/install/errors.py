"""The errors of an install (`plan` re-exports them: they were defined there first)."""

from __future__ import annotations

from skill_retriever.advice import Placeholder, Word, command
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
    ``index_dir``: the index searched, which the advised ``query`` then names.
    """

    def __init__(
        self, ref: str, candidates: tuple[str, ...] = (), message: str = "", index_dir: Word | None = None
    ) -> None:
        self.ref = ref
        self.candidates = candidates
        if message:
            msg = message
        elif candidates:
            listing = ", ".join(candidates[:5])
            msg = f"{len(candidates)} components are named {ref!r:.200} ({listing}); give the id"
        else:
            query = ["query", Placeholder('"<the task>"'), "--kinds", "skill,agent,command,hook,mcp_server"]
            msg = f"no component {ref!r:.200} in the index; find ids with `{command(query, index_dir)}`"
        super().__init__(msg)
