"""Whether models load from local files only: ``HF_HUB_OFFLINE``, set to 1 here when the
caller left it unset (nothing downloads unless asked), read as huggingface_hub reads it
(true for 1, ON, YES or TRUE in any case; anything else, ``off`` and ``0`` among them, is
online). The embedder and the cross-encoder each read it with their own list of false
words, so ``HF_HUB_OFFLINE=off`` meant local files only to them and online to the hub."""

from __future__ import annotations

import os

__all__ = ["hub_offline"]

#: huggingface_hub's ``constants.ENV_VARS_TRUE_VALUES`` (not imported: that costs the hub's import)
_TRUE = frozenset({"1", "ON", "YES", "TRUE"})


def hub_offline() -> bool:
    """True when models must load from local files only. Read per call: huggingface_hub
    reads the variable once, at its import, which may have come before."""
    return os.environ.setdefault("HF_HUB_OFFLINE", "1").upper() in _TRUE
