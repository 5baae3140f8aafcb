"""Files that are not regular files: a named pipe, a socket, a link to one.

Reading a named pipe waits for a writer, so one ``notes.md`` pipe in a skill folder or a
documents folder used to hang ``index`` for good (found by hand: `skill-retriever index
docs --kind docs` never returned). The walk now names each such file in a note and goes
on; ``read_text`` also refuses one that took a file's place after the walk, without
waiting on it.

Each test keeps a writer knocking at the pipes it makes, so that code which does read a
pipe gets an empty read and fails its assertions instead of hanging the suite.
"""

from __future__ import annotations

import errno
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.exceptions import IngestError
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.skill_records import RecordError, read_text
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


@pytest.fixture()
def pipes() -> Iterator[list[Path]]:
    """A list to put named pipes in; until the test ends, each gets a writer that opens
    and closes it whenever a reader waits on it."""
    made: list[Path] = []
    done = threading.Event()

    def knock() -> None:
        while not done.wait(0.05):
            for pipe in made:
                try:
                    os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
                except OSError as exc:
                    if exc.errno not in (errno.ENXIO, errno.ENOENT):  # ENXIO: no reader waits
                        raise

    writer = threading.Thread(target=knock, daemon=True)
    writer.start()
    yield made
    done.set()
    writer.join()


def _fifo(path: Path, pipes: list[Path]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    pipes.append(path)
    return path


def _socket(path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))  # the file stays after the socket is closed


def test_a_skills_repo_with_a_pipe_a_socket_and_a_link_to_a_pipe_is_indexed(
    tmp_path: Path, pipes: list[Path]
) -> None:
    write_file(tmp_path, "skills/a/SKILL.md", "---\nname: a\ndescription: does a\n---\nbody\n")
    _fifo(tmp_path / "skills/a/notes.md", pipes)
    _fifo(tmp_path / "skills/b/SKILL.md", pipes)
    _socket(tmp_path / "skills/a/s.sock")
    (tmp_path / "skills/a/link.md").symlink_to("notes.md")
    result = ingest_skill_repo(tmp_path)
    (skill,) = result.nodes
    assert skill.name == "a"
    assert skill.attrs["files"] == []  # nothing of the four to install beside its SKILL.md
    notes = {Path(p.path).relative_to(tmp_path).as_posix(): p.message for p in result.problems}
    assert notes == {
        "skills/a/notes.md": "a named pipe, not a regular file: skipped",
        "skills/b/SKILL.md": "a named pipe, not a regular file: skipped",
        "skills/a/s.sock": "a socket, not a regular file: skipped",
        "skills/a/link.md": (f"symbolic link to a named pipe, not a regular file: skipped "
                             f"(it leads to {(tmp_path / 'skills/a/notes.md').resolve()})"),
    }
    assert all(p.read_whole for p in result.problems)  # notes: they hold nothing back from pruning


def test_a_documents_folder_with_a_pipe_is_indexed(tmp_path: Path, pipes: list[Path]) -> None:
    write_file(tmp_path, "docs/rollback.md", "# Rollback\n\nHow to roll back a deploy.\n")
    _fifo(tmp_path / "docs/pipe.md", pipes)
    result = ingest_documents(tmp_path / "docs")
    assert [n.name for n in result.nodes] == ["Rollback"]
    assert [p.message for p in result.problems] == ["a named pipe, not a regular file: skipped"]


def test_read_text_refuses_a_pipe_without_waiting_on_it(tmp_path: Path, pipes: list[Path]) -> None:
    """A pipe that took a listed file's place before it was read."""
    with pytest.raises(RecordError, match=r"not a regular file \(a named pipe, socket or device\); skipped"):
        read_text(_fifo(tmp_path / "SKILL.md", pipes), 1_000)


@pytest.mark.parametrize("kind", [None, "docs", "skills"])
def test_a_pipe_given_as_the_source_is_refused_as_what_it_is(
    tmp_path: Path, pipes: list[Path], kind: str | None
) -> None:
    """``index docs/pipe.md`` said "skills repository 'docs/pipe.md' is not a folder; pass
    the repository's root" (with --kind docs, "documents folder ... is not a folder")."""
    pipe = _fifo(tmp_path / "docs/pipe.md", pipes)
    with (Index.open(tmp_path / "ix", embedder=HashingEmbedder(64), create=True) as index,
          pytest.raises(IngestError) as caught):
        index_sources(index, [pipe], kind)  # type: ignore[arg-type]
    assert str(caught.value).startswith(f"{pipe} is a named pipe, not a file or folder")
    assert "repository" not in str(caught.value)
