"""``repair`` says what it cannot mend, and exits 1: an embedder that does not load (no
query could be searched, though every stored vector is in place) and an index run that
did not finish (only indexing its source again completes it)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.stores import run_marks
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def built(tmp_path: Path) -> Path:
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [sample_catalogue_path()], "skills", calibrate=False)
    return tmp_path / "ix"


def test_an_embedder_that_does_not_load_is_said(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Where ``items.sqlite`` records a model that loads, repair puts it back instead
    (``tests/stores/test_damage.py``); here the record names the missing model too."""
    manifest = json.loads((built / "index.json").read_text())
    missing = str(built / "no-such-model")
    (built / "index.json").write_text(json.dumps({**manifest, "embedder": missing}))
    with sqlite3.connect(built / "items.sqlite") as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'embedder'", (missing,))
    assert main(["repair", "--index-dir", str(built)]) == 1
    out = capsys.readouterr()
    assert "is as it was" in out.out
    assert "warning: no query can be searched: cannot load embedding model" in out.err


def test_an_unfinished_run_is_said_and_a_healthy_index_is_in_step(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["repair", "--index-dir", str(built)]) == 0
    assert "is in step" in capsys.readouterr().out
    with Index.open(built, writable=True) as index:
        run_marks.begin(index, "sample_catalogue", sample_catalogue_path())
    assert main(["repair", "--index-dir", str(built), "--json"]) == 1
    left = json.loads(capsys.readouterr().out)["left"]
    assert len(left) == 1 and left[0].startswith("unfinished index runs: sample_catalogue (started")


def test_vectors_mended_beside_an_unfinished_run_say_both_in_one_line(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "is repaired" above an exit 1: what repair did, then what is left and the
    command that finishes it (the server's case prints the same line: `repair_words`)."""
    with Index.open(built, writable=True) as index:
        run_marks.begin(index, "sample_catalogue", sample_catalogue_path())
    with sqlite3.connect(built / "items.sqlite") as db:
        db.execute("UPDATE nodes SET vector = NULL WHERE id = (SELECT id FROM nodes LIMIT 1)")
    assert main(["repair", "--index-dir", str(built)]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    finish = f"skill-retriever index {sample_catalogue_path()} --source-name sample_catalogue --index-dir {built}"
    assert line.startswith(f"index {built} is repaired as far as repair goes (embedded 1 item vector(s) again): ")
    assert line.endswith(f"; left for you, so exit 1: the unfinished run of sample_catalogue is finished by "
                         f"running: `{finish}`")
    assert main(["repair", "--index-dir", str(built)]) == 1  # the vectors in place now: nothing done
    assert " is as it was: " in capsys.readouterr().out
