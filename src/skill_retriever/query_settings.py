"""``query --profile NAME`` and ``--set NAME=VALUE``: the command line's way to the settings
Python reaches with ``Retriever(index, config_for(name, **settings))`` and the LangGraph
server with a run's ``profile``. Without them the query took its own flags only.

A value is read as JSON (``3``, ``false``, ``null``, ``{"keyword": false}``, ``[0.5, 0.3]``),
else as the text it is (``quick``, ``2026-03-01T00:00:00Z``), and checked by
``RetrievalConfig.override``, the one check of every entry point. A setting the command has
a flag for is refused, naming the flag: ``-k`` is also how many distinct entries the folded
answer shows, so ``--set k=3`` beside the default ``-k 10`` would have had two meanings, and
one way to say a thing leaves no order of precedence to learn."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skill_retriever.config import RetrievalConfig

__all__ = ["OWN_FLAGS", "query_settings", "setting_arg"]

#: Settings the query command has a flag for, and filters, which are no settings.
OWN_FLAGS = {
    "k": "-k", "token_budget": "--budget", "budget_fill": "--budget-fill", "route": "--route",
    "rerank": "--no-rerank", "max_query_chars": "--max-query-chars", "clause_coverage": "--clause-coverage",
    "feedback_docs": "--feedback-docs", "multifactor_ranking": "--multifactor-ranking",
}
_FILTER_FLAGS = {"kinds": "--kinds", "tags": "--tags", "since": "--since", "until": "--until", "principals": "--principals"}
_EXAMPLE = "(e.g. --set rrf_k=30)"


def setting_arg(text: str) -> tuple[str, str, Any]:
    """A ``--set`` argument: its name, its text as given, and its value (JSON, else the text)."""
    name, eq, given = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE {_EXAMPLE}, got {text!r}")
    try:
        value = json.loads(given)
    except ValueError:
        value = given
    return name.strip(), given, value


def query_settings(profile: str | None, sets: list[tuple[str, str, Any]] | None) -> RetrievalConfig | None:
    """The settings ``--profile`` and ``--set`` ask for; None when neither is given.

    Raises:
        CommandArgumentError: An unknown profile (with the nearest name), a setting that has
            a flag or is a filter, or one ``override`` refuses, in its words, naming the ``--set``.
    """
    from skill_retriever.config import RetrievalConfig, config_for, unknown_profile
    from skill_retriever.config_profiles import PROFILES
    from skill_retriever.exceptions import CommandArgumentError, ConfigError

    if profile is None and not sets:
        return None
    if profile is not None and profile not in PROFILES:
        raise CommandArgumentError(f"argument --profile: {unknown_profile(profile)}")
    changes: dict[str, Any] = {}
    for name, given, value in sets or []:
        said = f"--set {name}={given}"
        if name in OWN_FLAGS:
            raise CommandArgumentError(f"{said}: {name} has its own flag, {OWN_FLAGS[name]}")
        if name in _FILTER_FLAGS:
            raise CommandArgumentError(f"{said}: {name} is a filter: {_FILTER_FLAGS[name]}")
        try:  # one at a time first, so the error names the --set at fault
            RetrievalConfig().override(**{name: value})
        except ConfigError as exc:
            raise CommandArgumentError(f"{said}: {exc}") from None
        changes[name] = value
    try:  # then together, over the profile (a weight for a channel the profile switched off)
        return config_for(profile or "design", **changes)
    except ConfigError as exc:
        raise CommandArgumentError(f"--profile {profile or 'design'} with --set: {exc}") from None
