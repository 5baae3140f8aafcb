"""Whether models load offline reads ``HF_HUB_OFFLINE`` as huggingface_hub itself does
(true for 1, ON, YES, TRUE in any case): ``HF_HUB_OFFLINE=off`` meant offline to the
embedder and the cross-encoder (local files only) and online to the hub, so a user who
set it to fetch a model got "not in the cache"."""

from __future__ import annotations

import pytest
from huggingface_hub.constants import ENV_VARS_TRUE_VALUES

from skill_retriever.stores.hub_offline import hub_offline


@pytest.mark.parametrize("value", ["1", "ON", "yes", "True", "0", "off", "no", "false", "n", ""])
def test_read_as_the_hub_reads_it(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", value)
    assert hub_offline() is (value.upper() in ENV_VARS_TRUE_VALUES)


def test_unset_is_offline_and_set_for_the_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    assert hub_offline() is True
    assert os.environ["HF_HUB_OFFLINE"] == "1"  # the hub, imported later, reads it too
