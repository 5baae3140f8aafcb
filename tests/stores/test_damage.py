"""Damage to an index directory, on a real small index: a one-line error that says what to
do, or (for what the stored text can rebuild) a warning and a repair; never a traceback,
and nothing already stored is lost.

- a damaged database page: the friendly error is not masked by ending the transaction;
- a stored vector that is not ``dim`` finite float32s, is all zeros, or (an item's) is
  missing: read as missing (the item stays,
  found by keywords), counted in ``status()``, embedded again by ``repair``;
- ``index.json`` naming another ``dim`` than the vectors: both numbers named; ``repair``
  corrects it;
- ``index.json`` missing beside readable items: ``repair`` recreates it;
- ``items.sqlite`` missing: the advice given works.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from tiny_graph import build_tiny_index, tiny_nodes

from skill_retriever.cli import main
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SIDE_FILES = {"items.sqlite-wal", "items.sqlite-shm", "write.lock"}


def digest(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name not in SIDE_FILES
    }


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A closed tiny index (HashingEmbedder(64): reopened by its name, no model to load)."""
    build_tiny_index(tmp_path / "ix").close()
    return tmp_path / "ix"


def sql(path: Path, statement: str, *args: object) -> list[tuple[object, ...]]:
    db = sqlite3.connect(path / "items.sqlite")
    try:
        rows = db.execute(statement, args).fetchall()
        db.commit()
        return rows
    finally:
        db.close()


# -- 1. a damaged page --------------------------------------------------------------------
def damage_page_of(path: Path, name: str = "nodes") -> None:
    ((root,),) = sql(path, "SELECT rootpage FROM sqlite_master WHERE name = ?", name)
    with (path / "items.sqlite").open("r+b") as fh:
        fh.seek((int(root) - 1) * 4096)
        fh.write(b"\xde\xad\xbe\xef" * 1024)


def damage_nodes_page(path: Path) -> None:
    damage_page_of(path, "nodes")


@pytest.mark.parametrize("writable", [False, True])
def test_a_damaged_page_is_one_clear_error_and_changes_nothing(built: Path, writable: bool) -> None:
    damage_nodes_page(built)
    kept = digest(built)
    with pytest.raises(IndexCorruptError) as err:
        Index.open(built, writable=writable)
    message = str(err.value)
    assert "\n" not in message and "malformed" in message and "repair --index-dir" in message  # it salvages
    assert isinstance(err.value.__cause__, sqlite3.DatabaseError)
    assert digest(built) == kept


