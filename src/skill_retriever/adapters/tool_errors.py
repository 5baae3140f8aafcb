"""What the ``search_skills`` agent tool (``adapters.langchain``) does with an error its
search raises: the model's to fix, handed back to it; anything else, raised."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from langchain_core.tools import ToolException

from skill_retriever.exceptions import (
    ConfigError,
    InvalidItemError,
    QueryError,
    QueryTooLongError,
    SkillRetrieverError,
)

__all__ = ["BAD_INPUT_ERRORS", "bad_input_to_model"]

#: The errors a caller's arguments cause: the agent tool hands them back to the model to
#: fix. Every other error (a broken index, a bug) still raises.
BAD_INPUT_ERRORS: tuple[type[SkillRetrieverError], ...] = (QueryError, ConfigError, InvalidItemError)


@contextmanager
def bad_input_to_model() -> Iterator[None]:
    """Turn an error the model's arguments caused into a ``ToolException``, which the tool
    (``handle_tool_error=True``) answers with as an error ``ToolMessage`` the model can act
    on, as it answers a schema violation; anything else is not the model's to fix and
    raises out of the agent."""
    try:
        yield
    except QueryTooLongError as exc:  # the limit is the deployment's: the model can only shorten
        raise ToolException(f"Error: {exc.to_agent}") from exc
    except BAD_INPUT_ERRORS as exc:
        raise ToolException(f"Error: {exc}. Fix the arguments and call the tool again.") from exc
