"""Safety checks on retrieved text: items that look like instructions to the model.

``scan_node`` and ``scan_text`` load on first use (PEP 562): the CLI's argument parser
imports `safety.terminal` (what may be printed to a terminal), and the injection scanner
behind these names (its phrase lists, about 30 ms) has no part in ``--help``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skill_retriever.safety.injection import scan_node, scan_text

__all__ = ["scan_node", "scan_text"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'skill_retriever.safety' has no attribute {name!r}")
    value = getattr(importlib.import_module("skill_retriever.safety.injection"), name)
    globals()[name] = value  # later lookups skip this function
    return value
