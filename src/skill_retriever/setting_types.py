"""Whether a setting's value has the type `RetrievalConfig` declares, in words a caller
can act on: ``route must be one of smart, ppr, quick (or None for the router's choice)``,
not Python's ``typing.Optional[typing.Literal[...]]``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from skill_retriever.exceptions import ConfigError

__all__ = ["check_type", "literal_word"]

#: What None means for a setting that is otherwise one of a few words (its message says it).
_NONE_MEANS = {"route": "the router's choice", "default_route": "the index's suggestion",
               "fusion": "the index's suggestion"}


def check_type(name: str, value: Any, hint: Any) -> None:
    """Reject wrong-typed settings early with a message naming the setting."""
    import types
    import typing

    origin = typing.get_origin(hint)
    members = typing.get_args(hint) if origin in (typing.Union, types.UnionType) else (hint,)
    if any(_matches(value, h) for h in members):
        return
    choices = _choices(name, members)
    if choices is not None:
        raise ConfigError(f"{name} must be one of {choices}, got {value!r:.60}")
    raise ConfigError(
        f"setting {name!r} has the wrong type: {value!r:.60} is {type(value).__name__}, expected {_type_words(hint)}"
    )


def literal_word(value: Any, hint: Any) -> Any:
    """``value`` as the word a Literal-typed setting spells it, where it differs only in case
    (``"SMART"`` -> ``"smart"``), as the CLI and kinds take words; any other value as given.
    ``Retriever.search(route="Smart")`` and a graph input's ``"route": "SMART"`` were refused
    while ``query --route SMART`` was taken."""
    import types
    import typing

    if not isinstance(value, str):
        return value
    origin = typing.get_origin(hint)
    members = typing.get_args(hint) if origin in (typing.Union, types.UnionType) else (hint,)
    words = [w for m in members if typing.get_origin(m) is Literal for w in typing.get_args(m) if isinstance(w, str)]
    if value in words:
        return value
    return next((w for w in words if w.casefold() == value.casefold()), value)


def _type_words(hint: Any) -> str:
    """``int``, not Python's ``<class 'int'>``; ``Mapping[str, float]``, not its module path."""
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "").replace("collections.abc.", "")


def _choices(name: str, members: tuple[Any, ...]) -> str | None:
    """``smart, ppr, quick (or None for the router's choice)`` for a setting typed as
    Literal words (and maybe None); None for any other type. The words are what a caller
    can act on; ``typing.Optional[typing.Literal[...]]`` is Python's spelling, not theirs."""
    import typing

    words = [str(w) for m in members if typing.get_origin(m) is Literal for w in typing.get_args(m)]
    if not words or not all(typing.get_origin(m) is Literal or m is type(None) for m in members):
        return None
    if type(None) not in members:
        return ", ".join(words)
    return ", ".join(words) + f" (or None for {_NONE_MEANS.get(name, 'the default')})"


def _matches(value: Any, hint: Any) -> bool:
    import typing

    if hint is type(None):
        return value is None
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin is Literal:
        return value in typing.get_args(hint)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is tuple:
        return isinstance(value, tuple) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
        )
    if origin is not None:
        from collections.abc import Mapping as M

        return isinstance(value, M) if origin in (Mapping, M, dict) else isinstance(value, origin)
    return isinstance(value, hint)
