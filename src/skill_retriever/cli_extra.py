"""Subcommands that live with their feature (benchmark, install, mcp), registered here so
``cli.py`` stays small. Each feature module exposes ``add_parser(sub, common)``."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import Any

#: module path of each feature that adds a subcommand; missing modules are skipped
#: only while they are being written (ImportError of the module itself).
FEATURES: tuple[str, ...] = (
    "skill_retriever.bench.cli",
    "skill_retriever.components.cli",
)


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    for name in FEATURES:
        module = importlib.import_module(name)
        module.add_parser(sub, common)
