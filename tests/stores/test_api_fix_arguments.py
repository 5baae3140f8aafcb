"""The Python API's arguments, as a caller slips: one id or item where a list is taken, a
dict for an item, an empty or odd path, a second handle of this process writing, and
messages raised under ``Index.open`` that must not name only the CLI's ``--index-dir``.

Each runs against a real index (HashingEmbedder) and real sources on disk."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_skill

from skill_retriever.exceptions import (
    ConfigError,
    IndexCorruptError,
    IndexLockedError,
    IndexNotFoundError,
    InvalidItemError,
    MissingNodeError,
)
from skill_retriever.indexing import index_sources
from skill_retriever.model import Edge, EdgeKind, Node
from skill_retriever.sources import remove_source, sources_of
from skill_retriever.stores.embedded_moves import move_index_to_embedded
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.lock import LOCK_FILE
from skill_retriever.stores.server_moves import move_index_to_server


def _node(id_: str) -> Node:
    return Node(id=id_, kind="skill", name=id_, text=f"the text of {id_}")


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    ix = Index.open(tmp_path / "ix", create=True, embedder=HashingEmbedder())
    ix.add([_node(i) for i in ("a", "b", "ab", "m1")])
    yield ix
    ix.close()


# -- (a) one id, one item ------------------------------------------------------------------
def test_one_string_to_delete_is_one_id_not_its_letters(index: Index) -> None:
    report = index.delete("ab")
    assert report.nodes_deleted == 1 and sorted(index.nodes) == ["a", "b", "m1"]
    index.delete("m1")  # its letters ("m", "1") are no ids: this failed "cannot delete 'm'"
    assert sorted(index.nodes) == ["a", "b"]
    with pytest.raises(MissingNodeError, match="cannot delete 'zz'"):
        index.delete("zz")  # one missing id, named whole


def test_one_node_or_edge_is_one_item_for_add_and_upsert(index: Index) -> None:
    index.add(_node("s1"))
    index.upsert(Node(id="s1", kind="skill", name="s1", text="new text of s1"))
    assert index.get("s1").text == "new text of s1"
    index.add((), Edge(source="a", target="s1", kind="DEPENDS_ON"))
    assert "a|DEPENDS_ON|s1" in index.snapshot().edges
    index.delete((), "a|DEPENDS_ON|s1")  # one edge id is one id too
    assert "a|DEPENDS_ON|s1" not in index.snapshot().edges and "a" in index and "s1" in index


def test_a_dict_for_an_item_is_refused_with_its_from_dict(index: Index) -> None:
    raw = {"id": "q", "kind": "skill", "name": "q", "text": "q"}
    for nodes in ([raw], raw):
        with pytest.raises(InvalidItemError, match=r"not a dict; make one a Node with Node\.from_dict\(d\)") as err:
            index.add(nodes)
        assert "\n" not in str(err.value)
    edge = {"source": "a", "target": "b", "kind": "DEPENDS_ON"}
    with pytest.raises(InvalidItemError, match=r"edges\[0\] must be an Edge, not a dict; make one an Edge with Edge\.from_dict"):
        index.upsert([], [edge])
    index.add(Node.from_dict(raw))  # the way the message names works
    index.add((), Edge.from_dict(edge))
    assert "q" in index and "a|DEPENDS_ON|b" in index.snapshot().edges


def test_other_types_are_refused_naming_them_and_nothing_is_written(index: Index) -> None:
    version = index.version
    cases = [
        (lambda: index.upsert("abc"), r"nodes must be a Node or a list of them, not a str"),
        (lambda: index.add([_node("x"), "y"]), r"nodes\[1\] must be a Node, not a str"),
        (lambda: index.delete(5), r"node_ids must be an id or a list of ids \(str\), not an int"),
        (lambda: index.delete(["a", 5]), r"node_ids\[1\] must be an id \(str\), not an int"),
        (lambda: index.delete(index.get("a")), r"node_ids is a Node; pass its id \(node\.id\)"),
        (lambda: index.delete([index.get("a")]), r"node_ids\[0\] is a Node; pass its id"),
        (lambda: index.delete((), [Edge(source="a", target="b", kind="DEPENDS_ON")]), r"edge_ids\[0\] is an Edge; pass its id \(edge\.id\)"),
    ]
    for call, message in cases:
        with pytest.raises(InvalidItemError, match=message):
            call()
    assert index.version == version and "x" not in index and "a" in index


def test_one_string_is_one_embedded_edge_kind(tmp_path: Path) -> None:
    with Index.open(tmp_path / "ix", create=True, embedder=HashingEmbedder(), embedded_edge_kinds="depends_on") as ix:
        assert ix.embedded_edge_kinds == frozenset({EdgeKind.DEPENDS_ON})
    with pytest.raises(InvalidItemError, match="'needs' is not an edge kind; use DEPENDS_ON"):
        Index.open(tmp_path / "ix", embedded_edge_kinds=["needs"])


# -- (b) the path Index.open takes -----------------------------------------------------------
def test_an_empty_path_is_refused_not_read_as_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for path in ("", "  "):
        with pytest.raises(ConfigError, match=r"Index.open's path is empty; give a path \(\".\" for the working folder\)"):
            Index.open(path, create=True, embedder=HashingEmbedder())
    assert list(tmp_path.iterdir()) == []  # no index made in the working folder


@pytest.mark.parametrize(("path", "named"), [(5, "int"), (b"/tmp", "bytes"), (None, "NoneType")])
def test_a_path_of_another_type_is_one_line_naming_it(path: object, named: str) -> None:
    with pytest.raises(ConfigError) as err:
        Index.open(path)  # type: ignore[arg-type]
    assert str(err.value) == f"Index.open's path must be a path (str or os.PathLike), not {named}"


@pytest.mark.parametrize(
    ("wait", "said"),
    [("5", "a number of seconds, not str"), (None, "a number of seconds, not NoneType"),
     (True, "a number of seconds, not bool"), (-1, "0 or more seconds, got -1"),
     (float("nan"), "0 or more seconds, got nan"), (float("inf"), "0 or more seconds, got inf")],
)
def test_a_lock_wait_that_is_no_number_of_seconds_is_refused_at_the_open(index: Index, wait: object, said: str) -> None:
    """Refused in one line before anything is opened, not a TypeError at the first write
    (``'>' not supported between 'float' and 'str'``), nor a wait that never ends (nan:
    no deadline is ever passed) while another handle writes."""
    with pytest.raises(ConfigError) as err:
        Index.open(index.path, lock_wait_s=wait)  # type: ignore[arg-type]
    assert str(err.value) == f"Index.open's lock_wait_s must be {said}"


@pytest.mark.parametrize("switch", ["create", "writable", "use_server"])
@pytest.mark.parametrize(("value", "named"), [("no", "str 'no'"), (0, "int 0"), (None, "NoneType None")])
def test_a_switch_that_is_not_a_bool_is_refused_before_anything_is_made(
    tmp_path: Path, switch: str, value: object, named: str
) -> None:
    """``create="no"`` was read as true and made an index; ``writable`` and ``use_server``
    took anything too. Refused in one line naming the argument, nothing written."""
    with pytest.raises(ConfigError) as err:
        Index.open(tmp_path / "ix", embedder=HashingEmbedder(), **{switch: value})
    assert str(err.value) == f"Index.open's {switch} must be True or False, not {named}"
    assert not (tmp_path / "ix").exists()


@pytest.mark.parametrize("name", ["bundled:all-MiniLM-L6-v2", Path("/models/minilm")])
def test_a_model_name_for_the_embedder_says_to_wrap_it(index: Index, name: object) -> None:
    """``--embedder`` takes a name, Index.open an Embedder: a name was read as one and
    failed with ``AttributeError: 'str' object has no attribute 'name'``."""
    with pytest.raises(ConfigError) as err:
        Index.open(index.path, embedder=name)  # type: ignore[arg-type]
    assert str(err.value) == (
        f"Index.open's embedder takes an Embedder, not the model name {str(name)!r}: pass "
        f"embedder=SentenceTransformerEmbedder({str(name)!r}) (from skill_retriever.stores.embedder), "
        "or leave it out for the model the index was built with"
    )
    with pytest.raises(ConfigError, match=r"^Index.open's embedder must be an Embedder \(a name, a dim and embed"):
        Index.open(index.path, embedder=object())  # type: ignore[arg-type]
    with Index.open(index.path, embedder=HashingEmbedder()) as again:  # an Embedder is still taken
        assert len(again) == len(index)


@pytest.mark.parametrize("move", ["move_index_to_server", "move_index_to_embedded"])
def test_a_move_names_itself_not_index_open(index: Index, tmp_path: Path, move: str) -> None:
    """A move opens the index with Index.open, whose errors named Index.open: a bad
    ``lock_wait_s`` was "Index.open's lock_wait_s", and a busy index said to "open it with
    Index.open(..., lock_wait_s=SECONDS)", a call the caller never made."""
    def call(path: object, wait: object) -> object:
        if move == "move_index_to_server":
            return move_index_to_server(path, "http://localhost:8000", lock_wait_s=wait)  # type: ignore[arg-type]
        return move_index_to_embedded(path, lock_wait_s=wait)  # type: ignore[arg-type]

    with pytest.raises(ConfigError) as err:
        call(index.path, "5")
    assert str(err.value) == f"{move}'s lock_wait_s must be a number of seconds, not str"
    with pytest.raises(ConfigError) as err:
        call(index.path, -1)
    assert str(err.value) == f"{move}'s lock_wait_s must be 0 or more seconds, got -1"
    with pytest.raises(ConfigError, match=rf"^{move}'s path is empty"):
        call("", 0)
    with pytest.raises(IndexLockedError) as locked:  # ``index`` holds the write lock
        call(index.path, 0)
    assert f"call {move}(..., lock_wait_s=SECONDS) to wait for it" in str(locked.value)
    assert "Index.open" not in str(locked.value) and locked.value.directory == str(index.path)


