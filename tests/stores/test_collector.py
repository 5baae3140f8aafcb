"""`stores.collector.paused`: no cycle collection in the body, and the collector left as
found after it (an error included); opening an index and the ``query`` command, which
pause it, hand it back on to an in-process caller."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

from skill_retriever import cli
from skill_retriever.stores.collector import paused
from skill_retriever.stores.index import Index


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    gc.enable()
    yield
    gc.enable()


def test_paused_turns_collection_off_then_back_on() -> None:
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError), paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_paused_leaves_a_collector_turned_off_off() -> None:
    gc.disable()
    with paused(), paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_opening_an_index_and_a_query_leave_the_collector_on(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    build_tiny_index(tmp_path / "index").close()
    Index.open(tmp_path / "index").close()
    assert gc.isenabled()
    assert cli.main(["query", "deploy to kubernetes", "--index-dir", str(tmp_path / "index"), "-k", "2"]) == 0
    assert gc.isenabled()
    assert "1." in capsys.readouterr().out
