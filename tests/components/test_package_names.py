"""``skill_retriever.components`` offers ``install`` the function beside a subpackage of the
same name, which Python binds there once imported: ``from skill_retriever.components
import ComponentService, install, uninstall`` (the README's names) gave the module, and
calling it raised "'module' object is not callable". Each import order runs in a fresh
interpreter, since the order is the point."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from skill_retriever.stores.index import Index

ORDERS = {
    "service first": "from skill_retriever.components import ComponentService, install, uninstall",
    "install alone": "from skill_retriever.components import install, uninstall",
    "subpackage first": "import skill_retriever.components.install.planner\n"
                        "from skill_retriever.components import install, uninstall",
}


@pytest.mark.parametrize("order", sorted(ORDERS))
def test_install_from_the_package_installs_whatever_was_imported_before(
    sample_index: Index, tmp_path: Path, order: str
) -> None:
    index_dir = str(sample_index.path)
    sample_index.close()
    target = tmp_path / "project"
    script = ORDERS[order] + textwrap.dedent(f"""
        from skill_retriever.stores.index import Index
        index = Index.open({index_dir!r})
        plan = install(index, ["api-reviewer"], {str(target)!r}, with_dependencies=False)
        assert plan.applied and plan.ok, plan.lines()
        assert uninstall(["api-reviewer"], {str(target)!r}).ok
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
