"""`stores.collector.paused`: no cycle collection in the body, and the collector left as
found after it (an error included); opening an index and the ``query`` command, which
pause it, hand it back on to an in-process caller."""

from __future__ import annotations

import gc
import threading
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


def test_pauses_in_two_threads_nest_and_the_last_out_turns_it_back_on() -> None:
    """A server's reader loading a snapshot while another thread's load is under way: the
    collector stays off till both are done, then is on (each thread noting its own state
    left it on under one's body, or off for good when the one that read "off" left last)."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with paused():
            a_in.set()
            assert b_in.wait(10)
        a_out.set()

    def second() -> None:
        assert a_in.wait(10)
        with paused():
            b_in.set()
            assert a_out.wait(10)
            seen["after the first left"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen == {"after the first left": False}
    assert gc.isenabled()
