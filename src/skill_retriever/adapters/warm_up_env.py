"""Whether the served graph warms up at start-up: ``SKILL_RETRIEVER_WARM_UP``.

It was off only for ``0``: ``false``, ``no`` or ``off`` (what a deployment writes for a
switch) warmed up all the same, and a typo read as on. The false and true words are read in
any case, blank or unset is on (the default), and any other value is refused at start-up,
naming the words, rather than guessed."""

from __future__ import annotations

from skill_retriever.exceptions import ConfigError

__all__ = ["WARM_UP_ENV", "warm_up_wanted"]

WARM_UP_ENV = "SKILL_RETRIEVER_WARM_UP"
_OFF = ("0", "false", "no", "off")
_ON = ("1", "true", "yes", "on")


def warm_up_wanted(value: str | None) -> bool:
    """Whether ``value`` (the variable's, None when unset) asks for the warm-up.

    Raises:
        ConfigError: A value that is none of the words.
    """
    word = (value or "").strip().lower()
    if word in _OFF:
        return False
    if not word or word in _ON:
        return True
    raise ConfigError(
        f"{WARM_UP_ENV} must be {', '.join(_OFF[:-1])} or {_OFF[-1]} (no warm-up at start-up) or "
        f"{', '.join(_ON[:-1])} or {_ON[-1]} (warm up: the default), in any case; got {value!r}"
    )
