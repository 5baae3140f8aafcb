"""What the Python `install`, `plan_install` (and `uninstall`) accept, checked before
anything is read or written.

A caller's slip must fail in one line naming the argument, never decide what is written:
``force="no"`` is a true string (it would overwrite the user's files), ``with_dependencies=
"false"`` would add every dependency, and ``target=42`` would become the folder ``./42``.
The MCP tool refuses the same through its schema (`adapters.tool_arguments.Flag`); the
CLI only ever passes booleans and text. A path is checked as `stores.api_args.one_path`
checks one, in its words; an empty target is left to `target.install_root`, which says
what an empty one would mean.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.api_args import one_path

__all__ = ["check_path", "check_source", "check_switches", "ids_given"]


def check_switches(call: str, **switches: object) -> None:
    """Refuse a switch that is not ``True`` or ``False`` (``call``: the function, for the message).

    Raises:
        ConfigError: The first such switch, named, with what it got.
    """
    for name, value in switches.items():
        if not isinstance(value, bool):
            raise ConfigError(
                f"{call}'s {name} must be True or False, not {type(value).__name__} {value!r:.40}"
            )


def check_path(call: str, name: str, value: object) -> None:
    """Refuse a ``target`` or ``home`` that is neither None nor a path of text.

    Raises:
        ConfigError: Not text or an ``os.PathLike`` (`one_path`'s words).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return  # None: not given; empty: `install_root` says what that would mean
    if isinstance(value, (str, os.PathLike)):
        one_path(value, f"{call}'s {name}")
        return
    raise ConfigError(f"{call}'s {name} must be a path (str or os.PathLike), not {type(value).__name__} {value!r:.40}")


def ids_given(call: str, ids: object) -> list[str]:
    """``ids`` as a list: one str is one id (never one per letter), else each must be one.

    Raises:
        ConfigError: Not a str or an iterable of str (a mapping, bytes, a number), named
            by its place (``ids[1]``).
    """
    if isinstance(ids, str):
        return [ids]
    if isinstance(ids, (bytes, Mapping)) or not isinstance(ids, Iterable):
        raise ConfigError(f"{call}'s ids must be an id or a list of ids (str), not {type(ids).__name__}")
    given = list(ids)
    for at, one in enumerate(given):
        if not isinstance(one, str):
            raise ConfigError(f"{call}'s ids[{at}] must be an id (str), not {type(one).__name__} {one!r:.40}")
    return given


def check_source(call: str, source: object) -> None:
    """Refuse a ``source`` that is no index or view (a path given where the index goes).

    Raises:
        ConfigError: Neither a `CallerView` nor anything with a ``snapshot()`` (an `Index`).
    """
    # here, not at the top: `uninstall` checks its arguments here too and opens no index
    from skill_retriever.components.view import CallerView

    if isinstance(source, CallerView) or callable(getattr(source, "snapshot", None)):
        return
    hint = "; open it first: Index.open(path)" if isinstance(source, (str, os.PathLike)) else ""
    raise ConfigError(f"{call}'s source must be an Index or a CallerView, not {type(source).__name__}{hint}")
