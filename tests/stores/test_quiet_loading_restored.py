"""Loading our model leaves huggingface_hub's and transformers' progress-bar switches as
it found them.

Found by a scale walk: without ``-v`` the load turned both off for the whole process (and
set ``HF_HUB_DISABLE_PROGRESS_BARS=1`` in its environment), so a program's own
transformers downloads and loads after our first query ran without their bars.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest
from transformers.utils import logging as hf_logging

from skill_retriever.stores.quiet_loading import quiet_model_loading

hub_tqdm = importlib.import_module("huggingface_hub.utils.tqdm")  # the module, not its tqdm class

CHECK = """
import json, os
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
SentenceTransformerEmbedder(numpy_queries=False).embed(["deploy a service"])
from huggingface_hub.utils import are_progress_bars_disabled
from transformers.utils import logging as hf_logging
print(json.dumps({
    "hub_disabled": are_progress_bars_disabled(),
    "transformers_enabled": hf_logging.is_progress_bar_enabled(),
    "env": os.environ.get("HF_HUB_DISABLE_PROGRESS_BARS"),
}))
"""


@pytest.fixture
def bars_unasked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HUB_DISABLE_PROGRESS_BARS", raising=False)


@pytest.mark.usefixtures("bars_unasked")
def test_bars_are_off_inside_and_as_before_after() -> None:
    hf_logging.enable_progress_bar()
    hub_tqdm.disable_progress_bars("some.group")  # a user's own named setting survives
    before = dict(hub_tqdm.progress_bar_states)
    with quiet_model_loading():
        assert hub_tqdm.are_progress_bars_disabled()
        assert not hf_logging.is_progress_bar_enabled()
    assert hf_logging.is_progress_bar_enabled()
    assert hub_tqdm.progress_bar_states == before
    assert hub_tqdm.are_progress_bars_disabled("some.group")
    assert not hub_tqdm.are_progress_bars_disabled()
    assert "HF_HUB_DISABLE_PROGRESS_BARS" not in os.environ
    hub_tqdm.enable_progress_bars()


@pytest.mark.usefixtures("bars_unasked")
def test_a_user_who_turned_bars_off_keeps_them_off() -> None:
    hf_logging.disable_progress_bar()
    try:
        with quiet_model_loading():
            pass
        assert not hf_logging.is_progress_bar_enabled()
        assert hub_tqdm.are_progress_bars_disabled()
    finally:
        hf_logging.enable_progress_bar()


@pytest.mark.usefixtures("bars_unasked")
def test_restored_when_the_load_fails() -> None:
    hf_logging.enable_progress_bar()
    with pytest.raises(OSError), quiet_model_loading():
        raise OSError("no model there")
    assert hf_logging.is_progress_bar_enabled()
    assert not hub_tqdm.are_progress_bars_disabled()


@pytest.mark.slow
def test_a_fresh_process_has_its_bars_after_loading_the_bundled_model() -> None:
    env = {k: v for k, v in os.environ.items() if k != "HF_HUB_DISABLE_PROGRESS_BARS"}
    env["HF_HUB_OFFLINE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", CHECK], env=env, capture_output=True, text=True, timeout=300, check=True
    )
    state = json.loads(done.stdout.strip().splitlines()[-1])
    assert state == {"hub_disabled": False, "transformers_enabled": True, "env": None}
