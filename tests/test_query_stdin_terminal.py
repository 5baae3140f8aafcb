"""``query -`` at a terminal says that it reads the query there, and how to end it.

Found in a CLI audit: ``skill-retriever query -`` typed at a terminal waited without a
word, as if hung, until Ctrl-D; piped, it says nothing (a script reads only the answer).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from cli_calls import run
from runbook_index import runbook_index


def test_a_query_read_from_a_terminal_is_announced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ix = runbook_index(tmp_path, capsys)
    main_fd, term_fd = os.openpty()  # a real terminal: its line discipline ends the read at Ctrl-D
    try:
        os.write(main_fd, b"restore the database\n\x04")
        with os.fdopen(term_fd, "r", closefd=False) as terminal:
            monkeypatch.setattr(sys, "stdin", terminal)
            code, out, err = run(capsys, "query", "-", "--index-dir", ix, "-k", "1")
    finally:
        os.close(main_fd)
        os.close(term_fd)
    assert code == 0 and "runbook" in out
    assert "reading the query from the terminal: type it, then press Ctrl-D on a line of its own" in err


def test_a_piped_query_is_read_without_a_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ix = runbook_index(tmp_path, capsys)
    (tmp_path / "task.txt").write_text("restore the database\n", encoding="utf-8")
    with (tmp_path / "task.txt").open(encoding="utf-8") as piped:
        monkeypatch.setattr(sys, "stdin", piped)
        code, out, err = run(capsys, "query", "-", "--index-dir", ix, "-k", "1")
    assert code == 0 and "runbook" in out
    assert "reading the query" not in err
