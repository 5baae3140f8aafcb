"""An ``.mcp.json`` server the user only filled in, as install asked.

Install notes each value of a server entry its author left to fill in (``YOUR_API_KEY``,
``postgresql://user:password@localhost/db``, VS Code's ``${input:...}``: `render_mcp`)
and tells the user to set it in ``.mcp.json``. Doing so is no change of the user's own:
uninstall counts such a server as unchanged and removes it, naming the values the user
set (`UninstallReport.filled`); any other change keeps it. Which values were placeholders
is judged again from the entry the record holds as written, by install's own rules, so an
install recorded before this rule existed is judged alike.

Install again reads it the same way: the same server with values the user filled in is
unchanged, and a new version of it keeps those values where it asks for the very same
placeholder (`carried`).
"""

from __future__ import annotations

from typing import Any

from skill_retriever.components.install.placeholders import Spot, placeholder_spots

__all__ = ["carried", "filled_in"]

#: Stands for a placeholder's value in both entries compared, whatever each holds there.
_ANY = object()


def filled_in(written: dict[str, Any], now: Any) -> list[str] | None:
    """The placeholder values of ``written`` (the entry install wrote) that ``now`` (the
    entry in ``.mcp.json`` today) holds another value for, named as the report says them
    (``env POSTGRES_CONNECTION_STRING``, ``url``, ``args[2]``); ``[]`` when ``now`` is
    ``written``; None when ``now`` differs anywhere else (a key added or removed included:
    then it is the user's change, and uninstall keeps it)."""
    if now == written:
        return []
    if not isinstance(now, dict):
        return None
    spots = placeholder_spots(written)
    if not spots or _masked(now, spots) != _masked(written, spots):
        return None
    return [_label(s) for s in spots if _at(now, s) != _at(written, s)]


def _masked(entry: dict[str, Any], spots: list[Spot]) -> dict[str, Any]:
    """A copy of ``entry`` with each of ``spots`` it holds set to `_ANY` (a spot it lacks
    stays missing: a placeholder the user deleted is a change)."""
    out = dict(entry)
    for spot in spots:
        if len(spot) == 1:
            if spot[0] in out:
                out[spot[0]] = _ANY
            continue
        field, key = spot[0], spot[1]
        inner = out.get(field)
        if isinstance(inner, list) and isinstance(key, int) and key < len(inner):
            out[field] = [_ANY if i == key else v for i, v in enumerate(inner)]
        elif isinstance(inner, dict) and key in inner:
            out[field] = {**inner, key: _ANY}
    return out


def _at(entry: dict[str, Any], spot: Spot) -> Any:
    if len(spot) == 1:
        return entry.get(spot[0])
    inner = entry.get(spot[0])
    key = spot[1]
    if isinstance(inner, list) and isinstance(key, int):
        return inner[key] if key < len(inner) else None
    return inner.get(key) if isinstance(inner, dict) else None


def _label(spot: Spot) -> str:
    if len(spot) == 1:
        return spot[0]
    return f"{spot[0]}[{spot[1]}]" if isinstance(spot[1], int) else f"{spot[0]} {spot[1]}"


def carried(new: dict[str, Any], now: Any, written: dict[str, Any]) -> tuple[dict[str, Any], list[str], list[str]]:
    """``new`` (a new version's entry) with the values the user set in ``now`` for the
    placeholders of ``written`` (the entry an earlier install wrote) where ``new`` holds
    the very same placeholder; the labels of the values carried over, and of those the
    new version has no such placeholder for (their values go: what they filled in may
    mean something else now). Call only where `filled_in` (``written``, ``now``) is not
    None."""
    out = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in new.items()}
    kept: list[str] = []
    dropped: list[str] = []
    new_spots = set(placeholder_spots(new))
    for spot in placeholder_spots(written):
        value = _at(now, spot)
        if value == _at(written, spot):
            continue  # still the placeholder: nothing the user set
        if spot in new_spots and _at(new, spot) == _at(written, spot):
            _put(out, spot, value)
            kept.append(_label(spot))
        else:
            dropped.append(_label(spot))
    return out, kept, dropped


def _put(entry: dict[str, Any], spot: Spot, value: Any) -> None:
    """Set ``entry``'s value at ``spot``, which `placeholder_spots` found in it."""
    if len(spot) == 1:
        entry[spot[0]] = value
    else:
        entry[spot[0]][spot[1]] = value
