"""The deployment image README describes: ``langgraph dockerfile Dockerfile`` (langgraph-cli,
reading the repo's langgraph.json) writes a Dockerfile that installs torch's CPU build
before it adds the package, so pip never pulls torch's CUDA build as the package's
dependency. The README said the command "prints" the file; it writes it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LANGGRAPH = shutil.which("langgraph")


@pytest.mark.skipif(LANGGRAPH is None, reason="langgraph-cli is not installed")
def test_the_generated_dockerfile_installs_cpu_torch_before_the_package(tmp_path: Path) -> None:
    out = tmp_path / "Dockerfile"
    subprocess.run([str(LANGGRAPH), "dockerfile", str(out)], cwd=REPO, check=True, capture_output=True, timeout=120)
    lines = [line for line in out.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    assert lines[0].startswith("FROM ")
    # the torch the Makefile pins, from PyTorch's CPU index
    assert lines[1].startswith("RUN pip install") and "torch==2.13.0" in lines[1] and "/whl/cpu" in lines[1], lines[1]
    assert any(line.startswith("ADD . /deps/") for line in lines[2:])
