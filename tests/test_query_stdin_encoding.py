"""``query -`` reads a task in the encoding its byte order mark names (`query_args.stdin_text`).

A task saved by PowerShell (``> task.txt``) is UTF-16; read as UTF-8 it was searched as
``h\\x00e\\x00l\\x00...``, with no word (seen in QA).
"""

from __future__ import annotations

import codecs
import io

import pytest

from skill_retriever.query_args import stdin_text

TASK = "helm chart for a café's API"


@pytest.mark.parametrize(
    "data",
    [
        codecs.BOM_UTF16_LE + TASK.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + TASK.encode("utf-16-be"),
        codecs.BOM_UTF32_LE + TASK.encode("utf-32-le"),
        codecs.BOM_UTF8 + TASK.encode("utf-8"),
        TASK.encode("utf-8"),
    ],
)
def test_the_task_reads_as_written(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert stdin_text() == TASK


def test_a_text_stream_in_stdins_place_is_read_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(TASK))
    assert stdin_text() == TASK
