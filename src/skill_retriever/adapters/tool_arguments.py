"""Argument types of the tools an agent calls (the MCP server's and the LangChain tool's):
strict where a lax reading would hide a client's bug, lenient only where JSON itself is.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, StrictBool, StrictInt, ValidationInfo
from pydantic_core import PydanticCustomError

__all__ = ["Flag", "WholeNumber", "one_or_several", "whole_number"]


def whole_number(value: object, info: ValidationInfo) -> object:
    """A count from a tool call: an integral float (5.0) becomes 5; a fraction, a boolean
    or text is refused in words that name the argument.

    JSON has one number type, and a client in JavaScript sends 5 as 5.0; refusing that
    would fail a well-meant call. True is not 1 and "5" is not 5: a client that sends
    them has a bug that a silent conversion would hide. Everything else goes on to
    ``StrictInt`` (an int passes, anything else is refused there).

    Raises:
        PydanticCustomError: ``whole_number``, which the SDK reports as the tool's error.
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool):
        got = f"got {str(value).lower()}"
    elif isinstance(value, float):
        got = f"got {value}"
    elif isinstance(value, str):
        got = f"not the text {value[:20]!r}"
    else:
        return value
    name = info.field_name or "the count"
    raise PydanticCustomError("whole_number", f"{name} must be a whole number (a valid integer such as 5), {got}")


#: ``k`` and ``budget``: an int, or an integral float (`whole_number`); never a bool or text.
WholeNumber = Annotated[StrictInt, BeforeValidator(whole_number)]

#: A switch (``dry_run``, ``force``, ...): JSON true or false only. Pydantic's lax bool
#: takes "false", "no", "off" and 0 as false but "yes", "on" and 1 as true: a client that
#: sends text has a bug that must not decide whether files are written.
Flag = StrictBool


def one_or_several(names: list[str]) -> dict[str, object]:
    """The JSON schema of an optional ``kinds`` argument: one of ``names`` as a string, a
    list of them, or null. The validator reads one string as a list of one; a schema that
    said only ``array | null`` kept a model held to it (strict function calling) from
    sending the one string, and made a client that checks arguments refuse it."""
    name = {"type": "string", "enum": names}
    return {"anyOf": [name, {"type": "array", "items": name}, {"type": "null"}]}
