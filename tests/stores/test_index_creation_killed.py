"""A new index's create killed (SIGKILL, power loss) while it writes items.sqlite's schema.

The schema's tables were made one autocommitted statement at a time and its version written
after them, so a kill between left a database of some of the tables and no version: every
later command, `index` included, refused the folder ("has schema version None", or "a
database of other tables (meta, nodes), not a skill-retriever index's") until it was deleted
by hand. Seen killing `skill-retriever index <repo> --index-dir D` 0.7 s and 1.1 s in.

The child process dies with ``os._exit`` (no cleanup, no rollback: what SIGKILL leaves) as
SQLite starts the statement named, the way a kill lands at any point of the create.

A create killed before its manifest (its first write) left a folder of items.sqlite and
write.lock, of which `stats` and `query` said "it holds files but no index; ... or, if it is
a source to search, index it into a folder of its own", as of a source named by mistake.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_calls import run
from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.items_schema import SCHEMA

_CHILD = """
import os, sys
from pathlib import Path
from skill_retriever.stores import items
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

real = items.connect
trigger = sys.argv[2]
if trigger == 'manifest':
    from skill_retriever.stores import opening
    opening.mf.write_manifest = lambda *a: os._exit(9)

def connect(path, writable):
    db = real(path, writable)
    if writable:
        db.set_trace_callback(lambda sql: os._exit(9) if sql.lstrip().startswith(trigger) else None)
    return db

items.connect = connect
Index.open(Path(sys.argv[1]), embedder=HashingEmbedder(), create=True)
"""


@pytest.mark.parametrize(
    "trigger",
    [
        "CREATE TABLE IF NOT EXISTS edges",  # meta and nodes made, edges not
        "INSERT OR REPLACE INTO meta",  # every table made, the version not written
    ],
)
def test_a_create_killed_inside_the_schema_leaves_a_folder_the_next_run_indexes(tmp_path: Path, trigger: str) -> None:
    where = tmp_path / "ix"
    child = subprocess.run([sys.executable, "-c", _CHILD, str(where), trigger], check=False, capture_output=True, text=True)
    assert child.returncode == 9, child.stderr  # it died where it was meant to
    assert (where / "items.sqlite").exists()
    with Index.open(where, embedder=HashingEmbedder(), create=True) as index:  # the next run
        index.upsert(tiny_nodes(), tiny_edges())
    with Index.open(where) as index:  # a reader's open, as `stats` and `query` do
        assert sorted(index.nodes) == sorted(n.id for n in tiny_nodes())


def test_a_create_killed_before_its_manifest_is_named_so_by_stats_and_query(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = tmp_path / "ix"
    child = subprocess.run([sys.executable, "-c", _CHILD, str(where), "manifest"], check=False, capture_output=True, text=True)
    assert child.returncode == 9, child.stderr
    assert {"items.sqlite", "write.lock"} <= {p.name for p in where.iterdir()}
    for argv in (["stats"], ["query", "deploy"]):
        code, _, err = run(capsys, *argv, "--index-dir", str(where))
        assert code == 2
        assert "was stopped before its first write finished" in err, err
        assert f"skill-retriever index <sources> --index-dir {where}" in err, err
        assert "source to search" not in err, err


# What a version before items_schema.write_schema left when its create was killed part way:
# tables made one autocommitted statement at a time, the schema version after them.
_META = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
_NODES = (
    "CREATE TABLE nodes (id TEXT PRIMARY KEY, hash TEXT NOT NULL, data TEXT NOT NULL, vector BLOB,"
    " seq INTEGER NOT NULL DEFAULT 0, terms BLOB, terms_key TEXT);"
)


def _left_by_an_older_create(where: Path, script: str, *, lock: bool = True) -> None:
    where.mkdir()
    db = sqlite3.connect(where / "items.sqlite")
    db.executescript(script)
    db.close()
    if lock:  # an older create took the lock before it made the database, as this one does
        (where / "write.lock").touch()


def _graph() -> dict[str, Any]:
    return {"nodes": [{"id": f"skill:{w}", "kind": "skill", "name": w, "description": f"{w} helper"}
                      for w in ("deploy", "rollback", "audit")], "edges": []}


_OLDER_LEFTOVERS = {
    "meta and nodes only": _META + _NODES,
    "every table, no version": SCHEMA,
}


@pytest.mark.parametrize("script", list(_OLDER_LEFTOVERS.values()), ids=list(_OLDER_LEFTOVERS))
@pytest.mark.parametrize("lock", [True, False], ids=["lock", "no lock"])
def test_an_older_versions_create_killed_part_way_is_started_over_by_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, script: str, lock: bool
) -> None:
    where = tmp_path / "ix"
    _left_by_an_older_create(where, script, lock=lock)
    for argv in (["stats"], ["query", "deploy"], ["repair"]):  # told what happened, given the command
        code, _, err = run(capsys, *argv, "--index-dir", str(where))
        assert code == 2
        assert "was stopped before its first write finished" in err, err
        assert f"skill-retriever index <sources> --index-dir {where}" in err, err
    (tmp_path / "ops.json").write_text(json.dumps(_graph()), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        code, _, err = run(capsys, "index", tmp_path / "ops.json", "--index-dir", where, "--embedder", "hashing-64")
    assert code == 0, err
    assert "started it over" in caplog.text, caplog.text  # said, not done silently
    code, _, err = run(capsys, "stats", "--index-dir", str(where))
    assert code == 0, err
    with Index.open(where) as index:
        assert sorted(index.nodes) == sorted(n["id"] for n in _graph()["nodes"])


def test_an_older_create_with_a_row_stays_refused_and_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = tmp_path / "ix"
    _left_by_an_older_create(where, _META + _NODES + "INSERT INTO nodes(id, hash, data) VALUES ('a', 'h', '{}');")
    before = (where / "items.sqlite").read_bytes()
    (tmp_path / "ops.json").write_text(json.dumps(_graph()), encoding="utf-8")
    code, _, err = run(capsys, "index", tmp_path / "ops.json", "--index-dir", where, "--embedder", "hashing-64")
    assert code != 0
    assert "nothing there was changed" in err, err
    assert (where / "items.sqlite").read_bytes() == before
    assert not (where / "index.json").exists()
