"""The MCP status resource named every unfinished index run by its source, with the folder
it reads and the process writing it (found in a user walkthrough: a run of a private
source under way showed as ``"secops-runbooks": {"path": "/srv/secops-runbooks", ...}`` to
a caller who may see nothing of it), while each tool's answer says the same run without a
source name. A caller whose view is limited now gets that answer's line instead; a caller
who may see everything keeps the marks, as ``stats --json`` gives them.

A real index (the hashing embedder) of a public and a private source, its private source's
run marked as under way (`stores.run_marks.begin`, as an index run marks it), read through
the server's resource as each caller.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.adapters.mcp_server import STATUS_URI, build_server
from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores import run_marks
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PRIVATE = "secops-runbooks"


def _skill(folder: Path, name: str, access: str = "") -> None:
    path = folder / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: Rotate {name} keys.\n{access}---\nbody\n", encoding="utf-8")


@pytest.fixture()
def index(tmp_path: Path) -> Iterator[Index]:
    public, private = tmp_path / "team-skills", tmp_path / PRIVATE
    _skill(public, "rotate-keys")
    _skill(private, "unseal-vault", "access: [secops]\n")
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(64), create=True)
    index_sources(idx, [public], "skills")
    index_sources(idx, [private], "skills")
    run_marks.begin(idx, PRIVATE, private)  # its next run, under way (this process holds no lock: "stopped")
    yield idx
    idx.close()


def _status(index: Index, principals: list[str]) -> tuple[str, dict[str, Any]]:
    server = build_server(index, retriever=Retriever(index, reranker=None), principals=principals)
    text = str(asyncio.run(server.read_resource(STATUS_URI))[0].content)
    return text, json.loads(text)


def test_a_limited_caller_is_told_of_the_run_without_its_source(index: Index, tmp_path: Path) -> None:
    text, status = _status(index, ["alice"])
    assert PRIVATE not in text and str(tmp_path / PRIVATE) not in text
    assert "unfinished_runs" not in status
    assert status["index_runs"].startswith("1 index run(s) of this index, started ")
    assert status["index_runs"] == run_marks.answer_warning(index.snapshot().unfinished_runs)
    assert status["nodes"] == 1  # what alice may see


def test_a_caller_who_sees_everything_keeps_the_marks(index: Index, tmp_path: Path) -> None:
    _, status = _status(index, ["*"])
    assert status["unfinished_runs"][PRIVATE]["path"] == str(tmp_path / PRIVATE)
    assert "index_runs" not in status and status["nodes"] == 2
