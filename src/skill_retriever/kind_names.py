"""Item kinds as callers name them: read in any case, a near miss or plural named with the
kind it most likely means, and the error every entry point gives for a kind no item could
match (`check_kinds`). `filters.Filters` reads its kinds through these, as do the agent
tool's and the MCP server's argument checks.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable

from skill_retriever.exceptions import ConfigError
from skill_retriever.model import NodeKind

__all__ = ["FEW_CHARS", "check_kinds", "kind_guesses", "kind_in_case", "meant_kind", "several_kinds_hint"]


def kind_in_case(name: str) -> str:
    """The item kind ``name`` names in any case (``Agent``, ``MCP_SERVER``), lower-cased as
    kinds are stored; ``name`` as given when it names none, so that a plural (``Skills``) is
    refused, naming the kind it means (`meant_kind`). Every check of a kind reads its case here."""
    lowered = name.lower()
    return lowered if lowered in _KIND_NAMES else name


def meant_kind(name: str) -> str | None:
    """The item kind a name that is none most likely means: a plural (``skills``,
    ``incidents``), another case (``Skill``), a near miss (``mcp-server``), or a name's
    start (``doc``); None when nothing is near. Read silently, ``skills`` would blur the
    item kind with ``index --kind skills``, the source kind, so it is refused with this."""
    names = sorted(k.value for k in NodeKind)
    if len(name) > FEW_CHARS:  # no kind is near; and difflib's work grows with the length
        return None
    stem = name.lower().removesuffix("s")  # skills, incidents; docs, mcp: a name's start
    near = difflib.get_close_matches(stem, names, n=1, cutoff=0.75)
    near = near or [n for n in names if len(stem) >= 3 and n.startswith(stem)][:1]
    return near[0] if near else None


def kind_guesses(bad: Iterable[str]) -> str:
    """`` (did you mean 'skill'?)`` for unknown kinds, naming what each one with a guess
    (`meant_kind`) means; "" when none has one. Every entry point that checks kinds
    (`Filters`, the agent tool's schema) says it alike."""
    guesses = [(b, m) for b in list(bad)[:_FEW] if (m := meant_kind(b)) is not None]  # as many as are shown
    if not guesses:
        return ""
    if len(guesses) == 1:
        return f" (did you mean {guesses[0][1]!r}?)"
    return " (did you mean " + ", ".join(f"{m!r} for {b[:FEW_CHARS]!r}" for b, m in guesses) + "?)"


def several_kinds_hint(bad: Iterable[str]) -> str:
    """How to ask for several kinds, when an unknown one holds a comma: ``kinds="skill,agent"``
    is one kind of that name in Python and in a tool call (the CLI's ``--kinds`` is what
    splits at commas); "" when none does. Every entry point that checks kinds says it alike."""
    joined = next((k for k in bad if "," in k), None)
    if joined is None:
        return ""
    parts = [kind_in_case(p.strip()) for p in joined.split(",") if p.strip()]
    return f"; pass several kinds as a list, e.g. kinds={_few(parts, json.dumps)}, not one comma-separated string"


def check_kinds(kinds: Iterable[str], what: str) -> None:
    """Refuse kinds (read in any case: `kind_in_case`) that no item could match, naming them
    ``what``, the argument the caller gave them as (``filters.kinds``, or ``kinds`` for the
    shortcut ``search(kinds=...)``, `retriever_args.names`).

    Raises:
        ConfigError: ``kinds`` is empty (a caller's slip, not a question) or names no kind.
    """
    given = {kind_in_case(k) for k in kinds}
    if not given:
        raise ConfigError(f"{what} is empty, so nothing could match; leave it out for every kind")
    if bad := sorted(given - _KIND_NAMES):
        raise ConfigError(f"{what}: unknown kind(s) {_few(bad)}; use any of {sorted(_KIND_NAMES)}"
                          f"{kind_guesses(bad)}{several_kinds_hint(bad)}")


#: At most this many unknown values, each cut to `FEW_CHARS`, are echoed in an error: an
#: agent that sent 20,000 of them, or one of 200,000 characters, gets a line, not a page.
_FEW = 5
FEW_CHARS = 60
#: Every item kind's name, as stored (lower case).
_KIND_NAMES = frozenset(k.value for k in NodeKind)


def _few(values: list[str], show: Callable[[list[str]], str] = repr) -> str:
    """``values`` as a list in an error message: the first `_FEW`, each cut to
    `FEW_CHARS` characters, and how many more there are."""
    cut = [v if len(v) <= FEW_CHARS else v[:FEW_CHARS] + "..." for v in values[:_FEW]]
    more = f" and {len(values) - _FEW:,} more" if len(values) > _FEW else ""
    return show(cut) + more
