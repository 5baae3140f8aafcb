"""``dir(skill_retriever)`` lists the package's API although its names load on first use
(PEP 562): it listed ``Any``, ``importlib``, ``sys`` and no ``Retriever`` or ``Index``,
so a notebook's tab completion on ``skill_retriever.`` offered none of them."""

from __future__ import annotations

import subprocess
import sys


def test_dir_lists_every_exported_name_before_any_is_loaded() -> None:
    # A fresh interpreter: in this one, other tests have loaded the names already.
    code = (
        "import sys, skill_retriever as s\n"
        "names = dir(s)\n"
        "assert 'skill_retriever.retriever' not in sys.modules, 'dir() loaded the API'\n"
        "missing = sorted(set(s.__all__) - set(names))\n"
        "assert not missing, missing\n"
        "assert '__version__' in names\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
