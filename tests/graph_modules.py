"""The modules under ``graphs/``, imported by path as LangGraph Server does: a helper for
the tests of those graphs (tests/ and tests/adapters/ alike)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

GRAPHS = Path(__file__).resolve().parents[1] / "graphs"


def load_graph_module(name: str) -> ModuleType:
    """``graphs/<name>.py``, imported once a session: later calls get the same module."""
    module_name = f"_sr_graphs_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, GRAPHS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