# -- (c) a second handle of this process -------------------------------------------------------
def test_a_second_handle_in_this_process_is_told_so(index: Index) -> None:
    other = Index.open(index.path)
    try:
        with pytest.raises(IndexLockedError) as err:
            other.upsert(_node("p2"))
        message = str(err.value)
        assert message.startswith("another handle in this process (pid ") and "\n" not in message
        assert "close that handle or write through it" in message
        assert "waiting helps only when another thread closes it" in message  # not "wait for process N"
        index.close()
        other.upsert(_node("p2"))  # once the first handle is closed, the second writes
        assert "p2" in other
    finally:
        other.close()


def test_a_second_handle_waits_for_another_thread_to_close_the_first(index: Index) -> None:
    other = Index.open(index.path, lock_wait_s=30)
    try:
        threading.Timer(0.3, index.close).start()
        other.upsert(_node("late"))
        assert other.writable and "late" in other
    finally:
        other.close()


def test_another_process_is_still_named_as_a_process(index: Index) -> None:
    """The lock file naming this process's pid but held by no handle of it (another
    container's process of the same number, say) is not "another handle in this process"."""
    index.close()
    holder = subprocess.Popen(
        [sys.executable, "-c", (
            "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
            "fcntl.flock(fd, fcntl.LOCK_EX); os.ftruncate(fd, 0); os.write(fd, sys.argv[2].encode()); "
            "print('held', flush=True); time.sleep(60)"
        ), str(index.path / LOCK_FILE), str(os.getpid())],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with Index.open(index.path, embedder=HashingEmbedder()) as other, pytest.raises(IndexLockedError) as err:
            other.upsert(_node("p3"))
        assert str(err.value).startswith("process ") and "another handle" not in str(err.value)
    finally:
        holder.kill()
        holder.wait()


# -- (d) index_sources and remove_source take paths and names as a caller has them ----------
def test_index_sources_takes_str_and_pathlike_paths_and_one_path(tmp_path: Path) -> None:
    for name in ("alpha", "beta", "gamma"):
        write_skill(tmp_path / name, f"{name}-skill", f"Do the {name} thing.")
    with Index.open(tmp_path / "ix", create=True, embedder=HashingEmbedder()) as ix:
        index_sources(ix, [str(tmp_path / "alpha")], calibrate=False)
        index_sources(ix, [tmp_path / "beta"], calibrate=False)
        index_sources(ix, str(tmp_path / "gamma"), calibrate=False)  # one path alone: one source
        assert [s.name for s in sources_of(ix.snapshot().nodes)[0]] == ["alpha", "beta", "gamma"]
        for paths, message in [
            ([5], r"paths\[0\] must be a path \(str or os.PathLike\), not int"),
            ([""], r"paths\[0\] is empty; give a path"),
            (5, r"paths must be a list of source paths \(str or os.PathLike\), not int"),
        ]:
            with pytest.raises(ConfigError, match=message):
                index_sources(ix, paths, calibrate=False)  # type: ignore[arg-type]
        removed = remove_source(ix, "beta")
        assert removed and [s.name for s in sources_of(ix.snapshot().nodes)[0]] == ["alpha", "gamma"]
        with pytest.raises(ConfigError, match=r"remove_source takes a source's name \(str\), not PosixPath; "
                                              r"the index's sources: alpha, gamma"):
            remove_source(ix, tmp_path / "alpha")  # type: ignore[arg-type]
        assert len(sources_of(ix.snapshot().nodes)[0]) == 2


# -- (e) messages raised under Index.open name both ways to choose a folder -------------------
def test_a_foreign_database_names_index_open_beside_index_dir(tmp_path: Path) -> None:
    folder = tmp_path / "other"
    folder.mkdir()
    sqlite3.connect(folder / "items.sqlite").execute("CREATE TABLE songs (title TEXT)").connection.close()
    with pytest.raises(IndexNotFoundError, match=r"point --index-dir \(in Python, Index.open's path\) at an index, or at a new folder"):
        Index.open(folder, writable=True, embedder=HashingEmbedder())


def test_a_foreign_lock_file_names_index_open_beside_index_dir(tmp_path: Path) -> None:
    with Index.open(tmp_path / "ix", create=True, embedder=HashingEmbedder()):
        pass
    (tmp_path / "ix" / LOCK_FILE).write_text("my notes\n")
    with pytest.raises(IndexCorruptError, match=r"holds unexpected text.*if no skill-retriever run is using the index.*rm "):
        Index.open(tmp_path / "ix", writable=True, embedder=HashingEmbedder())
