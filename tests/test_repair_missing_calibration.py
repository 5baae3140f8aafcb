"""``repair`` draws the calibration of an index that holds items but none (QA): a
calibration row deleted, or lost to a salvage of a damaged meta page, left "nothing fits"
off for every query while ``repair`` said the index was "in step" and each answer said
the index "was never calibrated". An index with no items stays as it is.

The index is made by ``skill-retriever index`` with the bundled model, as a user's is.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

DRAWN = "computed its missing calibration (no answer was judged 'nothing fits' without it)"
PAGE = 4096


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A skills repository of three skills indexed (and so calibrated) by the CLI, once."""
    from skill_retriever.cli import main

    root = tmp_path_factory.mktemp("calibrated")
    for name, what in (("pdf", "fill PDF forms"), ("git-commit", "write git commit messages"),
                       ("sql-tuning", "speed up slow SQL queries")):
        write_file(root, f"repo/skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: How to {what}.\n---\n"
                   f"Steps to {what}, checked one by one.\n")
    assert main(["index", str(root / "repo"), "--index-dir", str(root / "ix")]) == 0
    return root / "ix"


@pytest.fixture
def built(calibrated: Path, tmp_path: Path) -> Path:
    """This test's copy of the calibrated index."""
    return Path(shutil.copytree(calibrated, tmp_path / "ix"))


def _calibration(capsys: pytest.CaptureFixture[str], ix: Path) -> object:
    code, out, _ = run(capsys, "stats", "--index-dir", ix, "--json")
    assert code == 0
    return json.loads(out)["calibration"]


def _drop_calibration(ix: Path) -> None:
    with sqlite3.connect(ix / "items.sqlite") as db:
        assert db.execute("DELETE FROM meta WHERE key = 'calibration'").rowcount == 1


def test_repair_draws_a_deleted_calibration_and_says_so(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _drop_calibration(built)
    assert _calibration(capsys, built) is None
    code, out, _ = run(capsys, "repair", "--index-dir", built)
    assert code == 0
    assert out.startswith(f"index {built} is repaired ({DRAWN}): 3 nodes")
    assert _calibration(capsys, built) is not None
    code, out, _ = run(capsys, "query", "bake sourdough bread", "--index-dir", built, "-k", "1", "--json")
    assert code == 0 and not any("never calibrated" in w for w in json.loads(out)["warnings"])
    code, out, _ = run(capsys, "repair", "--index-dir", built)  # nothing more to do
    assert code == 0 and out.startswith(f"index {built} is in step: ")


def test_repair_json_lists_the_calibration_drawn(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _drop_calibration(built)
    code, out, _ = run(capsys, "repair", "--index-dir", built, "--json")
    assert code == 0 and json.loads(out)["repaired"] == [DRAWN]
    code, out, _ = run(capsys, "repair", "--index-dir", built, "--json")
    assert code == 0 and json.loads(out)["repaired"] == []


def test_a_salvage_that_lost_the_meta_page_draws_the_calibration_again(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The meta table's page overwritten (as ``dd`` would): every row of it is lost to the
    salvage, the calibration among them; its items are read back and calibrated again."""
    with sqlite3.connect(built / "items.sqlite") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'meta'").fetchone()
        assert db.execute("PRAGMA page_size").fetchone() == (PAGE,)
    with (built / "items.sqlite").open("r+b") as fh:
        fh.seek((root - 1) * PAGE)
        fh.write(b"\xde\xad\xbe\xef" * (PAGE // 4))
    code, out, _ = run(capsys, "repair", "--index-dir", built, "--json")
    repaired = json.loads(out)["repaired"]
    assert code == 0 and repaired[0].startswith("salvaged the damaged items.sqlite") and repaired[1:] == [DRAWN]
    assert _calibration(capsys, built) is not None
    code, out, _ = run(capsys, "repair", "--index-dir", built)
    assert code == 0 and out.startswith(f"index {built} is in step: ")


def test_an_index_with_no_items_stays_uncalibrated(
    tmp_path: Path, real_embedder: SentenceTransformerEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing to draw a calibration from: repair leaves it in step, as it was."""
    Index.open(tmp_path / "ix", embedder=real_embedder, create=True).close()
    code, out, _ = run(capsys, "repair", "--index-dir", tmp_path / "ix", "--json")
    assert code == 0 and json.loads(out)["repaired"] == []
    assert _calibration(capsys, tmp_path / "ix") is None
