"""The Makefile's targets and the notebooks' benchmark commands do what they say: every
phony target has a recipe (``make bench`` printed "Nothing to be done"), and each
``skill-retriever benchmark`` line in a notebook parses with the real command line."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from skill_retriever.bench.sections import NAMES
from skill_retriever.cli import _parser

ROOT = Path(__file__).resolve().parents[1]
MAKEFILE = ROOT / "Makefile"

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def phony_targets() -> list[str]:
    found = re.search(r"^\.PHONY:(.*)$", MAKEFILE.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None, "the Makefile declares its phony targets"
    return found.group(1).split()


def dry_run(*args: str) -> str:
    # -n prints the recipe and runs nothing; `install` shows up only when .venv is stale.
    out = subprocess.run(
        ["make", "-n", "-C", str(ROOT), *args], check=False, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout + out.stderr


@needs_make
@pytest.mark.parametrize("target", [t for t in phony_targets() if t != "install"])
def test_every_phony_target_has_a_recipe(target: str) -> None:
    # `install` is left out: it only names the .venv stamp, and has nothing to do once built.
    assert "Nothing to be done" not in dry_run(target)


@needs_make
def test_bench_targets_run_the_benchmark() -> None:
    quick = dry_run("bench-quick")
    assert ".venv/bin/skill-retriever benchmark --quick --out bench-out/quick" in quick
    full = dry_run("bench")
    assert ".venv/bin/skill-retriever benchmark --out bench-out/full" in full
    assert "HYPOTHESIS_PROFILE=full .venv/bin/python -m pytest" in dry_run("test-full")


def benchmark_lines() -> list[str]:
    lines = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            lines += [ln.split("#")[0].strip() for ln in cell.source.splitlines()
                      if ln.strip().startswith("skill-retriever benchmark")]
    return lines


def test_notebook_benchmark_commands_parse() -> None:
    lines = benchmark_lines()
    assert lines, "the walk-through shows how to run the benchmark"
    for line in lines:
        args = _parser().parse_args(shlex.split(line)[1:])
        assert args.command == "benchmark"
        assert set((args.only or "").split(",")) - {""} <= set(NAMES), line

