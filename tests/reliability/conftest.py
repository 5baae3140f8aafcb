"""Reliability tests: Hypothesis profiles, the size of the randomised runs, shared fixtures.

Profiles, chosen by the environment variable ``HYPOTHESIS_PROFILE``:

* ``ci`` (default): a few hundred generated inputs in all, fast enough for every run.
* ``full``: at least 10,000 generated inputs in all, 24 kill -9 trials and more
  concurrent load; run it before landing a change to ingestion, the index or the phases:
  ``HYPOTHESIS_PROFILE=full .venv/bin/python -m pytest tests/reliability``.

Each property test asks :func:`examples` for its share; the session ends with a line
that counts the inputs every test generated, so a run reports what it covered.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from reliability_support import GENERATED, PROFILE, build_index

from skill_retriever.stores.index import Index

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=_SLOW_OK, print_blob=True)
settings.register_profile("full", max_examples=1500, deadline=None, suppress_health_check=_SLOW_OK, print_blob=True)
settings.load_profile(PROFILE if PROFILE in ("ci", "full") else "ci")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if GENERATED:
        total = sum(GENERATED.values())
        parts = ", ".join(f"{name} {n}" for name, n in sorted(GENERATED.items()))
        terminalreporter.write_line(
            f"reliability ({PROFILE} profile): {total} generated inputs: {parts}"
        )


def pytest_configure(config: pytest.Config) -> None:
    # The network guard lives in tests/network_guard.py; the top-level conftest loads it
    # for the whole suite. Until it does, load it here for these tests.
    if not config.pluginmanager.has_plugin("network_guard"):
        tests_dir = str(Path(__file__).resolve().parents[1])
        if tests_dir not in sys.path:
            sys.path.insert(0, tests_dir)
        import network_guard

        if not config.pluginmanager.is_registered(network_guard):
            config.pluginmanager.register(network_guard, "network_guard")
            network_guard.GUARD.install()


@pytest.fixture(scope="module")
def labelled_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """One small labelled index per module, for tests that only read."""
    index = build_index(tmp_path_factory.mktemp("reliability") / "index")
    yield index
    index.close()
