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

import subprocess
import sys
from pathlib import Path

import pytest
from cli_calls import run
from tiny_graph import tiny_edges, tiny_nodes

from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

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
