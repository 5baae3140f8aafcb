"""Hugging Face progress bars off while our model loads, as they were after it.

huggingface_hub and transformers keep one process-wide switch each for their progress
bars; turning them off and leaving them so silenced a program's own downloads and model
loads in the same process after our first query. So both are switched for our load only.
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Iterator


def progress_bars_asked_for() -> bool:
    """Whether the user asked to see the bars: ``HF_HUB_DISABLE_PROGRESS_BARS=0`` (the CLI
    sets it with ``-v``). Unset means quiet for our load."""
    setting = os.environ.get("HF_HUB_DISABLE_PROGRESS_BARS")
    return setting is not None and setting.lower() in ("0", "false", "no", "")


@contextlib.contextmanager
def quiet_model_loading() -> Iterator[None]:
    """No "Loading weights" or download bars on stderr during the block unless asked for
    (`progress_bars_asked_for`); both libraries' switches are put back after it."""
    if progress_bars_asked_for():
        yield
        return
    try:
        # Imported before we switch anything: transformers copies huggingface_hub's switch
        # once, at its import, and would keep our "off" for the process.
        # The module: `huggingface_hub.utils.tqdm` as an attribute is its tqdm class.
        hub_tqdm = importlib.import_module("huggingface_hub.utils.tqdm")
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - both come with sentence-transformers
        yield
        return
    hub_before = dict(hub_tqdm.progress_bar_states)
    transformers_before = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # also huggingface_hub's
    try:
        yield
    finally:
        if transformers_before:
            hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]  # untyped upstream
        # The dict itself, not enable/disable calls: those clear every named group's state.
        hub_tqdm.progress_bar_states.clear()
        hub_tqdm.progress_bar_states.update(hub_before)
