"""``SKILL_RETRIEVER_WARM_UP`` turns the server graph's start-up warm-up off for any of the
false words (0, false, no, off, in any case), not for "0" alone: ``=false`` or ``=off``
warmed up anyway. A value that is neither true nor false is refused at start-up, naming
the variable and the words it takes, rather than read as on."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.adapters import langgraph_server
from skill_retriever.adapters.warm_up_env import WARM_UP_ENV, warm_up_wanted
from skill_retriever.exceptions import ConfigError

GRAPH_FILE = Path(__file__).resolve().parents[2] / "graphs" / "retrieval.py"


def _import_served_graph(monkeypatch: pytest.MonkeyPatch, value: str | None) -> list[Any]:
    """Import graphs/retrieval.py afresh as the server does, the variable set to ``value``;
    the warm-ups it started (recorded, not run)."""
    started: list[Any] = []
    monkeypatch.setattr(langgraph_server, "warm_up_in_background", lambda *a: started.append(a))
    if value is None:
        monkeypatch.delenv(WARM_UP_ENV, raising=False)
    else:
        monkeypatch.setenv(WARM_UP_ENV, value)
    spec = importlib.util.spec_from_file_location("_sr_warm_up_probe", GRAPH_FILE)
    assert spec is not None and spec.loader is not None
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    return started


@pytest.mark.parametrize("value", ["0", "false", "False", "NO", "off", " Off "])
def test_false_words_turn_warm_up_off(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    assert _import_served_graph(monkeypatch, value) == []


@pytest.mark.parametrize("value", [None, "", "1", "true", "YES", "on"])
def test_unset_or_true_words_warm_up(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    assert len(_import_served_graph(monkeypatch, value)) == 1


@pytest.mark.parametrize("value", ["maybe", "disabled", "2", "of"])
def test_other_values_refused_naming_the_words(value: str) -> None:
    with pytest.raises(ConfigError) as err:
        warm_up_wanted(value)
    text = str(err.value)
    assert WARM_UP_ENV in text and repr(value) in text
    assert "0, false, no or off" in text and "1, true, yes or on" in text


def test_served_graph_start_refuses_a_junk_value(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match=WARM_UP_ENV):
        _import_served_graph(monkeypatch, "nope")
