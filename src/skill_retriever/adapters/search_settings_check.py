"""Checking, when an agent tool is built, the values of what every one of its searches
gets: a bad one failed every call instead, with an error that told the model to fix
arguments it never gave and cannot change (``max_query_chars="5"``, ``rerank="no"``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skill_retriever.config import SETTING_NAMES
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import Filters
from skill_retriever.retriever import Retriever

__all__ = ["check_search_overrides", "check_search_settings"]


def check_search_settings(retriever: Retriever, settings: Mapping[str, Any], where: str) -> None:
    """Refuse a value ``retriever.search`` would refuse at every call, as it refuses it:
    the RetrievalConfig settings through ``retriever.config.override`` (a type, a range,
    a channel name), the ``filters`` and ``principals`` through ``Filters``.

    Args:
        retriever: the retriever the tool searches.
        settings: what every search gets (``langchain_search.tool_settings``' second half).
        where: the builder, named at the head of the message.

    Raises:
        ConfigError: The search's own one-line message, headed by ``where``.
    """
    config = {name: value for name, value in settings.items() if name in SETTING_NAMES}
    try:
        if config:
            retriever.config.override(**config)
        # the retriever's own rule (a principals setting, else the filters', else its own)
        Filters.from_spec(retriever._filter_spec(settings.get("filters"), None, settings.get("principals")))
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None


#: What a search takes beside the RetrievalConfig settings (`Retriever.search`).
_SEARCH_ARGUMENTS = frozenset({"filters", "principals"})


def check_search_overrides(
    retriever: Retriever, overrides: Mapping[str, Any], where: str, taken: Mapping[str, str]
) -> None:
    """:func:`check_search_settings` for a builder whose ``**overrides`` all go to every
    search (``make_bigtool_retrieve``): an unknown name is refused too, in the search's
    words, and so is a setting the builder sets from an argument of its own (``taken``:
    ``{"k": "limit"}``), which failed every call with "got multiple values".

    Raises:
        ConfigError: As :func:`check_search_settings`, headed by ``where``.
    """
    if both := sorted(set(taken) & set(overrides)):
        raise ConfigError(f"{where}: {both[0]} is set by {taken[both[0]]}=; leave it out of the settings")
    unknown = {name: value for name, value in overrides.items() if name not in SETTING_NAMES | _SEARCH_ARGUMENTS}
    if unknown:
        try:
            retriever.config.override(**unknown)  # the search's own message, its guess at the name meant
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    check_search_settings(retriever, overrides, where)
