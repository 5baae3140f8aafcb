"""A row of ``items.sqlite`` whose item cannot be read back (its JSON damaged) no longer
makes the whole index unreadable: it is left out with a warning that names it and says
what to do, the rest is served (queries, ``stats``), and indexing its source again
rewrites it. A reader that held an older version of that item drops it too: its access
labels may be what changed."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SKILL = "---\nname: {0}\ndescription: {0} things for the team\n---\n\nDo {0}.\n"


def _damage(index_dir: Path, node_id: str) -> None:
    with sqlite3.connect(index_dir / "items.sqlite") as db:
        db.execute("UPDATE nodes SET data = '{not json' WHERE id = ?", (node_id,))


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    src = tmp_path / "skills"
    for name in ("alpha", "beta", "gamma"):
        write_file(src, f"{name}/SKILL.md", SKILL.format(name))
    index = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    index_sources(index, [src])
    index.close()
    return src, tmp_path / "idx"


def test_a_damaged_row_is_left_out_and_the_rest_served(
    built: tuple[Path, Path], caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    src, idx = built
    _damage(idx, "skills/beta/SKILL.md")
    with caplog.at_level(logging.WARNING, logger="skill_retriever"):
        reader = Index.open(idx, embedder=HashingEmbedder())
    assert set(reader.snapshot().nodes) == {"skills/alpha/SKILL.md", "skills/gamma/SKILL.md"}
    said = caplog.text
    assert "1 row(s) of" in said and "'skills/beta/SKILL.md'" in said and "Index their source again" in said
    reader.close()
    assert main(["stats", "--index-dir", str(idx)]) == 0  # stats works, to find the sources
    capsys.readouterr()
    writer = Index.open(idx, embedder=HashingEmbedder())
    index_sources(writer, [src])  # the source again: the row is rewritten
    writer.close()
    again = Index.open(idx, embedder=HashingEmbedder())
    assert "skills/beta/SKILL.md" in again.snapshot().nodes
    again.close()


def test_a_reader_drops_the_old_version_of_a_row_damaged_since(built: tuple[Path, Path]) -> None:
    _, idx = built
    reader = Index.open(idx, embedder=HashingEmbedder())
    assert "skills/beta/SKILL.md" in reader.snapshot().nodes
    with sqlite3.connect(idx / "items.sqlite") as db:  # a later write that came out damaged
        db.execute("UPDATE nodes SET data = '{not json', seq = seq + 100 WHERE id = 'skills/beta/SKILL.md'")
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 100 WHERE key = 'version'")
    assert "skills/beta/SKILL.md" not in reader.snapshot().nodes
    reader.close()


def test_repair_says_a_damaged_row_is_left_not_in_step(
    built: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """It printed "is in step", rc 0, beside the warning that the row cannot be read back
    (found by a walkthrough); repair has no text to rebuild it from, so it says so."""
    src, idx = built
    _damage(idx, "skills/beta/SKILL.md")
    assert main(["repair", "--index-dir", str(idx)]) == 1
    out, err = capsys.readouterr()
    assert "in step" not in out and "is as it was" in out
    assert "1 row(s) of items.sqlite cannot be read back" in err and "'skills/beta/SKILL.md'" in err
    assert main(["repair", "--index-dir", str(idx), "--json"]) == 1
    assert '"unreadable_rows"' in capsys.readouterr().out
    writer = Index.open(idx, embedder=HashingEmbedder())
    index_sources(writer, [src])  # what it says to do
    writer.close()
    assert main(["repair", "--index-dir", str(idx)]) == 0
    assert "is in step" in capsys.readouterr().out

