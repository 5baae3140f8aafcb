"""`query` says in its answer why its vectors were searched in memory (the index's Chroma
server did not answer), and the library logs the same words for a program or a server's
log. The CLI printed both, the note on stdout and the log line on stderr (seen: a CLI
walk-through, `query ... --chroma-url <a server that is down>`); while `query` runs, the
line marked as said in every answer (`log_marks.SAID_IN_ANSWERS`) is no longer logged,
and after it the library logs it again."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from chroma_support import free_port
from cli_calls import run
from runbook_index import runbook_index

from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

DOWN = "nothing listens at"


def _logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if DOWN in r.getMessage()]


def test_query_says_a_down_server_once_and_the_library_still_logs_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    ix = runbook_index(tmp_path, capsys)
    url = f"http://127.0.0.1:{free_port()}"
    caplog.set_level(logging.INFO, logger="skill_retriever")

    code, out, _ = run(capsys, "query", "restore the database", "--index-dir", ix, "--chroma-url", url)
    assert code == 0
    assert DOWN in out  # the answer's own note
    assert _logged(caplog) == []

    code, out, _ = run(capsys, "query", "restore the database", "--index-dir", ix, "--chroma-url", url, "--json")
    assert code == 0
    assert any(DOWN in w for w in json.loads(out)["warnings"])
    assert _logged(caplog) == []

    # A program's own reader, after the command: the line is logged, as before.
    with Index.open(Path(ix), embedder=HashingEmbedder(64), chroma_url=url) as index:
        assert any(DOWN in note for note in index.snapshot().search_notes())
    assert len(_logged(caplog)) == 1
