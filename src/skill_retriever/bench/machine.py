"""What a benchmark result was measured on: threads, the machine and the code version."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from skill_retriever.bench.extras import require


def limit_threads() -> str:
    """Single-threaded BLAS, and a line that says how it was done.

    README "Threading": on 2 cores numpy's and torch's pools fight (a dense query took 32-44 ms
    with defaults, 12 ms with ``OPENBLAS_NUM_THREADS=1``). Set before numpy loads when
    possible, else through threadpoolctl.
    """
    env = os.environ.get("OPENBLAS_NUM_THREADS")
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        return f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']} (set before numpy loaded)"
    if env == "1":
        return "OPENBLAS_NUM_THREADS=1 (set before numpy loaded)"
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(1, user_api="blas")
        return "BLAS limited to 1 thread with threadpoolctl (numpy was loaded first)"
    except ImportError:
        return "numpy was loaded before the benchmark; BLAS threads left as they were"


def code_version() -> dict[str, Any]:
    """The git commit of the package's checkout and whether it had local changes (read-only)."""
    root = Path(__file__).resolve().parents[3]
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=False).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return {"commit": None}
    return {"commit": commit or None, "local_changes": bool(dirty)}


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:  # not Linux: platform.processor() below
        pass
    return ""


def machine_info(threads: str) -> dict[str, Any]:
    """CPU, cores, memory, load and thread settings, stamped on every result.

    Raises:
        BenchExtraMissing: psutil (the ``bench`` extra) is not installed.
    """
    psutil = require("psutil")
    try:
        import torch

        torch_threads: int | None = torch.get_num_threads()
    except ImportError:  # pragma: no cover - sentence-transformers brings torch
        torch_threads = None
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu": _cpu_name() or platform.processor(),
        "cores": os.cpu_count(),
        "ram_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "load_avg_at_start": [round(x, 2) for x in os.getloadavg()],
        "threads": threads,
        "torch_threads": torch_threads,
    }


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MiB (Linux reports KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def rss_mb() -> float:
    """This process's resident memory now, in MiB (psutil)."""
    return float(require("psutil").Process().memory_info().rss / 2**20)