@pytest.mark.parametrize("command", [["stats"], ["query", "review code"]])  # repair salvages: test_s44_crashB_salvage
def test_a_damaged_page_gives_the_cli_one_line_and_exit_2(
    built: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    damage_nodes_page(built)
    assert main([*command, "--index-dir", str(built)]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith("skill-retriever: error:") and "cannot be read (database disk image is malformed)" in line


def test_a_write_that_fails_on_a_damaged_page_is_one_clear_error(built: Path) -> None:
    damage_page_of(built, "sqlite_autoindex_nodes_1")  # a load never reads it; an upsert does
    index = Index.open(built, writable=True)
    try:
        with pytest.raises(IndexCorruptError) as err:
            index.upsert([Node(id="x:1", kind="skill", name="late", text="written late")])
        assert "\n" not in str(err.value) and "nothing of it stored" in str(err.value)
        assert "x:1" not in index.snapshot() and len(index) == len(tiny_nodes())
    finally:
        index.close()


# -- 2. unusable vectors ------------------------------------------------------------------
FLOAT_NAN = np.full(64, np.nan, dtype="<f4").tobytes()

BAD_VECTORS = {
    "two floats": np.ones(2, dtype="<f4").tobytes(),
    "two bytes": b"\x00\x00",
    "non-finite": FLOAT_NAN,
    "text": "not a vector",
    "all zeros": np.zeros(64, dtype="<f4").tobytes(),  # its cosine is 0 with every query
    "missing": None,  # every item has a vector (a relation only when its kind is embedded)
}


@pytest.mark.parametrize("blob", list(BAD_VECTORS.values()), ids=list(BAD_VECTORS))
def test_an_unusable_vector_is_read_as_missing_and_repair_embeds_it_again(
    built: Path, blob: object, caplog: pytest.LogCaptureFixture
) -> None:
    node = tiny_nodes()[0]
    sql(built, "UPDATE nodes SET vector = ? WHERE id = ?", blob, node.id)
    kept = digest(built)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        reader = Index.open(built)
    try:
        status = reader.status()
        assert status["nodes"] == len(tiny_nodes())  # the item stays
        assert status["vectors"]["nodes"] == len(tiny_nodes()) - 1
        assert status["unusable_vectors"] == {"nodes": 1, "edges": 0}
        assert reader.snapshot().node_vector(node.id) is None
        warning = " ".join(r.getMessage() for r in caplog.records)
        assert "1 item vector(s)" in warning and f"skill-retriever repair --index-dir {built}" in warning
        # Still searched, and found by its words.
        resp = Retriever(reader, reranker=None).search(node.name, k=5, principals=["*"])
        assert node.id in [r.id for r in resp.results]
    finally:
        reader.close()
    assert digest(built) == kept  # a reader never writes
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        Index.open(built, writable=True).close()  # what `skill-retriever repair` does
    assert "repaired 1 item vector(s)" in " ".join(r.getMessage() for r in caplog.records)
    ((stored,),) = sql(built, "SELECT vector FROM nodes WHERE id = ?", node.id)
    expected = HashingEmbedder(64).embed([node.embedding_text()])[0]
    assert np.array_equal(np.frombuffer(stored, dtype="<f4"), expected)  # type: ignore[arg-type]
    with Index.open(built) as again:
        assert "unusable_vectors" not in again.status()
        assert again.status()["vectors"]["nodes"] == len(tiny_nodes())


def test_an_unusable_edge_vector_is_embedded_again(built: Path) -> None:
    ((edge_id,),) = sql(built, "SELECT id FROM edges WHERE vector IS NOT NULL ORDER BY id LIMIT 1")
    sql(built, "UPDATE edges SET vector = ? WHERE id = ?", b"\x00\x00\x80", edge_id)
    with Index.open(built) as reader:
        assert reader.status()["unusable_vectors"] == {"nodes": 0, "edges": 1}
        assert edge_id not in reader.snapshot().vector_ids()[1]
    Index.open(built, writable=True).close()
    with Index.open(built) as again:
        assert "unusable_vectors" not in again.status()
        assert edge_id in again.snapshot().vector_ids()[1]


def test_the_cli_warns_about_an_unusable_vector_and_repair_mends_it(
    built: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    node = tiny_nodes()[0]
    sql(built, "UPDATE nodes SET vector = ? WHERE id = ?", np.ones(2, dtype="<f4").tobytes(), node.id)
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        assert main(["stats", "--index-dir", str(built), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["unusable_vectors"] == {"nodes": 1, "edges": 0}
        assert "skill-retriever repair" in one_line(caplog.text)
        caplog.clear()
        assert main(["repair", "--index-dir", str(built)]) == 0
        assert "repaired 1 item vector(s)" in one_line(caplog.text)
        assert "is repaired (embedded 1 item vector(s) again)" in capsys.readouterr().out
        caplog.clear()
        assert main(["repair", "--index-dir", str(built)]) == 0
        assert "is in step" in capsys.readouterr().out  # nothing left to mend
        caplog.clear()
        assert main(["stats", "--index-dir", str(built), "--json"]) == 0
        assert "unusable_vectors" not in json.loads(capsys.readouterr().out) and caplog.text == ""


def set_manifest(path: Path, **changes: object) -> None:
    manifest = json.loads((path / "index.json").read_text())
    (path / "index.json").write_text(json.dumps({**manifest, **changes}))


def test_a_manifest_with_another_dim_names_both_numbers_and_repair_corrects_it(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_manifest(built, dim=128)
    kept = digest(built)
    with pytest.raises(IndexCorruptError) as err:
        Index.open(built)
    message = str(err.value)
    assert "\n" not in message and "128" in message and "have 64" in message
    assert f"skill-retriever repair --index-dir {built}" in message
    assert digest(built) == kept
    assert main(["repair", "--index-dir", str(built)]) == 0  # it said "in step" (a walkthrough)
    assert "is repaired (set index.json's dim 128 to 64, the stored vectors' length)" in capsys.readouterr().out
    assert json.loads((built / "index.json").read_text())["dim"] == 64
    with Index.open(built) as again:
        assert again.status()["vectors"]["nodes"] == len(tiny_nodes())
        assert "unusable_vectors" not in again.status()


@pytest.mark.parametrize("command", [["stats"], ["repair"], ["query", "skill"]])
def test_a_manifest_of_another_version_is_named_so_and_left_alone(
    built: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """It was "not a skill-retriever index manifest ... delete this one and run index
    again": advice that would destroy another version's index (found in a walkthrough)."""
    set_manifest(built, format="skill-retriever-index/2")
    kept = digest(built)
    assert main([*command, "--index-dir", str(built)]) == 2
    err = capsys.readouterr().err
    assert "was written by another version of skill-retriever (format 'skill-retriever-index/2'" in err
    assert "delete" not in err and "this one is left as it is" in err
    assert digest(built) == kept


# -- 3. missing files ---------------------------------------------------------------------
def test_a_missing_manifest_beside_readable_items_is_recreated_by_repair(built: Path) -> None:
    before = json.loads((built / "index.json").read_text())
    (built / "index.json").unlink()
    with pytest.raises(IndexCorruptError) as err:
        Index.open(built)
    message = str(err.value)
    assert "no index at" not in message and "index.json is missing" in message
    assert f"skill-retriever repair --index-dir {built}" in message
    assert not (built / "index.json").exists()  # a reader changes nothing
    Index.open(built, writable=True).close()
    after = json.loads((built / "index.json").read_text())
    assert (after["embedder"], after["dim"], after["format"]) == (before["embedder"], 64, before["format"])
    with Index.open(built) as again:
        assert len(again) == len(tiny_nodes()) and again.status()["vectors"]["nodes"] == len(tiny_nodes())


def test_a_missing_manifest_of_an_older_index_is_recreated_with_the_embedder_given(built: Path) -> None:
    sql(built, "DELETE FROM meta WHERE key = 'embedder'")  # written before the database named it
    (built / "index.json").unlink()
    Index.open(built, embedder=HashingEmbedder(64), writable=True).close()
    with Index.open(built) as again:
        assert again.embedder.name == "hashing-64" and len(again) == len(tiny_nodes())


def test_the_advice_for_a_missing_database_works(built: Path, tmp_path: Path) -> None:
    (built / "items.sqlite").unlink()
    with pytest.raises(IndexCorruptError) as err:
        Index.open(built, create=True)
    message = str(err.value)
    assert "\n" not in message and f"--index-dir {built}`" not in message
    assert "--index-dir <new directory>" in message
    build_tiny_index(tmp_path / "new directory").close()  # what it says, done


def test_repair_computes_an_unreadable_calibration_again(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stored calibration that cannot be parsed is derived data: stats and queries go on
    and say it is unreadable; repair (the command they point to) computes it again,
    instead of saying "in step"."""
    with Index.open(built, writable=True) as index:
        index.store_meta("calibration", "{not json")
    assert main(["stats", "--index-dir", str(built)]) == 0
    out = capsys.readouterr().out
    assert "calibration: the index's calibration is unreadable" in out and "repair --index-dir" in out
    assert main(["query", "alembic migrations", "--index-dir", str(built), "--json"]) == 0
    assert any("calibration is unreadable" in w for w in json.loads(capsys.readouterr().out)["warnings"])
    assert main(["repair", "--index-dir", str(built)]) == 0
    assert "computed its calibration again (the stored one could not be read)" in capsys.readouterr().out
    assert main(["stats", "--index-dir", str(built)]) == 0
    assert main(["query", "alembic migrations", "--index-dir", str(built)]) == 0


def test_a_search_warns_of_unusable_vectors_it_may_see(built: Path) -> None:
    """Items with an unusable vector are missing from the semantic channel: each answer
    says how many (of those the caller may see) and what to run."""
    public = tiny_nodes()[0]
    private = next(n for n in tiny_nodes() if n.access)
    for node in (public, private):
        sql(built, "UPDATE nodes SET vector = ? WHERE id = ?", np.ones(2, dtype="<f4").tobytes(), node.id)
    with Index.open(built) as index:
        retriever = Retriever(index, reranker=None, cache_size=0)
        everyone = retriever.search("alembic migrations", principals=["*"]).warnings
        anonymous = retriever.search("alembic migrations").warnings
    assert any(w.startswith("2 item(s) have an unusable stored vector") and "skill-retriever repair" in w
               for w in everyone)
    assert any(w.startswith("1 item(s) have an unusable stored vector") for w in anonymous)


def test_repair_names_relations_whose_item_was_deleted_behind_its_back(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rows deleted by hand left relations to nothing, and repair said "in step" (found by
    a walkthrough)."""
    sql(built, "DELETE FROM nodes WHERE id = ?", "skill:alembic")  # postgres-migrations DEPENDS_ON it
    assert main(["repair", "--index-dir", str(built)]) == 1
    out, err = capsys.readouterr()
    assert "in step" not in out and "is as it was" in out
    assert "1 relation(s) end at an item the index does not hold" in err and "'skill:alembic'" in err


def test_repair_puts_back_the_model_the_items_record_when_the_named_one_does_not_load(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "as it was", with a warning that no query can be searched (a walkthrough)."""
    set_manifest(built, embedder="nobody/no-such-model")
    assert main(["repair", "--index-dir", str(built)]) == 0
    out = capsys.readouterr().out
    assert "set index.json's embedder 'nobody/no-such-model', which does not load, back to 'hashing-64'" in out
    assert json.loads((built / "index.json").read_text())["embedder"] == "hashing-64"
    assert main(["query", "review code", "--index-dir", str(built)]) == 0
    set_manifest(built, embedder="hashing-32")  # one that loads is the user's to keep, though wrong
    main(["repair", "--index-dir", str(built)])
    assert json.loads((built / "index.json").read_text())["embedder"] == "hashing-32"
