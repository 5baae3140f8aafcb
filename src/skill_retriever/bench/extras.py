"""The ``bench`` extra: what the benchmark needs beyond the retrieval package.

Plotting (matplotlib) and process metrics (psutil) serve the benchmark alone, so they are
declared in an extra (``pip install 'skill-retriever[bench]'``), not as dependencies of
the package. Every use goes through :func:`require`, so a missing one ends with a
message that says what to install, not a bare ``ModuleNotFoundError``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from skill_retriever.exceptions import SkillRetrieverError

INSTALL = "pip install 'skill-retriever[bench]'"
#: The modules the extra provides (top-level import names).
MODULES = ("psutil", "matplotlib")


class BenchExtraMissing(SkillRetrieverError, ImportError):
    """A module of the ``bench`` extra is not installed.

    An :class:`ImportError`, as for any missing optional backend, and a
    :class:`~skill_retriever.exceptions.SkillRetrieverError`, so the command line prints
    its one-line message instead of a traceback.
    """


def require(module: str) -> ModuleType:
    """Import ``module`` from the ``bench`` extra.

    Raises:
        BenchExtraMissing: it is not installed; the message names the install command.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".", 1)[0]
        raise BenchExtraMissing(f"the benchmark needs {top}, which is not installed: {INSTALL}") from exc


def require_all() -> None:
    """Fail before any work when a module of the extra is missing (a run writes plots and
    reads process memory; better to stop now than after minutes of indexing)."""
    for module in MODULES:
        require(module)
